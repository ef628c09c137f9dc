// Socket.IO push channels on the app's own http server, driven by PostgreSQL: the triggers of
// migration 0002 NOTIFY market_events, every app instance LISTENs (lib/realtime/listener.ts) and
// signals its own rooms, so any number of instances behind a load balancer deliver every signal.
import type http from "node:http";
import { Server, type Socket } from "socket.io";
import { z } from "zod";
import { breaker } from "../db/breaker";
import { db } from "../db/client";
import { commitGate } from "../db/consistency";
import { marketSlugExists } from "../markets/queries";
import {
  CHANNEL_KINDS,
  MAX_CHANNELS_PER_SOCKET,
  SOCKET_PATH,
  channelName,
  parseChannel,
  type Ack,
  type Channel,
  type ChannelKind,
  type Signal,
} from "./channels";
import { channelRequest } from "./schemas";
import { createListener } from "./listener";
import { createSlugCache } from "./slug-cache";
import { createThrottle } from "./throttle";
import { createTokenBucket } from "../server/token-bucket";

export const NOTIFY_CHANNEL = "market_events";

export interface RealtimeOptions {
  /** At most one signal per channel per this many ms; the last change always goes out. */
  coalesceMs?: number;
  /** How often the listener proves it still hears the database (its own ping through NOTIFY). */
  heartbeatMs?: number;
  /** The database to LISTEN on; defaults to DATABASE_URL. */
  databaseUrl?: string;
  log?: (message: string) => void;
  /** Every announcement, before any signal goes out (the response cache drops what it changed). */
  onEvent?: (event: Record<string, unknown>) => void;
  /** Whether announcements are heard: false when the LISTEN connection is lost, true once it listens. */
  onListening?: (listening: boolean) => void;
  /** The book an orderbook signal carries, so that its watchers need not refetch it; null: they refetch. */
  bookFor?: (slug: string, outcomeId: string) => Promise<unknown>;
}

/** One payload of the triggers' NOTIFY: kind, market slug, outcome id (null: several or the market itself). */
const notificationSchema = z.object({ k: z.enum(CHANNEL_KINDS), s: z.string(), o: z.string().nullable() });
export type Notification = z.infer<typeof notificationSchema>;

/** A NOTIFY payload, or null when it is not one of ours (the listener's own pings, say). */
export function parseNotification(payload: string): Notification | null {
  try {
    return notificationSchema.parse(JSON.parse(payload));
  } catch {
    return null;
  }
}

type Pending = { kind: ChannelKind; slug: string; outcomeId: string | null };

// Join/leave requests per socket: a bucket of BURST refilled at RATE per second.
const JOIN_BURST = 200;
const JOIN_RATE = 100;
const SLUG_CACHE_MS = 60_000;
const SLUG_CACHE_MAX = 10_000;
/** Unknown slugs are remembered briefly: a join flood for a made-up market asks the database once per slug and window. */
const SLUG_MISS_CACHE_MS = Number(process.env.REALTIME_SLUG_MISS_MS ?? 5_000);

