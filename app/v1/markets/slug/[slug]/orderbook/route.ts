// GET /v1/markets/slug/{slug}/orderbook – the book of one outcome, market selected by slug
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelOrderBook } from "@/lib/markets/camel";
import { getOrderBook } from "@/lib/markets/cache";
import { orderBookQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "book", camel: camelOrderBook }, async (req, { params }) => {
  const { outcomeId } = parseQuery(orderBookQuery, searchParamsOf(req));
  return getOrderBook({ slug: (await params).slug, outcomeId });
});
export const OPTIONS = preflight;
