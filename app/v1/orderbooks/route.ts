// GET /v1/orderbooks?outcomeIds=… – the books of up to 50 outcomes, each as GET /v1/markets/{id}/orderbook answers it
import { answerEach, camelBatch } from "@/lib/api/batch";
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelOrderBook } from "@/lib/markets/camel";
import { orderBookReader } from "@/lib/markets/cache";
import { orderBooksQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "book", camel: camelBatch("book", camelOrderBook) }, async (req) => {
  const { outcomeIds } = parseQuery(orderBooksQuery, searchParamsOf(req));
  return answerEach(outcomeIds, "book", await orderBookReader(outcomeIds));
});
export const OPTIONS = preflight;
