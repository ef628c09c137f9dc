// The candles of an outcome (docs/api.md "Candles"), one outcome's or many outcomes' over one window.
// Tagged like the history: a trade announces "trade" (an edit "trade_edit") with its outcome, which drops
// the outcome's history tag (./invalidation.ts). Keyed by the window the request resolves to, so a default
// window (endTs = now) moves to a new key at each interval boundary, and expires then.
import "server-only";
import { type CandleWindow, candleWindow, windowExpiresAt } from "@/lib/markets/candles";
import { type CandlesBatchQuery, type CandlesQuery, isUuid } from "@/lib/markets/schemas";
import * as candlesSql from "@/lib/markets/sql/candles";
import type { MarketKey } from "@/lib/markets/sql/fragments";
import { read, readEach } from "./cache";
import { historyTags } from "./tags";

const candleWindowKey = (w: CandleWindow) => ({ interval: w.interval, from: w.from, first: w.first, last: w.last });
/** Keys and tags hold ids as PostgreSQL prints them (lowercase), whatever case the request used. */
const idOf = (id: string) => (isUuid(id) ? id.toLowerCase() : id);
const candlesEntry = (key: MarketKey, outcomeId: string, window: CandleWindow) => ({
  key: ["markets", "candles", key, outcomeId, candleWindowKey(window)],
  tags: historyTags(key, outcomeId),
});

export function getCandles(params: MarketKey & CandlesQuery) {
  const key = "id" in params ? { id: idOf(params.id) } : { slug: params.slug };
  const outcomeId = idOf(params.outcomeId);
  const window = candleWindow(params, params.interval, Date.now() / 1000);
  const entry = candlesEntry(key, outcomeId, window);
  return read(entry.key, entry.tags, async () => ({
    value: await candlesSql.getCandles({ ...key, outcomeId, window }),
    expiresAt: windowExpiresAt(params, window),
  }));
}

/** The candles of each outcome over one window, as getCandles({id: its market, outcomeId, …}) reads them. */
export function candlesReader(outcomeIds: readonly string[], query: Omit<CandlesBatchQuery, "outcomeIds">) {
  const window = candleWindow(query, query.interval, Date.now() / 1000);
  return readEach(
    outcomeIds,
    (o) => candlesEntry({ id: o.market_id }, o.outcome_id, window),
    async (outcomes) => {
      const sets = await candlesSql.getCandleSets(
        outcomes.map((o) => o.outcome_id),
        window,
      );
      return new Map([...sets].map(([id, value]) => [id, { value, expiresAt: windowExpiresAt(query, window) }]));
    },
  );
}
