// GET /v1/markets/{id}/prices-history – bucketed last-trade prices of one outcome
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelPriceHistory } from "@/lib/markets/camel";
import { getPriceHistory } from "@/lib/markets/reads/history";
import { priceHistoryQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "history", camel: camelPriceHistory }, async (req, { params }) => {
  const query = parseQuery(priceHistoryQuery, searchParamsOf(req));
  return getPriceHistory({ id: (await params).id, ...query });
});
export const OPTIONS = preflight;
