// GET /markets/{slug}/share.png?v={version} – the market's share image (1200×630). The page's tags name
// the current version (lib/follow/share.ts), so a changed market gets a new URL and this one can be cached for good.
import { drawOnce, marketShareImage, pngResponse } from "@/lib/follow/share-image";
import { getPriceHistory } from "@/lib/markets/reads/history";
import { getMarket } from "@/lib/markets/reads/market";
import { leadingOutcome } from "@/lib/markets/moves";
import { shareVersion } from "@/lib/follow/share";

export async function GET(req: Request, { params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const market = await getMarket({ slug });
  if (!market) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  const version = shareVersion(market);
  const lead = leadingOutcome(market.outcomes);
  const png = await drawOnce(`${slug}:${version}`, async () => {
    // The leading outcome's 7 days in hourly points; without them the image still draws, lineless.
    const history = lead && market.status !== "PENDING" ? await getPriceHistory({ slug, outcomeId: lead.id, fidelity: 60 }).catch(() => null) : null;
    return marketShareImage(market, history?.history ?? []);
  });
  return pngResponse(req, png, version, new URL(req.url).searchParams.get("v") === version);
}
