// Push-channel names, payloads and limits (docs/api.md "Push channels"), shared by the Socket.IO
// server, the browser hook and third-party clients. No server-only imports.
import { CHANNEL_KINDS, type ChannelKind } from "@/lib/events/channel-kinds";
import { SLUG_PATTERN } from "@/lib/markets/constants";

export const SOCKET_PATH = "/socket.io";

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

/** The catalogue's channel (docs/api.md "Push channels"): markets created, changed, resolved, deleted. */
export const MARKETS_CHANNEL = "markets";

/** The event a channel's changes are sent as: its kind, or `market` on the catalogue's channel. */
export type StreamEventName = ChannelKind | "market";

export type StreamChannel = { kind: ChannelKind; slug: string; name: string } | { kind: "markets"; slug: null; name: typeof MARKETS_CHANNEL };

/** Any channel a client may follow (a market's, or the catalogue's), or null when it names none. */
export function parseStreamChannel(name: unknown): StreamChannel | null {
  if (name === MARKETS_CHANNEL) return { kind: "markets", slug: null, name: MARKETS_CHANNEL };
  const ch = parseChannel(name);
  return ch && { ...ch, name: name as string };
}

/**
 * A join's ack: with `since`, `position` is where the replay stopped and the live signals take over
 * (a signal at or below it adds nothing); `reset`: older than the retention window, refetch.
 */
export type Ack = { ok: true; position?: number; reset?: boolean } | { ok: false; error: string };

// The signal and heartbeat a channel sends are the public types of the TypeScript client
// (packages/client/src/live.ts, docs/api.md "Push channels"): written there once, the server sends them.
export type { LiveHeartbeat as Heartbeat, LiveSignal as Signal } from "@markets/client/live";
