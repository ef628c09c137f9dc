// GET /v1/markets – the filtered, sorted, offset-paginated market list
import { searchParamsOf, parseQuery } from "@/lib/api/query";
import { json, route } from "@/lib/api/route";
import { listMarkets } from "@/lib/markets/queries";
import { marketListQuery } from "@/lib/markets/schemas";

export const GET = route(async (req) => json(await listMarkets(parseQuery(marketListQuery, searchParamsOf(req)))));
