// GET /v1/stream: the push channels as server-sent events (docs/api.md "Push channels"), for any HTTP
// client. Each event's id is its position: a client that reconnects with Last-Event-ID (or ?since=)
// gets every event it missed, in order, then the live ones, from any instance. Served beside the route
// modules (server.ts), after the front door's checks and rate limit, because a stream is held open.
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BlockList } from "node:net";
import { API_HEADERS, PREFLIGHT_HEADERS, apiErrorAnswer } from "@/lib/api/headers";
import { searchParamsOf, zodMessages } from "@/lib/api/query";
import { clientAddress, clientKey } from "@/lib/http/rate-limit";
import { acceptsCamel } from "@/lib/markets/schemas/camel";
import { marketSlugExists } from "@/lib/markets/sql/market";
import { createSlugCache } from "@/lib/realtime/slug-cache";
import { parseStreamChannel, type StreamChannel } from "@/lib/realtime/channels";
import {
  HEARTBEAT_INTERVAL_MS,
  POSITION_PATTERN,
  STREAM_MAX_CHANNELS,
  STREAM_PATH,
  STREAMS_PER_CLIENT,
  streamQuerySchema,
} from "@/lib/realtime/payload-schemas";
import type { ResetInfo, StreamHub, Subscription } from "./hub";
import type { Shape } from "./resolve";

export interface SseOptions {
  hub: StreamHub;
  trustProxy: BlockList | null;
  /** Channels one stream may follow. */
  maxChannels?: number;
  /** Streams one client (address) may hold at once. */
  maxStreamsPerClient?: number;
  /** A stream that sent nothing for this long gets a heartbeat. */
  heartbeatMs?: number;
  /** A client that lets this much pile up unread is dropped (it reconnects and resumes). */
  maxBufferedBytes?: number;
  slugMissMs?: number;
}

const POSITION = POSITION_PATTERN;
const query = streamQuerySchema;

type Answer = { status: number; headers: Record<string, string>; body: string };
const send = (res: ServerResponse, a: Answer) => {
  res.writeHead(a.status, a.headers);
  res.end(a.body);
};

