// GET /v1/markets/slug/{slug}/trades – the market's trade tape, market selected by slug
import { parseQuery, searchParamsOf } from "@/lib/api/query";
import { preflight, route } from "@/lib/api/route";
import { camelTradeTape } from "@/lib/markets/camel";
import { getTrades } from "@/lib/markets/reads/trades";
import { tradesQuery } from "@/lib/markets/schemas";

export const GET = route({ cache: "trades", camel: camelTradeTape }, async (req, { params }) => {
  const query = parseQuery(tradesQuery, searchParamsOf(req));
  return getTrades({ slug: (await params).slug, ...query });
});
export const OPTIONS = preflight;
