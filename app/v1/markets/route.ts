// GET /v1/markets – the filtered, sorted, offset-paginated market list
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelMarketList } from "@/lib/markets/camel";
import { listMarkets } from "@/lib/markets/reads/lists/list-markets";
import { marketListQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "list", camel: camelMarketList }, async (req) => listMarkets(parseQuery(marketListQuery, searchParamsOf(req))));
export const OPTIONS = preflight;
