// GET /oembed?url=<market page URL>&format=json – oEmbed (https://oembed.com) for our market pages: a "rich"
// answer whose html frames the embed card, so blog and forum software embeds a pasted link by itself.
// Discovered through the <link rel="alternate" type="application/json+oembed"> of every market page.
import { getMarket } from "@/lib/markets/reads/market";
import { SLUG_RE } from "@/lib/markets/constants";
import { originOf } from "@/lib/follow/origin";
import { EMBED_SIZE, embedHtml, SHARE_IMAGE, SITE_NAME, shareImagePath, shareVersion } from "@/lib/follow/share";

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Access-Control-Allow-Origin": "*", "Cache-Control": "no-store" } });

/** The slug of a market page URL on this origin, or null. */
function slugOf(url: string | null, origin: string): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    const o = new URL(origin);
    if (u.host !== o.host || (u.protocol !== "http:" && u.protocol !== "https:")) return null;
    const m = /^\/markets\/([^/]+)\/?$/.exec(u.pathname);
    return m && SLUG_RE.test(m[1]) ? m[1] : null;
  } catch {
    return null;
  }
}

const bound = (value: string | null, max: number) => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? Math.min(n, max) : max;
};

export async function GET(req: Request) {
  const params = new URL(req.url).searchParams;
  const format = params.get("format") ?? "json";
  if (format !== "json") return plain(501, "Not Implemented: only format=json is served");
  const origin = originOf(req.headers);
  const slug = slugOf(params.get("url"), origin);
  const market = slug ? await getMarket({ slug }) : null;
  if (!market) return plain(404, "Not Found: url must be a market page of this site");
  const width = bound(params.get("maxwidth"), EMBED_SIZE.width);
  const height = bound(params.get("maxheight"), EMBED_SIZE.height);
  const body = {
    version: "1.0",
    type: "rich",
    title: market.question,
    provider_name: SITE_NAME,
    provider_url: `${origin}/`,
    html: embedHtml(origin, market.slug, market.question, { width, height }),
    width,
    height,
    thumbnail_url: `${origin}${shareImagePath(market.slug, shareVersion(market))}`,
    thumbnail_width: SHARE_IMAGE.width,
    thumbnail_height: SHARE_IMAGE.height,
    cache_age: 300,
  };
  return Response.json(body, { headers: { "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" } });
}
