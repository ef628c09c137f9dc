// GET /v1/markets/changes – every market in the order of its last change, by keyset from a position (docs/api.md "Markets feed")
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelMarketChanges } from "@/lib/markets/camel";
import { listMarketChanges } from "@/lib/markets/reads/market-changes";
import { marketChangesQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "feed", camel: camelMarketChanges }, async (req) => listMarketChanges(parseQuery(marketChangesQuery, searchParamsOf(req))));
export const OPTIONS = preflight;
