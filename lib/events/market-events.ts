// The database's announcements of committed changes: the one definition of their kinds and fields.
// Triggers (migrations 0002, 0006; 0017 adds where the market is listed; 0021 numbers each change at commit) send NOTIFY market_events with a JSON payload; the change stream
// (./change-stream.ts) parses each one once, here, and hands the typed event to every consumer (the
// response cache drops what it touched, the push channels signal their rooms).
import { z } from "zod";
import type { ChannelKind } from "./channel-kinds";

export const NOTIFY_CHANNEL = "market_events";

/**
 * Every kind the triggers send and what it stands for. The SQL spells them too (a test checks that the
 * migrations send exactly these); the push channels map some of them to channel kinds (`pushKindOf`).
 */
export const EVENT_KINDS = {
  trade: "new trades of an outcome (outcome set)",
  trade_edit: "trades of an outcome corrected or deleted (outcome set)",
  price: "an outcome's probability or name (outcome set); a market's visible fields (outcome null)",
  orderbook: "an outcome's resting orders or a venue's book (outcome set)",
  detail: "comments, counters and an outcome's other columns: what the market page and the lists show",
  market: "outcomes added or removed; a market renamed, re-sourced or deleted (sent under old and new slug)",
  list: "markets added (each named when a statement adds at most 100): only lists (and slug look-ups) can show them",
  users: "users changed (names, pictures): whatever shows a user (comments, top traders, trades) may have changed",
  flush: "a table truncated: anything may have changed",
} as const satisfies Record<string, string>;
export type EventKind = keyof typeof EVENT_KINDS;
const KINDS = Object.keys(EVENT_KINDS) as [EventKind, ...EventKind[]];

/** Where a market is listed: what related-markets lists are chosen by (lib/markets/sql/follow.ts, listRelatedGroup), and its status. */
export interface MarketGroup {
  category: string;
  subCategory: string;
  tags: string[];
  /** Read by nobody here: it is in the place so that a change of status sends two places (lib/markets/reads/invalidation.ts, tagsOf). */
  status?: string;
}

/** One committed change, as every consumer sees it. */
export interface MarketEvent {
  kind: EventKind;
  /** The market's slug; null for statement-wide kinds (`list`, `flush`). */
  slug: string | null;
  marketId: string | null;
  /** The outcome it concerns; null when it concerns several outcomes or the market itself. */
  outcomeId: string | null;
  /**
   * Where the named market is listed (migration 0017): after the change, and before it too when the change
   * moved it (category, sub-category, tags or status). Null or absent when the event names no market or
   * did not say (an older trigger, a place too long to send).
   */
  groups?: MarketGroup[] | null;
  /**
   * Its position (docs/api.md "Positions"): the same on every instance and replica, growing in commit
   * order. Absent when the writer's session switched positions off (migration 0021).
   */
  position?: number;
  /** An orderbook change of one outcome: the book's version after it (docs/api.md "Book versions"). */
  version?: number;
  /** With a position: when the change was numbered, at its commit (microseconds since 1970). */
  atUs?: number;
  /**
   * New trades (`trade`): the ids of at most 101 of them (a signal carries 100, a 101st says there were
   * more). Only a change read back from change_log has them (./change-log.ts); its NOTIFY leaves them out.
   */
  tradeIds?: string[];
}

/**
 * The wire form: `{k, s?, m?, o?, r?, p?, v?, a?, i?}` (kind, slug, market id, outcome id, groups as
 * `[category, sub_category, tags, status]`, position, book version, time of the position in µs, new
 * trade ids); kept short, NOTIFY payloads are capped at 8 kB (`i` is kept in change_log only).
 */
const wire = z.object({
  k: z.string(),
  s: z.string().nullish(),
  m: z.string().nullish(),
  o: z.string().nullish(),
  r: z.unknown().optional(),
  p: z.number().int().positive().optional(),
  v: z.number().int().nonnegative().optional(),
  a: z.number().int().optional(),
  i: z.array(z.string()).optional(),
});

/** Read on its own: groups that cannot be read leave the event whole, only not saying its groups. */
const place = [z.string(), z.string(), z.array(z.string().nullable())] as const;
const wireGroups = z.array(z.union([z.tuple([...place, z.string()]), z.tuple(place)]));

function groupsOf(r: unknown): MarketGroup[] | null {
  const parsed = wireGroups.safeParse(r);
  if (!parsed.success || parsed.data.length === 0) return null;
  return parsed.data.map(([category, subCategory, tags, status]) => ({
    category,
    subCategory,
    tags: tags.filter((t) => t !== null),
    ...(status === undefined ? {} : { status }),
  }));
}

/** The listener's own heartbeat travels on the same channel; it is never an event. */
const PING = "ping";
export const pingPayload = (id: string) => JSON.stringify({ k: PING, n: id });

/**
 * A NOTIFY payload as an event; null for pings and anything that is not ours. A kind this build does not
 * know (a newer migration's) is read as `flush`: a consumer that cannot tell what changed assumes anything did.
 */
export function parseMarketEvent(payload: string): MarketEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(payload);
  } catch {
    return null;
  }
  return marketEventOf(raw);
}

/** The same read of an announcement already parsed as JSON (a change_log row's event: ./change-log.ts). */
export function marketEventOf(raw: unknown): MarketEvent | null {
  const parsed = wire.safeParse(raw);
  if (!parsed.success || parsed.data.k === PING) return null;
  const { k, s, m, o, r, p, v, a, i } = parsed.data;
  const kind = (KINDS as string[]).includes(k) ? (k as EventKind) : "flush";
  const event: MarketEvent = { kind, slug: s ?? null, marketId: m ?? null, outcomeId: o ?? null };
  if (r !== undefined) event.groups = groupsOf(r);
  if (p !== undefined) event.position = p;
  if (v !== undefined) event.version = v;
  if (a !== undefined) event.atUs = a;
  if (i !== undefined) event.tradeIds = i;
  return event;
}

/** The push channels an event signals (docs/api.md "Push channels"): a trade moves the price and the tape. */
export function pushKindsOf(event: MarketEvent): readonly ChannelKind[] {
  if (event.slug === null) return [];
  switch (event.kind) {
    case "trade":
    case "trade_edit":
      return ["price", "trades"];
    case "price":
    case "orderbook":
      return [event.kind];
    default:
      return [];
  }
}
