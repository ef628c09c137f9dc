// Socket.IO push channels on the app's own http server, driven by PostgreSQL: the triggers of
// migration 0002 NOTIFY market_events, every app instance LISTENs (lib/realtime/listener.ts) and
// signals its own rooms, so any number of instances behind a load balancer deliver every signal.
import type http from "node:http";
import { Server, type Socket } from "socket.io";
import { z } from "zod";
import type { Sql } from "../db/client";
import {
  CHANNEL_KINDS,
  MAX_CHANNELS_PER_SOCKET,
  SOCKET_PATH,
  channelName,
  parseChannel,
  type Ack,
  type Channel,
  type Signal,
} from "./channels";
import { channelRequest } from "./schemas";
import { createListener } from "./listener";
import { createSlugCache } from "./slug-cache";
import { createThrottle } from "./throttle";

export const NOTIFY_CHANNEL = "market_events";

export interface RealtimeOptions {
  /** At most one signal per channel per this many ms; the last change always goes out. */
  coalesceMs?: number;
  /** How often the listener proves it still hears the database (its own ping through NOTIFY). */
  heartbeatMs?: number;
  /** The database to LISTEN on; defaults to DATABASE_URL. */
  databaseUrl?: string;
  log?: (message: string) => void;
}

const notification = z.object({ k: z.enum(CHANNEL_KINDS), s: z.string(), o: z.string().nullable() });

type Pending = { slug: string; outcomeId: string | null };

// Join/leave requests per socket: a bucket of BURST refilled at RATE per second.
const JOIN_BURST = 200;
const JOIN_RATE = 100;
const SLUG_CACHE_MS = 60_000;
const SLUG_CACHE_MAX = 10_000;
/** Unknown slugs are remembered briefly: a join flood for a made-up market asks the database once per slug and window. */
const SLUG_MISS_CACHE_MS = Number(process.env.REALTIME_SLUG_MISS_MS ?? 5_000);

export async function attachRealtime(server: http.Server, sql: Sql, options: RealtimeOptions = {}): Promise<() => Promise<void>> {
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

  const send = (channel: string, { slug, outcomeId }: Pending) => {
    const parsed = parseChannel(channel);
    if (!parsed || !rooms.get(channel)?.size) return;
    const seq = (seqs.get(channel) ?? 0) + 1;
    seqs.set(channel, seq);
    const signal: Signal = { channel, slug, outcomeId, at: Date.now(), seq };
    io.to(channel).emit(parsed.kind, signal);
  };
  // Signals folded together name their outcome only when they all concern the same one.
  const throttle = createThrottle<Pending>(coalesceMs, send, {
    merge: (a, b) => ({ slug: b.slug, outcomeId: a.outcomeId === b.outcomeId ? b.outcomeId : null }),
  });

  const signalEveryRoom = () => {
    let n = 0;
    for (const room of rooms.keys()) {
      const ch = parseChannel(room);
      if (ch) {
        throttle.push(room, { slug: ch.slug, outcomeId: null });
        n++;
      }
    }
    return n;
  };

  // ------------------------------------------------------------------ database in
  const onNotify = (payload: string) => {
    let msg: z.infer<typeof notification>;
    try {
      msg = notification.parse(JSON.parse(payload));
    } catch {
      return; // not ours
    }
    const channel = channelName(msg.s, msg.k);
    if (rooms.has(channel)) throttle.push(channel, { slug: msg.s, outcomeId: msg.o });
  };
  // Whatever was committed while the connection was down is lost, so after a resumed LISTEN every
  // joined channel gets a signal and its clients refetch.
  const listener = createListener({
    url: databaseUrl,
    channel: NOTIFY_CHANNEL,
    heartbeatMs,
    log,
    onNotify,
    onListen: (resumed) => {
      if (resumed) log(`LISTEN resumed: signalled ${signalEveryRoom()} channel(s)`);
    },
  });
  try {
    await listener.ready;
  } catch (err) {
    await listener.close();
    throw err;
  }

  // ------------------------------------------------------------------ clients
  const slugs = createSlugCache({
    lookup: async (slug) => (await sql`SELECT 1 AS one FROM markets WHERE slug = ${slug}`).length > 0,
    hitMs: SLUG_CACHE_MS,
    missMs: SLUG_MISS_CACHE_MS,
    max: SLUG_CACHE_MAX,
  });
  const marketExists = slugs.exists;

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
    let tokens = JOIN_BURST;
    let refilled = Date.now();
    const take = () => {
      const now = Date.now();
      tokens = Math.min(JOIN_BURST, tokens + ((now - refilled) / 1000) * JOIN_RATE);
      refilled = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    };

    const handle = (op: typeof join) => (...args: unknown[]) => {
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
      if (!take()) return reply({ ok: false, error: "Too many requests: slow down" });
      queue = queue.then(
        () => op(socket, payload).then(reply, (err) => {
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
    throttle.close();
    await listener.close();
    await io.close();
  };
}
