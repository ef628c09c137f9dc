// Push-channel names, payloads and limits (decisions.md "Push channels"), shared by the Socket.IO
// server, the browser hook and third-party clients. No server-only imports.
import { z } from "zod";

export const SOCKET_PATH = "/socket.io";
export const CHANNEL_KINDS = ["price", "orderbook"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A socket may be in at most this many channels at once. */
export const MAX_CHANNELS_PER_SOCKET = 100;
/** The market list refetches its visible page this often instead of holding a socket per market. */
export const LIST_REFRESH_MS = 30_000;

const SLUG_RE = /^[a-z0-9-]{1,200}$/;
const CHANNEL_RE = /^market:([a-z0-9-]{1,200}):(price|orderbook)$/;

export interface Channel {
  slug: string;
  kind: ChannelKind;
}

export const channelName = (slug: string, kind: ChannelKind) => `market:${slug}:${kind}`;
export const isSlug = (s: string) => SLUG_RE.test(s);

/** `market:{slug}:{price|orderbook}` → its parts, or null for anything else. */
export function parseChannel(name: unknown): Channel | null {
  if (typeof name !== "string" || name.length > 220) return null;
  const m = CHANNEL_RE.exec(name);
  return m ? { slug: m[1], kind: m[2] as ChannelKind } : null;
}

/** Body of `join` and `leave`. */
export const channelRequest = z.object({ channel: z.string().max(220) });

export type Ack = { ok: true } | { ok: false; error: string };

/**
 * A signal carries no data: the client refetches. `outcomeId` is null when the coalesced signal
 * stands for several outcomes (or for a resync after the server lost its database connection).
 * `seq` counts the signals of one channel sent by one server instance: a jump means a missed signal;
 * it restarts when the client lands on another instance (re-join and refetch then anyway).
 */
export const signalSchema = z.object({
  channel: z.string(),
  slug: z.string(),
  outcomeId: z.string().nullable(),
  at: z.number().int(),
  seq: z.number().int().min(1),
});
export type Signal = z.infer<typeof signalSchema>;
