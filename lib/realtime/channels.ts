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

export type Ack = { ok: true } | { ok: false; error: string };

// The signal and heartbeat a channel sends are the public types of the TypeScript client
// (packages/client/src/live.ts, docs/api.md "Push channels"): written there once, the server sends them.
export type { LiveHeartbeat as Heartbeat, LiveSignal as Signal } from "@markets/client/live";
