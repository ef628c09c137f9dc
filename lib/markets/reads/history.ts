// The price history of an outcome (docs/api.md "Price history"), one outcome's or many outcomes' over one
// window (docs/api.md "Batches") through the same entries, tagged with the outcome's history.
import "server-only";
import { HISTORY_DEFAULT_WINDOW_S, type PriceHistory, type PriceHistoryQuery } from "@/lib/markets/schemas";
import type { MarketKey } from "@/lib/markets/sql/fragments";
import * as historySql from "@/lib/markets/sql/history";
import { keyOf, read, readEach } from "./cache";
import { historyTags } from "./tags";

export function getPriceHistory(params: MarketKey & PriceHistoryQuery) {
  const key = keyOf(params);
  const { outcomeId, startTs, endTs, fidelity } = params;
  return read(["markets", "history", key, outcomeId, { startTs, endTs, fidelity }], historyTags(params, outcomeId), async () => {
    const value = await historySql.getPriceHistory({ ...key, outcomeId, startTs, endTs, fidelity });
    return { value, expiresAt: historyExpiry(value, startTs) };
  });
}

/**
 * Without startTs the window starts 7 days before now, so its oldest point leaves it as time passes.
 * (Points carry their bucket's start, never later than the trade: this expires early, never late.)
 */
function historyExpiry(value: PriceHistory, startTs: number | undefined): number | undefined {
  const oldest = value.history[0]?.t;
  return startTs === undefined && oldest !== undefined ? (oldest + HISTORY_DEFAULT_WINDOW_S) * 1000 : undefined;
}

/** The price history of each outcome over one window, as getPriceHistory({id: its market, outcomeId, …}) reads it. */
export function priceHistoryReader(outcomeIds: readonly string[], window: Pick<PriceHistoryQuery, "startTs" | "endTs" | "fidelity">) {
  const { startTs, endTs, fidelity } = window;
  return readEach(
    outcomeIds,
    (o) => ({
      key: ["markets", "history", { id: o.market_id }, o.outcome_id, { startTs, endTs, fidelity }],
      tags: historyTags({ id: o.market_id }, o.outcome_id),
    }),
    async (outcomes) => {
      const histories = await historySql.getPriceHistories(
        outcomes.map((o) => o.outcome_id),
        window,
      );
      return new Map([...histories].map(([id, value]) => [id, { value, expiresAt: historyExpiry(value, startTs) }]));
    },
  );
}
