// GET /v1/prices-history?outcomeIds=… – the price histories of up to 50 outcomes over one window, each as the single endpoint answers it
import { answerEach, camelBatch } from "@/lib/api/batch";
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelPriceHistory } from "@/lib/markets/camel";
import { priceHistoryReader } from "@/lib/markets/reads/history";
import { pricesHistoryBatchQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "history", camel: camelBatch("prices_history", camelPriceHistory) }, async (req) => {
  const { outcomeIds, ...window } = parseQuery(pricesHistoryBatchQuery, searchParamsOf(req));
  return answerEach(outcomeIds, "prices_history", await priceHistoryReader(outcomeIds, window));
});
export const OPTIONS = preflight;
