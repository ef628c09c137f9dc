// Push-channel names, payloads and limits (docs/api.md "Push channels"), shared by the Socket.IO
// server, the browser hook and third-party clients. No server-only imports.
import { SLUG_PATTERN } from "@/lib/markets/constants";

export const SOCKET_PATH = "/socket.io";
export const CHANNEL_KINDS = ["price", "orderbook", "trades"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A socket may be in at most this many channels at once. */
export const MAX_CHANNELS_PER_SOCKET = 100;

const CHANNEL_RE = new RegExp(`^market:(${SLUG_PATTERN}):(${CHANNEL_KINDS.join("|")})$`);

export interface Channel {
  slug: string;
  kind: ChannelKind;
}

export const channelName = (slug: string, kind: ChannelKind) => `market:${slug}:${kind}`;

/** `market:{slug}:{price|orderbook}` → its parts, or null for anything else. */
export function parseChannel(name: unknown): Channel | null {
  if (typeof name !== "string" || name.length > 220) return null;
  const m = CHANNEL_RE.exec(name);
  return m ? { slug: m[1], kind: m[2] as ChannelKind } : null;
}

export type Ack = { ok: true } | { ok: false; error: string };

/**
 * A signal carries no data: the client refetches. `outcomeId` is null when the coalesced signal
 * stands for several outcomes (or for a resync after the server lost its database connection).
 * `seq` counts the signals of one channel sent by one server instance: a jump means a missed signal;
 * it restarts when the client lands on another instance (re-join and refetch then anyway).
 */
export interface Signal {
  channel: string;
  slug: string;
  outcomeId: string | null;
  at: number;
  seq: number;
  /**
   * On `orderbook` signals that name one outcome: that outcome's book as `GET …/orderbook` answers it
   * (primary shape) right after the change, so a watcher can show it without a request. Absent when
   * the server could not read it: refetch then.
   */
  book?: unknown;
  /**
   * Beside `book`: its version (only grows; the same on every instance, from the database) and its
   * checksum (docs/api.md "Book checksum"), as GET …/orderbook's Book-Version and Book-Checksum headers.
   */
  version?: number;
  checksum?: number;
  /**
   * On `trades` signals: the market's trades newer than `after` (newest first, at most 100, the oldest of
   * them when there were more: `more`), as `GET …/trades` lists them. `after` is the `cursor` of this
   * channel's previous trades signal on this instance, or null for the first one (then `trades` are the
   * newest). Absent when nothing new could be read: refetch then.
   */
  trades?: unknown[];
  after?: string | null;
  cursor?: string;
  more?: boolean;
}

/**
 * Sent to every joined channel at least every `interval` ms (REALTIME_CHANNEL_HEARTBEAT_MS) while no
 * signal went out: `seq` is the channel's last signal's seq on this instance (0: none yet), so a client
 * that saw a lower one missed a signal, and one that hears nothing for `interval` + 1 s has a stalled
 * connection. Clients that ignore the event lose nothing.
 */
export interface Heartbeat {
  channel: string;
  seq: number;
  at: number;
  interval: number;
  /**
   * On orderbook channels: the current book version of each of the market's outcomes, by outcome id
   * (0: never changed). A client holding a lower version missed a change: refetch that book.
   */
  versions?: Record<string, number>;
}
