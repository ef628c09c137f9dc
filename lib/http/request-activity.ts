// The requests this server is answering, told to whoever asks while it asks: the export job stops its process
// while any is in flight (lib/exports/pause.ts). Costs nothing while nobody listens.
import type http from "node:http";

export interface RequestListener {
  /** A request is in flight. */
  started(): void;
  /** One of them was answered or dropped. */
  finished(): void;
}

export interface RequestActivity {
  /** Counts the request as in flight until `res` closes (answered, or the client gone), unless it is ignored. */
  track(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** Tells `listener` of the requests tracked from now on; returns what ends that. */
  subscribe(listener: RequestListener): () => void;
}

/** `ignore`: requests never counted (asked only while someone listens). */
export function requestActivity({ ignore = () => false }: { ignore?: (req: http.IncomingMessage) => boolean } = {}): RequestActivity {
  const listeners = new Set<RequestListener>();
  return {
    track(req, res) {
      if (listeners.size === 0 || ignore(req)) return;
      const told = [...listeners];
      for (const l of told) l.started();
      res.once("close", () => {
        for (const l of told) if (listeners.has(l)) l.finished();
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
