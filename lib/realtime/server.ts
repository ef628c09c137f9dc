// Socket.IO push channels on the app's own http server. It only wires three parts: the change stream
// (lib/events/change-stream.ts: what the database announced), the signal emitter (./emitter.ts: what a
// channel's room is sent) and the join protocol (./joins.ts: who may be in a room). Every app instance
// hears every commit, so any number of instances behind a load balancer deliver every signal.
import type http from "node:http";
import { Server } from "socket.io";
import { config } from "../config";
import type { ChangeStream } from "../events/change-stream";
import { pushKindsOf } from "../events/market-events";
import { marketSlugExists } from "@/lib/markets/sql/market";
import { type Ack, MARKETS_CHANNEL, SOCKET_PATH, channelName, parseChannel } from "./channels";
import { createSignalEmitter } from "./emitter";
import { createJoinProtocol } from "./joins";
import { createSlugCache } from "./slug-cache";
import { createTapeCarrier, type TapeReader } from "./tape";

/**
 * The numbered changes, resumable from a position (lib/streams/hub.ts): what a `join` with `since` and
 * the `markets` channel are served from. Described here, not imported: the hub knows nothing of sockets.
 */
export interface StreamFeed {
  subscribe(
    channels: readonly string[],
    since: number | undefined,
    sink: {
      send: (events: Array<{ event: { channel: string; name: string }; data: (shape: "primary") => Record<string, unknown> }>) => void;
      reset: (info: { reason: string; position: number; horizon: number }) => void;
      live?: () => void;
    },
  ): { close: () => void; position: () => number };
}

export interface RealtimeOptions {
  /** The announcements of committed changes; the caller starts it. */
  changes: ChangeStream;
  /** Numbered changes: joins with `since` and the `markets` channel (absent: neither). */
  hub?: StreamFeed;
  /**
   * After a resumed join, how long the socket also hears the hub, while signals of changes the hub had
   * not yet sent may have gone out before it joined the room (a client drops what it has by position).
   */
  resumeOverlapMs?: number;
  /** At most one signal per channel per this many ms; the last change always goes out (REALTIME_COALESCE_MS). */
  coalesceMs?: number;
  /** Every joined channel hears from the server at least this often (REALTIME_CHANNEL_HEARTBEAT_MS; 0: off). */
  channelHeartbeatMs?: number;
  /** How long an unknown slug stays unknown to joins (REALTIME_SLUG_MISS_MS). */
  slugMissMs?: number;
  /**
   * The book an orderbook signal carries, so that its watchers need not refetch it, with its version and
   * checksum when known (carried beside it); absent: they refetch.
   */
  bookFor?: (slug: string, outcomeId: string) => Promise<{ book: unknown; version?: number; checksum?: number } | null | undefined>;
  /** The book versions of a market's outcomes, carried by heartbeats on its orderbook channel (absent: not carried). */
  bookVersionsFor?: (slug: string) => Promise<Record<string, number>>;
  /** Reads the tape a trades signal carries (the new trades); absent: trades signals carry none and watchers refetch. */
  tapeFor?: TapeReader;
  log?: (message: string) => void;
  /**
   * This instance's name behind a load balancer (INSTANCE_NAME): Engine.IO session ids start with
   * `<name>.`, so that a balancer can route a long-polling session's requests by their `sid` parameter to
   * the instance that holds it, for clients that keep no cookies (docs/deploy.md "Stickiness").
   */
  instanceName?: string;
}

const INSTANCE_NAME_RE = /^[A-Za-z0-9_-]{1,32}$/;

