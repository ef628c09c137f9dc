// zod schemas of what the push transports send and take (docs/api.md "Push channels"): the data of each
// server-sent event and Socket.IO event, join and leave with their acks, and the query of GET /v1/stream.
// The AsyncAPI document (lib/api/asyncapi.ts) is generated from them, and a test may parse a payload with
// them. The book, the trade and the market are the REST schemas themselves (lib/markets/schemas).
import { z } from "zod";
import { CHANNEL_KINDS } from "@/lib/events/channel-kinds";
import { MARKETS_CHANNEL } from "@/lib/realtime/channels";
import {
  camelMarketListItemSchema,
  camelOrderBookSchema,
  camelTradeSchema,
  marketListItemSchema,
  orderBookSchema,
  SLUG_PATTERN,
  tradeSchema,
  uuid,
} from "@/lib/markets/schemas";

/** At most this many channels in one stream (`channels`), and streams open at once per client. */
export const STREAM_MAX_CHANNELS = 20;
export const STREAMS_PER_CLIENT = 10;
/** A stream or channel that sent nothing for this long sends a heartbeat (REALTIME_CHANNEL_HEARTBEAT_MS). */
export const HEARTBEAT_INTERVAL_MS = 5000;
/** Signals and events that carry trades carry at most this many. */
export const TRADES_PER_EVENT = 100;

/** Every channel name a client may ask for: `market:{slug}:{kind}` or `markets`. */
export const CHANNEL_NAME_PATTERN = `^(market:${SLUG_PATTERN}:(${CHANNEL_KINDS.join("|")})|${MARKETS_CHANNEL})$`;

export const positionSchema = z
  .number()
  .int()
  .min(0)
  .meta({
    id: "Position",
    description:
      'A change\'s position (docs/api.md "Positions"): the same on every instance and replica, growing in commit order, ' +
      "kept for the retention window (CHANGES_RETENTION_HOURS, 24 h by default). Gaps are normal.",
    example: 1048576,
  });

const channelName = z.string().regex(new RegExp(CHANNEL_NAME_PATTERN)).meta({
  description: "A channel: `market:{slug}:price`, `market:{slug}:orderbook`, `market:{slug}:trades` or `markets`.",
  example: "market:will-btc-close-above-100k-in-2025:orderbook",
});
const at = z.number().int().min(0).meta({ description: "When the change was committed, unix milliseconds.", example: 1767268800123 });
const sentAt = z.number().int().min(0).meta({ description: "When the heartbeat was sent, unix milliseconds.", example: 1767268805123 });

/** What every change event starts with, on both transports. */
const envelope = {
  channel: channelName,
  slug: z.string().meta({ description: "The market's slug.", example: "will-btc-close-above-100k-in-2025" }),
  outcomeId: uuid.nullable().meta({ description: "The outcome the change concerns; null when it concerns several outcomes or the whole market." }),
  at,
  position: positionSchema,
};

/** Fields only Socket.IO events have: the per-instance count of live signals, and the replay flag. */
const socketFields = {
  seq: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({
      description:
        "Socket.IO live signals only: counts this channel's signals on one instance (a jump means a missed one; " +
        "it restarts on another instance). Positions are what a client resumes from.",
    }),
  replay: z.literal(true).optional().meta({ description: "Socket.IO only: sent by `join` with `since` (a missed change), before its ack." }),
};

export const priceEventSchema = z
  .object({ ...envelope, ...socketFields })
  .meta({ id: "PriceEvent", description: "The market's prices changed (a trade, a probability, a visible field): refetch GET …/prices-history." });

export const orderbookEventSchema = z
  .object({
    ...envelope,
    ...socketFields,
    book: z
      .union([orderBookSchema, camelOrderBookSchema])
      .optional()
      .meta({
        description:
          "On a change of one outcome: its book as GET …/orderbook answers it right after the change (CamelOrderBook on a " +
          "stream with shape=camel; Socket.IO sends the primary shape). Absent when the change concerns several outcomes, " +
          "when the server could not read it, or when the operator left books out (REALTIME_PUSH_BOOK=0): refetch then.",
      }),
    version: z.number().int().min(0).optional().meta({ description: 'Beside `book`: its version, as the Book-Version header (docs/api.md "Book versions").' }),
    checksum: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional()
      .meta({ description: 'Beside `book`: its checksum, as the Book-Checksum header (docs/api.md "Book checksum").' }),
  })
  .meta({ id: "OrderbookEvent", description: "The market's book changed." });

export const tradesEventSchema = z
  .object({
    ...envelope,
    ...socketFields,
    trades: z
      .array(z.union([tradeSchema, camelTradeSchema]))
      .max(TRADES_PER_EVENT)
      .optional()
      .meta({ description: `The change's new trades, newest first, as GET …/trades lists them (CamelTrade with shape=camel), at most ${TRADES_PER_EVENT}.` }),
    after: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Socket.IO live signals only: the `cursor` of this channel's previous trades signal on this instance (null: none)." }),
    cursor: z.string().optional().meta({ description: "The newest carried trade's cursor: GET …/trades?after=<cursor> continues from it." }),
    more: z
      .boolean()
      .optional()
      .meta({ description: `The change had more than ${TRADES_PER_EVENT} trades: continue with GET …/trades?after=<cursor>.` }),
    edit: z.literal(true).optional().meta({ description: "Trades were corrected or deleted: no `trades`, refetch the tape." }),
  })
  .meta({ id: "TradesEvent", description: "The market traded, or a trade was corrected or deleted." });

export const MARKET_CHANGE_TYPES = ["created", "changed", "status", "resolved", "deleted"] as const;

