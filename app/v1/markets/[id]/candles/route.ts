// GET /v1/markets/{id}/candles – OHLCV candles of one outcome
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { getCandles } from "@/lib/markets/reads/candles";
import { camelCandles } from "@/lib/markets/camel";
import { candlesQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "history", camel: camelCandles }, async (req, { params }) => {
  const query = parseQuery(candlesQuery, searchParamsOf(req));
  return getCandles({ id: (await params).id, ...query });
});
export const OPTIONS = preflight;
