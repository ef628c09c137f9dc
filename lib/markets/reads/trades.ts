// The trade tape (docs/api.md "Trades"). A trade announces "trade" with its market and outcome, which
// drops the market's tag (the tapes of the whole market) and the outcome's history tag (that outcome's tapes).
import "server-only";
import type { MarketKey } from "@/lib/markets/sql/fragments";
import * as tradesSql from "@/lib/markets/sql/trades";
import { keyOf, loaded, read } from "./cache";
import { tapeTags } from "./tags";

export function getTrades(params: MarketKey & tradesSql.TradesParams) {
  const key = keyOf(params);
  const { outcomeId, limit, before, after } = params;
  return read(["markets", "trades", key, outcomeId ?? null, { limit, before, after }], tapeTags(params, outcomeId), () =>
    loaded(tradesSql.listTrades({ ...key, outcomeId, limit, before, after })),
  );
}

/**
 * The trades of a market (of one outcome when `outcomeId` is given) newer than the cursor `after`,
 * at most `limit`, newest first, from memory when nothing traded since: what a push signal attaches.
 */
export function getTradesAfter(params: { marketId: string; outcomeId?: string; after: string; limit: number }) {
  return getTrades({ id: params.marketId, outcomeId: params.outcomeId, after: params.after, limit: params.limit });
}
