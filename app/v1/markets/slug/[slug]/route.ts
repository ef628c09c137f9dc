// GET /v1/markets/slug/{slug} – one market, selected by slug
import { preflight, route } from "@/lib/api/route";
import { camelMarketDetail } from "@/lib/markets/camel";
import { getMarket } from "@/lib/markets/cache";

export const GET = route({ cache: "market", camel: camelMarketDetail }, async (_req, { params }) =>
  getMarket({ slug: (await params).slug }),
);
export const OPTIONS = preflight;
