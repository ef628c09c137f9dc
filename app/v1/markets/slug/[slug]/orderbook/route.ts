// GET /v1/markets/slug/{slug}/orderbook – the book of one outcome (its version and checksum in headers)
import { bookAnswer } from "@/lib/api/book";
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelOrderBook } from "@/lib/markets/camel";
import { getVersionedOrderBook } from "@/lib/markets/reads/books";
import { orderBookQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "book", camel: camelOrderBook }, async (req, { params }) => {
  const { outcomeId } = parseQuery(orderBookQuery, searchParamsOf(req));
  return bookAnswer(await getVersionedOrderBook({ slug: (await params).slug, outcomeId }));
});
export const OPTIONS = preflight;
