// GET /v1/markets/{id}/orderbook/at – the book of one outcome as it was at a moment (docs/api.md "Past books")
import { pastBookAnswer } from "@/lib/api/book";
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelOrderBook } from "@/lib/markets/camel";
import { getBookAt } from "@/lib/markets/reads/book-log";
import { orderBookAtQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "book", camel: camelOrderBook }, async (req, { params }) => {
  const { outcomeId, ts } = parseQuery(orderBookAtQuery, searchParamsOf(req));
  return pastBookAnswer(await getBookAt({ id: (await params).id, outcomeId, ts }));
});
export const OPTIONS = preflight;
