// GET /v1/candles – candles of up to 50 outcomes of any markets, one item per outcome
import { parseIdList } from "@/lib/api/batch";
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { getCandlesBatch } from "@/lib/markets/cache";
import { camelCandlesBatch } from "@/lib/markets/camel";
import { CANDLES_BATCH_MAX, candlesBatchQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "history", camel: camelCandlesBatch }, async (req) => {
  const query = parseQuery(candlesBatchQuery, searchParamsOf(req));
  return getCandlesBatch({ ...query, outcomeIds: parseIdList("outcomeIds", query.outcomeIds, CANDLES_BATCH_MAX) });
});
export const OPTIONS = preflight;
