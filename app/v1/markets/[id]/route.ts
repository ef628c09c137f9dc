// GET /v1/markets/{id} – one market with outcomes, comments and top traders
import { preflight, route } from "@/lib/api/route";
import { camelMarketDetail } from "@/lib/markets/camel";
import { marketOrNotFound } from "@/lib/markets/errors";
import { getMarket } from "@/lib/markets/reads/market";

export const GET = route({ cache: "market", camel: camelMarketDetail }, async (_req, { params }) => {
  const { id } = await params;
  return marketOrNotFound(await getMarket({ id }), id);
});
export const OPTIONS = preflight;
