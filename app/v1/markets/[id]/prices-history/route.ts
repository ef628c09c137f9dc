// GET /v1/markets/{id}/prices-history – bucketed last-trade prices of one outcome
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { json, route } from "@/lib/api/route";
import { getPriceHistory } from "@/lib/markets/queries";
import { priceHistoryQuery } from "@/lib/markets/schemas";

export const GET = route<{ id: string }>(async (req, { params }) => {
  const query = parseQuery(priceHistoryQuery, searchParamsOf(req));
  return json(await getPriceHistory({ id: (await params).id, ...query }));
});
