// GET /v1/markets/slug/{slug} – one market, selected by slug
import { preflight, route } from "@/lib/api/route";
import { camelMarketDetail } from "@/lib/markets/camel";
import { marketOrNotFound } from "@/lib/markets/errors";
import { getMarket } from "@/lib/markets/reads/market";

export const GET = route({ cache: "market", camel: camelMarketDetail }, async (_req, { params }) => {
  const { slug } = await params;
  return marketOrNotFound(await getMarket({ slug }), slug);
});
export const OPTIONS = preflight;
