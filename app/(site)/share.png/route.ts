// GET /share.png – the list page's share image (1200×630): the site and its count of active markets (cached a minute).
import { drawOnce, pngResponse, siteShareImage } from "@/lib/follow/share-image";
import { listMarkets } from "@/lib/markets/reads/lists/list-markets";
import { marketListQuery } from "@/lib/markets/schemas";

export async function GET(req: Request) {
  const { total } = await listMarkets(marketListQuery.parse({ limit: "1" }));
  const png = await drawOnce(`site:${total}`, async () => siteShareImage({ active: total }));
  return pngResponse(req, png, `site-${total}`, false);
}
