// The browser's one Socket.IO connection: channels are reference-counted (join on the first
// subscriber, leave after the last), re-joined after every reconnect, and the connection state is
// an external store for the live indicator. Only imported by client components.
// socket.io-client itself loads after the page (dynamic import), keeping it out of first-load JS.
import type { Socket } from "socket.io-client";
import { CHANNEL_KINDS } from "@/lib/events/channel-kinds";
import { SOCKET_PATH, type Ack, type Signal } from "./channels";

export type RealtimeStatus = "connecting" | "connected" | "reconnecting";

interface Subscriber {
  onSignal: (signal: Signal) => void;
  /** Called after a reconnect: signals may have been missed, refetch. */
  onResync: () => void;
  /**
   * Called once the channel is joined for this subscriber (at once if it already was): from then on no
   * signal is missed, so what changed since the data was read can be fetched now (the trades tape).
   */
  onJoined?: () => void;
}

let socket: Socket | null = null;
let loading = false;
let status: RealtimeStatus = "connecting";
let everConnected = false;
const statusListeners = new Set<() => void>();
const channels = new Map<string, Set<Subscriber>>();
/** The join of each channel on the current connection (settled once acknowledged). */
const joins = new Map<string, Promise<void>>();

// When each channel last heard from the server (a signal or a heartbeat), for the live indicator's
// freshness, and the heartbeat interval it announced: silent for longer than that + 1 s means stalled.
export interface Heard {
  at: number;
  interval: number | null;
}
const heard = new Map<string, Heard>();
const heardListeners = new Set<() => void>();

function noteHeard(channel: string, interval?: number) {
  if (!channels.has(channel)) return;
  heard.set(channel, { at: Date.now(), interval: typeof interval === "number" ? interval : (heard.get(channel)?.interval ?? null) });
  for (const l of heardListeners) l();
}

function setStatus(next: RealtimeStatus) {
  if (next === status) return;
  status = next;
  for (const l of statusListeners) l();
}

function join(channel: string): Promise<void> {
  const joined = new Promise<void>((resolve) => {
    if (!socket) return resolve();
    socket.timeout(10_000).emit("join", { channel }, (err: Error | null, ack?: Ack) => {
      if (err || !ack?.ok) console.warn(`[realtime] join ${channel}: ${err?.message ?? (ack as { error?: string })?.error}`);
      resolve();
    });
  });
  joins.set(channel, joined);
  return joined;
}

function whenJoined(channel: string, sub: Subscriber) {
  void joins.get(channel)?.then(() => {
    if (channels.get(channel)?.has(sub)) sub.onJoined?.();
  });
}

function isSignal(raw: unknown): raw is Signal {
  const s = raw as Signal | null;
  return typeof s === "object" && s !== null && typeof s.channel === "string" && typeof s.seq === "number";
}

function ensureSocket(): void {
  if (socket || loading || typeof window === "undefined") return;
  loading = true;
  void import("socket.io-client").then(({ io }) => {
    // WebSocket first: no sticky sessions needed behind a load balancer; polling if it is blocked.
    // A handshake that does not complete in 10 s counts as a failed attempt (the default, 20 s, leaves
    // the page "reconnecting" that long when a connection closes before its handshake).
    const s = io({ path: SOCKET_PATH, transports: ["websocket", "polling"], tryAllTransports: true, timeout: 10_000 });
    socket = s;
    s.on("connect", () => {
      setStatus("connected");
      const resync = everConnected;
      everConnected = true;
      // A new connection is in no room. Refetch only once joined again, so no write falls between.
      joins.clear();
      const joined = Promise.all([...channels.keys()].map(join));
      // Joined (and, after a reconnect, refetched): as fresh as a heartbeat.
      void joined.then(() => {
        for (const channel of channels.keys()) noteHeard(channel);
      });
      if (resync) {
        void joined.then(() => {
          for (const subs of channels.values()) for (const sub of subs) sub.onResync();
        });
      } else {
        for (const [channel, subs] of channels) for (const sub of subs) whenJoined(channel, sub);
      }
    });
    s.on("disconnect", (reason) => {
      setStatus(everConnected ? "reconnecting" : "connecting");
      if (reason === "io server disconnect") s.connect(); // the only reason the client does not retry by itself
    });
    s.io.on("reconnect_attempt", () => setStatus("reconnecting"));
    for (const kind of CHANNEL_KINDS) {
      s.on(kind, (raw: unknown) => {
        if (!isSignal(raw)) return;
        noteHeard(raw.channel);
        for (const sub of channels.get(raw.channel) ?? []) sub.onSignal(raw);
      });
    }
    s.on("heartbeat", (raw: unknown) => {
      const hb = raw as { channel?: unknown; interval?: unknown } | null;
      if (typeof hb?.channel === "string") noteHeard(hb.channel, typeof hb.interval === "number" ? hb.interval : undefined);
    });
  });
}

/** Subscribes to one channel; returns the unsubscribe function. */
export function subscribeChannel(channel: string, subscriber: Subscriber): () => void {
  ensureSocket();
  let subs = channels.get(channel);
  if (!subs) {
    subs = new Set();
    channels.set(channel, subs);
    // Not yet connected: the connect handler joins every channel in the map.
    if (socket?.connected) void join(channel);
  }
  subs.add(subscriber);
  // Joined or joining on this connection; otherwise the connect handler joins it and calls back.
  if (socket?.connected) whenJoined(channel, subscriber);
  return () => {
    subs.delete(subscriber);
    if (subs.size === 0 && channels.get(channel) === subs) {
      channels.delete(channel);
      heard.delete(channel);
      joins.delete(channel);
      if (socket?.connected) socket.emit("leave", { channel });
    }
  };
}

export function subscribeStatus(listener: () => void): () => void {
  ensureSocket();
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

export const getStatus = (): RealtimeStatus => status;
export const getServerStatus = (): RealtimeStatus => "connecting";

/** Calls the listener whenever a channel hears from the server; returns the unsubscribe function. */
export function subscribeHeard(listener: () => void): () => void {
  heardListeners.add(listener);
  return () => heardListeners.delete(listener);
}

/** When the channel last heard from the server (undefined: not since it was joined). */
export const getHeard = (channel: string): Heard | undefined => heard.get(channel);
