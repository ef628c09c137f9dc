// A server-sent-events client for tests (docs/api.md "Push channels"): reads /v1/stream over real HTTP,
// parses the frames, and keeps every event in order with its id, as an EventSource would see them.
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: Record<string, unknown>;
}

export interface SseStream {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** The events other than heartbeats. */
  changes: () => SseEvent[];
  /** The id of the last event that had one: what a reconnect sends as Last-Event-ID. */
  lastId: () => string | undefined;
  waitFor: (predicate: (events: SseEvent[]) => boolean, timeoutMs?: number, what?: string) => Promise<void>;
  close: () => void;
  closed: Promise<void>;
}

export async function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { Accept: "text/event-stream", ...headers }, signal: abort.signal });
  const events: SseEvent[] = [];
  let lastId: string | undefined;
  const closed = (async () => {
    if (!res.ok || !res.body) return;
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        for (let end = buf.indexOf("\n\n"); end >= 0; end = buf.indexOf("\n\n")) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          let id: string | undefined;
          let event = "message";
          const data: string[] = [];
          for (const line of frame.split("\n")) {
            if (line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "id") id = value;
            else if (field === "event") event = value;
            else if (field === "data") data.push(value);
          }
          if (id !== undefined) lastId = id;
          if (data.length) events.push({ id, event, data: JSON.parse(data.join("\n")) });
        }
      }
    } catch {
      /* aborted */
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    changes: () => events.filter((e) => e.event !== "heartbeat"),
    lastId: () => lastId,
    async waitFor(predicate, timeoutMs = 10_000, what = "events") {
      const end = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(events.map((e) => [e.id, e.event]))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => abort.abort(),
    closed,
  };
}