export async function attachRealtime(server: http.Server, options: RealtimeOptions = {}): Promise<() => Promise<void>> {
  const coalesceMs = options.coalesceMs ?? Number(process.env.REALTIME_COALESCE_MS ?? 150);
  const heartbeatMs = options.heartbeatMs ?? Number(process.env.REALTIME_HEARTBEAT_MS ?? 5_000);
  const log = options.log ?? ((m: string) => console.log(`[realtime] ${m}`));
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("attachRealtime: no database to LISTEN on (DATABASE_URL is unset)");

  const io = new Server(server, {
    path: SOCKET_PATH,
    serveClient: false,
    cors: { origin: "*" }, // public read-only signals: third parties subscribe from anywhere
    maxHttpBufferSize: 16_384, // a join is a few hundred bytes
    destroyUpgrade: false, // leave other upgrades (Next's dev HMR socket) alone
  });
  const rooms = io.of("/").adapter.rooms;

  // ------------------------------------------------------------------ signals out
  const seqs = new Map<string, number>();
  io.of("/").adapter.on("delete-room", (room: string) => seqs.delete(room));

  // `at` is when the throttle let the signal go, even if reading its book delayed the emit.
  const emit = (channel: string, { kind, slug, outcomeId }: Pending, at: number, extra: object = {}) => {
    if (!rooms.get(channel)?.size) return;
    const seq = (seqs.get(channel) ?? 0) + 1;
    seqs.set(channel, seq);
    const signal: Signal = { channel, slug, outcomeId, at, seq, ...extra };
    io.to(channel).emit(kind, signal);
  };
  // An orderbook signal for one outcome carries its book, read once for every watcher (from the
  // response cache); the signals of one channel keep their order while a book is being read.
  const sending = new Map<string, Promise<void>>();
  const send = (channel: string, pending: Pending) => {
    if (!rooms.get(channel)?.size) return;
    const { bookFor } = options;
    const at = Date.now();
    const { outcomeId } = pending;
    const wantsBook = pending.kind === "orderbook" && outcomeId !== null && bookFor !== undefined;
    const before = sending.get(channel);
    if (!wantsBook && !before) return emit(channel, pending, at);
    const next = (before ?? Promise.resolve())
      .then(() => (wantsBook ? bookFor!(pending.slug, outcomeId!).catch(() => null) : null))
      .then((book) => emit(channel, pending, at, book ? { book } : {}));
    sending.set(channel, next);
    void next.finally(() => sending.get(channel) === next && sending.delete(channel));
  };
  // Signals folded together name their outcome only when they all concern the same one.
  const throttle = createThrottle<Pending>(coalesceMs, send, {
    merge: (a, b) => ({ ...b, outcomeId: a.outcomeId === b.outcomeId ? b.outcomeId : null }),
  });

  const signalEveryRoom = () => {
    let n = 0;
    for (const room of rooms.keys()) {
      const ch = parseChannel(room); // rooms also hold every socket's own id
      if (ch) {
        throttle.push(room, { ...ch, outcomeId: null });
        n++;
      }
    }
    return n;
  };

  // ------------------------------------------------------------------ database in
  // Whether a market exists, for joins: known slugs a while, unknown ones briefly (a flood of made-up
  // slugs costs one query per slug and window); a market created since is announced ('list') and forgotten.
  const slugs = createSlugCache({
    lookup: marketSlugExists,
    hitMs: SLUG_CACHE_MS,
    missMs: SLUG_MISS_CACHE_MS,
    max: SLUG_CACHE_MAX,
  });
  const marketExists = slugs.exists;
  // Everything a committed change sets off happens here, once per notification.
  const onNotification = ({ k: kind, s: slug, o: outcomeId }: Notification) => {
    const channel = channelName(slug, kind);
    if (rooms.has(channel)) throttle.push(channel, { kind, slug, outcomeId });
  };
  // With read replicas, a notification is handed on only once the commit's WAL position is noted,
  // so that the refetch it causes reads data at least that new (lib/db/consistency.ts).
  const afterCommit = commitGate(db(), log);
  // Whatever was committed while the connection was down is lost, so after a resumed LISTEN every
  // joined channel gets a signal and its clients refetch.
  const listener = createListener({
    url: databaseUrl,
    channel: NOTIFY_CHANNEL,
    heartbeatMs,
    log,
    onNotify: (payload) =>
      afterCommit(() => {
        let raw: Record<string, unknown> | null = null;
        try {
          const parsed: unknown = JSON.parse(payload);
          if (parsed && typeof parsed === "object") raw = parsed as Record<string, unknown>;
        } catch {
          /* not ours */
        }
        if (raw?.k === "list") slugs.forgetMisses(); // markets were created
        if (raw) options.onEvent?.(raw);
        const n = parseNotification(payload);
        if (n) onNotification(n);
      }),
    onListen: (resumed) =>
      afterCommit(() => {
        options.onListening?.(true);
        if (resumed) log(`LISTEN resumed: signalled ${signalEveryRoom()} channel(s)`);
      }),
    onLost: () => options.onListening?.(false),
  });
  try {
    await listener.ready;
  } catch (err) {
    await listener.close();
    throw err;
  }
  // The breaker's probe (every DB_RETRY_MS while requests find the database away) sees it back before
  // the listener's next backoff step would: resume the push channels then.
  const stopNudge = breaker().onBack(() => listener.retryNow());

  // ------------------------------------------------------------------ clients

  const malformed: Ack = { ok: false, error: "Malformed channel" };
  const channelOf = (payload: unknown): (Channel & { name: string }) | null => {
    const req = channelRequest.safeParse(payload);
    if (!req.success) return null;
    const ch = parseChannel(req.data.channel);
    return ch && { ...ch, name: req.data.channel };
  };

  const join = async (socket: Socket, payload: unknown): Promise<Ack> => {
    const ch = channelOf(payload);
    if (!ch) return malformed;
    if (socket.rooms.has(ch.name)) return { ok: true };
    if (socket.rooms.size - 1 >= MAX_CHANNELS_PER_SOCKET) {
      return { ok: false, error: `Too many channels: a socket may join at most ${MAX_CHANNELS_PER_SOCKET}` };
    }
    if (!(await marketExists(ch.slug))) return { ok: false, error: `Unknown market: ${ch.slug}` };
    socket.join(ch.name);
    return { ok: true };
  };

  const leave = async (socket: Socket, payload: unknown): Promise<Ack> => {
    const ch = channelOf(payload);
    if (!ch) return malformed;
    socket.leave(ch.name);
    return { ok: true };
  };

  io.on("connection", (socket) => {
    // One request at a time per socket (a flood queues behind itself, holding at most one
    // database connection), and a token bucket so that it cannot queue without bound.
    let queue = Promise.resolve();
    const bucket = createTokenBucket({ burst: JOIN_BURST, ratePerS: JOIN_RATE });

    const handle =
      (op: typeof join) =>
      (...args: unknown[]) => {
        // socket.emit("join", cb) hands the callback as the only argument; a missing one is fine.
        const last = args.at(-1);
        const ack = typeof last === "function" ? (last as (a: Ack) => void) : () => {};
        const payload = typeof args[0] === "function" ? undefined : args[0];
        const reply = (a: Ack) => {
          try {
            ack(a);
          } catch {
            /* the client went away */
          }
        };
        if (!bucket.take()) return reply({ ok: false, error: "Too many requests: slow down" });
        queue = queue.then(() =>
          op(socket, payload).then(reply, (err) => {
            log(`${op.name} failed: ${(err as Error).message}`);
            reply({ ok: false, error: "Internal error" });
          }),
        );
      };
    socket.on("join", handle(join));
    socket.on("leave", handle(leave));
  });

  log(`push channels on ${SOCKET_PATH} (coalescing ${coalesceMs} ms)`);

  return async () => {
    stopNudge();
    throttle.close();
    await listener.close();
    await io.close();
  };
}
