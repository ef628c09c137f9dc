// What one numbered change is on the streams (docs/api.md "Push channels"): the events it sends, each on
// one channel with the change's position, or a reset. The same mapping serves live changes and changes
// read back from change_log, so a resumed stream and a live one carry the same events.
import { type MarketEvent, pushKindsOf } from "@/lib/events/market-events";

import { channelName, MARKETS_CHANNEL, type StreamEventName } from "@/lib/realtime/channels";

/** What happened to a market, on the `markets` channel. */
export type MarketChange = "created" | "changed" | "status" | "resolved" | "deleted";

/** One event of one channel. Its data (book, trades, market) is read when it is sent (./resolve.ts). */
export interface StreamEvent {
  position: number;
  channel: string;
  name: StreamEventName;
  /** Commit time, unix ms. */
  at: number;
  change: MarketEvent;
  /** Trades corrected or deleted: a trades event that carries none (refetch). */
  edit?: boolean;
  /** On `markets`: what happened (`changed` may still turn out `deleted` when the market is read). */
  type?: MarketChange;
}

/** Streams must start again from what they hold: a table was truncated, or many markets were added at once. */
export interface StreamReset {
  position: number;
  /** `all`: every channel; `markets`: the catalogue's channel. */
  scope: "all" | "markets";
  reason: "flush" | "bulk";
}

/** The market kinds the catalogue's channel and feed follow (migration 0021, market_positions). */
const MARKET_KINDS = new Set(["list", "price", "detail", "market"]);

function marketChange(change: MarketEvent): MarketChange {
  if (change.kind === "list") return "created";
  const [now, before] = change.groups ?? [];
  if (now?.status !== undefined && before?.status !== undefined && now.status !== before.status) {
    return now.status === "RESOLVED" ? "resolved" : "status";
  }
  return "changed";
}

export function streamEventsOf(change: MarketEvent): { events: StreamEvent[]; reset?: StreamReset } {
  const position = change.position;
  if (position === undefined) return { events: [] };
  const at = Math.round((change.atUs ?? Date.now() * 1000) / 1000);
  if (change.kind === "flush") return { events: [], reset: { position, scope: "all", reason: "flush" } };
  if (change.kind === "list" && change.marketId === null) return { events: [], reset: { position, scope: "markets", reason: "bulk" } };
  const events: StreamEvent[] = [];
  if (change.slug !== null) {
    for (const kind of pushKindsOf(change)) {
      const e: StreamEvent = { position, channel: channelName(change.slug, kind), name: kind, at, change };
      if (kind === "trades" && change.kind === "trade_edit") e.edit = true;
      events.push(e);
    }
    if (MARKET_KINDS.has(change.kind) && change.marketId !== null) {
      events.push({ position, channel: MARKETS_CHANNEL, name: "market", at, change, type: marketChange(change) });
    }
  }
  return { events };
}
