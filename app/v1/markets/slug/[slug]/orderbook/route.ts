// GET /v1/markets/slug/{slug}/orderbook – the book of one outcome, market selected by slug
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { json, route } from "@/lib/api/route";
import { getOrderBook } from "@/lib/markets/queries";
import { orderBookQuery } from "@/lib/markets/schemas";

export const GET = route<{ slug: string }>(async (req, { params }) => {
  const { outcomeId } = parseQuery(orderBookQuery, searchParamsOf(req));
  return json(await getOrderBook({ slug: (await params).slug, outcomeId }));
});
