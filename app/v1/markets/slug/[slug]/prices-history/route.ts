// GET /v1/markets/slug/{slug}/prices-history – price history, market selected by slug
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { json, route } from "@/lib/api/route";
import { getPriceHistory } from "@/lib/markets/queries";
import { priceHistoryQuery } from "@/lib/markets/schemas";

export const GET = route<{ slug: string }>(async (req, { params }) => {
  const query = parseQuery(priceHistoryQuery, searchParamsOf(req));
  return json(await getPriceHistory({ slug: (await params).slug, ...query }));
});
