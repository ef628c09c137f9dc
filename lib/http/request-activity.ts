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
  /** Counts `res` as in flight until it closes (answered, or the client gone). */
  track(res: http.ServerResponse): void;
  /** Tells `listener` of the requests tracked from now on; returns what ends that. */
  subscribe(listener: RequestListener): () => void;
}

export function requestActivity(): RequestActivity {
  const listeners = new Set<RequestListener>();
  return {
    track(res) {
      if (listeners.size === 0) return;
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
