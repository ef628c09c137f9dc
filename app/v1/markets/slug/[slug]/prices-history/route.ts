// GET /v1/markets/slug/{slug}/prices-history – price history, market selected by slug
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelPriceHistory } from "@/lib/markets/camel";
import { getPriceHistory } from "@/lib/markets/reads/history";
import { priceHistoryQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "history", camel: camelPriceHistory }, async (req, { params }) => {
  const query = parseQuery(priceHistoryQuery, searchParamsOf(req));
  return getPriceHistory({ slug: (await params).slug, ...query });
});
export const OPTIONS = preflight;