export function sseEndpoint(options: SseOptions) {
  const {
    hub,
    trustProxy,
    maxChannels = STREAM_MAX_CHANNELS,
    maxStreamsPerClient = STREAMS_PER_CLIENT,
    heartbeatMs = HEARTBEAT_INTERVAL_MS,
    maxBufferedBytes = 4 << 20,
  } = options;
  const slugs = createSlugCache({ lookup: marketSlugExists, hitMs: 60_000, missMs: options.slugMissMs ?? 5_000, max: 10_000 });
  const perClient = new Map<string, number>();
  const open = new Set<{ res: ServerResponse; sub: Subscription | null; last: number }>();

  const heartbeat = (position: number, now: number) =>
    `id: ${position}\nevent: heartbeat\ndata: {"at":${now},"position":${position},"interval":${heartbeatMs}}\n\n`;
  // One timer for every stream: a stream that would otherwise be quiet for `heartbeatMs` by the next tick
  // (with a tick to spare for a late timer) hears the position it has been sent up to. The tick is short,
  // so that each stream's heartbeats keep the phase it opened with: a sweep every interval/2 would send
  // the heartbeats of every stream opened in that time in one burst (10,000 streams: writes that held the
  // event loop 100–300 ms, and the events behind them) and only every 1.5 intervals.
  const tick = Math.min(100, Math.max(10, Math.floor(heartbeatMs / 10)));
  const beat = setInterval(() => {
    const now = Date.now();
    for (const s of open) if (s.sub && now - s.last >= heartbeatMs - 2 * tick) write(s, heartbeat(s.sub.position(), now), now);
  }, tick);
  beat.unref();

  function write(s: { res: ServerResponse; last: number }, text: string, now = Date.now()) {
    if (s.res.writableEnded) return;
    s.last = now;
    s.res.write(text);
    if (s.res.writableLength > maxBufferedBytes) s.res.destroy();
  }

  /** The request's channels, or the 400/404 that says what is wrong with them. */
  async function channelsOf(list: string): Promise<StreamChannel[] | Answer> {
    const names = [...new Set(list.split(",").map((c) => c.trim()))];
    if (names.length === 0 || names.some((n) => n === "")) return apiErrorAnswer(400, "Invalid channels: a comma-separated list of channel names");
    if (names.length > maxChannels) return apiErrorAnswer(400, `Too many channels: a stream may follow at most ${maxChannels}`);
    const channels: StreamChannel[] = [];
    for (const n of names) {
      const ch = parseStreamChannel(n);
      if (!ch) return apiErrorAnswer(400, `Invalid channel: ${n.slice(0, 240)}`);
      channels.push(ch);
    }
    for (const ch of channels) if (ch.slug !== null && !(await slugs.exists(ch.slug))) return apiErrorAnswer(404, `Unknown market: ${ch.slug}`);
    return channels;
  }

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const url = req.url ?? "";
    const q = query.safeParse(searchParamsOf(url.includes("?") ? url.slice(url.indexOf("?") + 1) : ""));
    if (!q.success) return send(res, apiErrorAnswer(400, zodMessages(q.error)));
    const lastId = req.headers["last-event-id"];
    if (lastId !== undefined && (Array.isArray(lastId) || !POSITION.test(lastId.trim()))) {
      return send(res, apiErrorAnswer(400, "Last-Event-ID must be a position (a whole number ≥ 0)"));
    }
    // The header is what a reconnecting EventSource sends: it wins over the since of the URL it reconnects to.
    const sinceText = lastId !== undefined ? (lastId as string).trim() : q.data.since;
    const since = sinceText === undefined ? undefined : Number(sinceText);
    const channels = await channelsOf(q.data.channels).catch(() => apiErrorAnswer(503, "Service temporarily unavailable", { "Retry-After": "1" }));
    if (!Array.isArray(channels)) return send(res, channels);
    if (res.destroyed) return;

    const client = clientKey(clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustProxy));
    const held = perClient.get(client) ?? 0;
    if (held >= maxStreamsPerClient) {
      return send(res, apiErrorAnswer(429, `Too many streams: a client may hold at most ${maxStreamsPerClient} at once`, { "Retry-After": "5" }));
    }
    perClient.set(client, held + 1);

    const shape: Shape = q.data.shape === "camel" || (q.data.shape === undefined && acceptsCamel(req.headers.accept)) ? "camel" : "primary";
    res.writeHead(200, {
      ...API_HEADERS,
      "Access-Control-Expose-Headers": "ETag",
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    });
    res.socket?.setNoDelay(true);
    const s: { res: ServerResponse; sub: Subscription | null; last: number } = { res, sub: null, last: Date.now() };
    open.add(s);
    if (req.method === "HEAD") return res.end();
    write(s, "retry: 1000\n\n");
    s.sub = hub.subscribe(
      channels.map((c) => c.name),
      since,
      {
        send: (events) => write(s, events.map((e) => e.frame(shape)).join("")),
        reset: (r: ResetInfo) => write(s, `id: ${r.position}\nevent: reset\ndata: ${JSON.stringify(r)}\n\n`),
      },
    );
    // A live stream names its starting position at once: a client that drops before any event resumes from there.
    if (since === undefined) write(s, heartbeat(s.sub.position(), Date.now()));
    const done = () => {
      if (!open.delete(s)) return;
      s.sub?.close();
      const n = (perClient.get(client) ?? 1) - 1;
      if (n > 0) perClient.set(client, n);
      else perClient.delete(client);
    };
    res.on("close", done);
    req.on("close", done);
  }

  return {
    /** Serves the request when it is the stream's; false otherwise. */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      const url = req.url ?? "";
      const path = url.split("?", 1)[0];
      if (path !== STREAM_PATH) return false;
      if (req.method === "OPTIONS") {
        res.writeHead(204, PREFLIGHT_HEADERS);
        res.end();
        return true;
      }
      if (req.method !== "GET" && req.method !== "HEAD") return false; // the front door answered it already
      serve(req, res).catch(() => {
        if (!res.headersSent) send(res, apiErrorAnswer(503, "Service temporarily unavailable", { "Retry-After": "1" }));
        else res.destroy();
      });
      return true;
    },
    /** Streams open now. */
    size: () => open.size,
    /** Ends every stream (shutdown: their clients reconnect to another instance and resume). */
    close() {
      clearInterval(beat);
      for (const s of [...open]) s.res.end();
    },
  };
}