export const marketEventSchema = z
  .object({
    channel: z.literal(MARKETS_CHANNEL),
    slug: envelope.slug,
    outcomeId: envelope.outcomeId,
    at,
    position: positionSchema,
    ...socketFields,
    type: z.enum(MARKET_CHANGE_TYPES).meta({
      description: "created; changed (a visible field); status (a status change); resolved; deleted.",
    }),
    id: uuid.meta({ description: "The market's id." }),
    market: z.union([marketListItemSchema, camelMarketListItemSchema]).nullable().meta({
      description: "The market as an item of GET /v1/markets lists it (CamelMarketListItem with shape=camel); null when deleted.",
    }),
  })
  .meta({ id: "MarketEvent", description: "A market was created, changed, moved to another status, resolved or deleted (channel `markets`)." });

const RESET_REASONS = ["retention", "unknown", "flush", "bulk"] as const;
const resetFields = {
  reason: z.enum(RESET_REASONS).meta({
    description:
      "retention: the asked position is older than the retention window; unknown: it is ahead of the newest position; " +
      "flush: a table was truncated (refetch everything); bulk: many markets were added at once (the markets channel: refetch the catalogue).",
  }),
  position: positionSchema.meta({ description: "Carry on from this position once what you hold is refetched." }),
  horizon: z.number().int().min(0).meta({ description: "Every position up to this one was dropped by retention." }),
};

export const streamResetSchema = z.object(resetFields).meta({
  id: "StreamReset",
  description: "What was asked for cannot be replayed: refetch what you hold over REST, then carry on from `position`.",
});
export const channelResetSchema = z
  .object({ channel: channelName, ...resetFields })
  .meta({ id: "ChannelReset", description: "`join` with a `since` that cannot be replayed: refetch this channel's data, then carry on from `position`." });

export const streamHeartbeatSchema = z
  .object({
    at: sentAt,
    position: positionSchema.meta({ description: "The position the stream has delivered up to (also the event's id)." }),
    interval: z.number().int().min(1).meta({ description: "Milliseconds between heartbeats of a silent stream.", example: HEARTBEAT_INTERVAL_MS }),
  })
  .meta({ id: "StreamHeartbeat", description: `Sent when nothing else was sent for \`interval\` ms (${HEARTBEAT_INTERVAL_MS} by default).` });

export const channelHeartbeatSchema = z
  .object({
    channel: channelName,
    seq: z
      .number()
      .int()
      .min(0)
      .meta({ description: "This channel's last signal's seq on this instance (0: none yet); above the last one handled: a signal was missed." }),
    at: sentAt,
    interval: z.number().int().min(1).meta({ description: "Milliseconds between heartbeats of a silent channel.", example: HEARTBEAT_INTERVAL_MS }),
    versions: z.record(uuid, z.number().int().min(0)).optional().meta({
      description: "Orderbook channels: the current book version of each of the market's outcomes (0: never changed). A lower one held: refetch that book.",
    }),
  })
  .meta({
    id: "ChannelHeartbeat",
    description: "Sent to a joined channel that had no signal for `interval` ms; silence for `interval` + 1 s means a stalled connection.",
  });

export const joinRequestSchema = z
  .object({
    channel: channelName,
    since: positionSchema
      .optional()
      .meta({ description: "The last position handled: the missed changes of this channel are sent first (replay: true), then the ack." }),
  })
  .meta({ id: "JoinRequest" });
export const leaveRequestSchema = z.object({ channel: channelName }).meta({ id: "LeaveRequest" });

const refused = z.object({
  ok: z.literal(false),
  error: z.string().meta({ description: 'Why: "Malformed channel", "Unknown market: <slug>", too many channels or requests.', example: "Malformed channel" }),
});
export const joinAckSchema = z
  .union([
    z.object({
      ok: z.literal(true),
      position: positionSchema.optional().meta({ description: "The position the channel is current to: the replay (if any) reached it." }),
      reset: z
        .literal(true)
        .optional()
        .meta({ description: "`since` could not be replayed (a `reset` event was sent): refetch, then carry on from `position`." }),
    }),
    refused,
  ])
  .meta({ id: "JoinAck", description: "The acknowledgement of `join`." });
export const leaveAckSchema = z.union([z.object({ ok: z.literal(true) }), refused]).meta({ id: "LeaveAck", description: "The acknowledgement of `leave`." });

/** The path of the server-sent events. */
export const STREAM_PATH = "/v1/stream";

/** A position as a query parameter or Last-Event-ID: a whole number, at most 16 digits. */
export const POSITION_PATTERN = /^(0|[1-9]\d{0,15})$/;

/** The query of GET /v1/stream (any other parameter is a 400), with the messages of its 400s. */
export const streamQuerySchema = z.strictObject({
  channels: z
    .string({ error: "channels is required" })
    .max(5000, "channels is too long")
    .meta({
      description: `1..${STREAM_MAX_CHANNELS} channels, comma-separated: \`market:{slug}:price\`, \`market:{slug}:orderbook\`, \`market:{slug}:trades\`, \`markets\`.`,
      example: "market:will-btc-close-above-100k-in-2025:orderbook,market:will-btc-close-above-100k-in-2025:trades",
    }),
  since: z
    .string()
    .regex(POSITION_PATTERN, "since must be a position (a whole number ≥ 0)")
    .optional()
    .meta({ description: "Resume after this position, as the Last-Event-ID header does. Without either: live events only.", example: "1048576" }),
  shape: z
    .enum(["primary", "camel"], { error: "shape must be one of: primary, camel" })
    .optional()
    .meta({ description: "camel: the camelCase variant of book, trades and market, as Accept: application/vnd.markets.camel+json (which shape overrides)." }),
});
