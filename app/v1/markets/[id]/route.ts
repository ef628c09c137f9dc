// GET /v1/markets/{id} – one market with outcomes, comments and top traders
import { preflight, route } from "@/lib/api/route";
import { camelMarketDetail } from "@/lib/markets/camel";
import { getMarket } from "@/lib/markets/cache";

export const GET = route({ cache: "market", camel: camelMarketDetail }, async (_req, { params }) => getMarket({ id: (await params).id }));
export const OPTIONS = preflight;
