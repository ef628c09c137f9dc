// GET /v1/markets/{id}/orderbook – the book of one outcome
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { json, route } from "@/lib/api/route";
import { getOrderBook } from "@/lib/markets/queries";
import { orderBookQuery } from "@/lib/markets/schemas";

export const GET = route<{ id: string }>(async (req, { params }) => {
  const { outcomeId } = parseQuery(orderBookQuery, searchParamsOf(req));
  return json(await getOrderBook({ id: (await params).id, outcomeId }));
});
