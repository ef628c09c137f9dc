// GET /v1/candles?outcomeIds=… – the candles of up to 50 outcomes over one window, each as the single endpoint answers it
import { answerEach, camelBatch } from "@/lib/api/batch";
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { candlesReader } from "@/lib/markets/reads/candles";
import { camelCandles } from "@/lib/markets/camel";
import { candlesBatchQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "history", camel: camelBatch("candles", camelCandles) }, async (req) => {
  const { outcomeIds, ...window } = parseQuery(candlesBatchQuery, searchParamsOf(req));
  return answerEach(outcomeIds, "candles", await candlesReader(outcomeIds, window));
});
export const OPTIONS = preflight;