export function attachRealtime(server: http.Server, options: RealtimeOptions): () => Promise<void> {
  const env = config();
  const coalesceMs = options.coalesceMs ?? env.REALTIME_COALESCE_MS;
  const slugMissMs = options.slugMissMs ?? env.REALTIME_SLUG_MISS_MS;
  const channelHeartbeatMs = options.channelHeartbeatMs ?? env.REALTIME_CHANNEL_HEARTBEAT_MS;
  const log = options.log ?? ((m: string) => console.log(`[realtime] ${m}`));
  const { bookFor, bookVersionsFor } = options;

  const io = new Server(server, {
    path: SOCKET_PATH,
    serveClient: false,
    cors: { origin: "*" }, // public read-only signals: third parties subscribe from anywhere
    maxHttpBufferSize: 16_384, // a join is a few hundred bytes
    destroyUpgrade: false, // leave other upgrades (Next's dev HMR socket) alone
  });
  const rooms = io.of("/").adapter.rooms;
  const instanceName = options.instanceName ?? env.INSTANCE_NAME;
  if (instanceName) {
    if (!INSTANCE_NAME_RE.test(instanceName)) throw new Error(`instanceName must match ${INSTANCE_NAME_RE}: ${instanceName}`);
    const generateId = io.engine.generateId.bind(io.engine);
    io.engine.generateId = async (req) => `${instanceName}.${await generateId(req)}`;
  }

  const tape = options.tapeFor && createTapeCarrier(options.tapeFor);
  const emitter = createSignalEmitter({
    coalesceMs,
    watchers: (channel) => rooms.get(channel)?.size ?? 0,
    send: (channel, kind, signal) => io.to(channel).emit(kind, signal),
    heartbeatMs: channelHeartbeatMs,
    channels: function* () {
      for (const room of rooms.keys()) if (parseChannel(room)) yield room; // rooms also hold every socket's own id
    },
    sendHeartbeat: (channel, heartbeat) => io.to(channel).emit("heartbeat", heartbeat),
    // A heartbeat on an orderbook channel carries the market's book versions (docs/api.md, "Book versions").
    heartbeatExtra:
      bookVersionsFor &&
      ((channel) => {
        const ch = parseChannel(channel);
        return ch?.kind === "orderbook" ? bookVersionsFor(ch.slug).then((versions) => ({ versions })) : null;
      }),
    carry: {
      // An orderbook signal that names one outcome carries its book (from the response cache).
      orderbook:
        bookFor &&
        ((_channel, { slug, outcomeId }) =>
          outcomeId ? bookFor(slug, outcomeId).then((b) => (b ? { book: b.book, version: b.version, checksum: b.checksum } : null)) : null),
      // A trades signal carries the trades this instance has not carried on that channel yet.
      trades: tape?.carry,
    },
  });
  io.of("/").adapter.on("delete-room", (room: string) => {
    emitter.forget(room);
    tape?.forget(room);
    if (room === MARKETS_CHANNEL) marketsFeed?.close(), (marketsFeed = null);
  });

  // Known slugs a while, unknown ones briefly; a market created since is announced ('list') and forgotten.
  const slugs = createSlugCache({ lookup: marketSlugExists, hitMs: 60_000, missMs: slugMissMs, max: 10_000 });
  const { hub } = options;
  const overlapMs = options.resumeOverlapMs ?? Math.max(1000, 4 * coalesceMs);
  const resume =
    hub &&
    ((socket: Parameters<typeof joinsAttach>[0], channel: string, since: number) =>
      new Promise<Ack>((resolve) => {
        let reset = false;
        const sub = hub.subscribe([channel], since, {
          send: (events) => {
            for (const e of events) socket.emit?.(e.event.name, { ...e.data("primary"), replay: true });
          },
          reset: (info) => {
            reset = true;
            socket.emit?.("reset", { channel, ...info });
          },
          live: () => {
            socket.join(channel);
            resolve({ ok: true, position: sub.position(), ...(reset ? { reset: true } : {}) });
            setTimeout(() => sub.close(), overlapMs).unref?.();
          },
        });
      }));
  const joins = createJoinProtocol({ marketExists: slugs.exists, resume, log });
  const joinsAttach = joins.attach;

  // The catalogue's room hears the hub's `market` events while anyone is in it.
  let marketsFeed: { close: () => void } | null = null;
  io.of("/").adapter.on("create-room", (room: string) => {
    if (room !== MARKETS_CHANNEL || !hub || marketsFeed) return;
    marketsFeed = hub.subscribe([MARKETS_CHANNEL], undefined, {
      send: (events) => {
        for (const e of events) io.to(MARKETS_CHANNEL).emit("market", e.data("primary"));
      },
      reset: (info) => io.to(MARKETS_CHANNEL).emit("reset", { channel: MARKETS_CHANNEL, ...info }),
    });
  });
  io.on("connection", (socket) => joins.attach(socket));

  const unsubscribe = options.changes.subscribe({
    event: (event) => {
      if (event.kind === "list") slugs.forgetMisses();
      const { slug, outcomeId } = event;
      if (slug === null) return;
      const edit = event.kind === "trade_edit";
      for (const kind of pushKindsOf(event)) emitter.push(channelName(slug, kind), { kind, slug, outcomeId, edit, position: event.position });
    },
    // Whatever was committed while LISTEN was down is lost: every joined channel gets a signal and its clients refetch.
    listening: (resumed) => {
      if (!resumed) return;
      let n = 0;
      for (const room of rooms.keys()) {
        const ch = parseChannel(room); // rooms also hold every socket's own id
        if (ch) emitter.push(room, { ...ch, outcomeId: null }), n++;
      }
      log(`LISTEN resumed: signalled ${n} channel(s)`);
    },
  });

  log(`push channels on ${SOCKET_PATH} (coalescing ${coalesceMs} ms, heartbeat ${channelHeartbeatMs} ms)`);

  return async () => {
    unsubscribe();
    marketsFeed?.close();
    emitter.close();
    await io.close();
  };
}
