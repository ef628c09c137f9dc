// POST /watchlist/star – the star's form (components/markets/star-form.tsx): stars or unstars one market in
// the watchlist cookie and sends the reader back where they were (303, so a reload does not post again).
import { cookies } from "next/headers";
import { isUuid } from "@/lib/markets/schemas";
import { parseWatchlist, safeBackPath, serializeWatchlist, starMarket, WATCHLIST_COOKIE, WATCHLIST_MAX_AGE_S } from "@/lib/follow/watchlist";

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return null; // "null": a sandboxed or privacy-sensitive origin
  }
};

export async function POST(req: Request) {
  // Another site's form must not rewrite a reader's list (the Lax cookie would not even be sent to it).
  const site = req.headers.get("sec-fetch-site");
  const origin = req.headers.get("origin");
  const host = req.headers.get("host");
  if ((site && site !== "same-origin" && site !== "none") || (origin && hostOf(origin) !== host)) {
    return new Response("Cross-site request refused", { status: 403, headers: { "Content-Type": "text/plain" } });
  }
  const form = await req.formData().catch(() => null);
  const id = String(form?.get("id") ?? "").toLowerCase();
  if (!isUuid(id)) return new Response("Bad Request: id must be a market id", { status: 400, headers: { "Content-Type": "text/plain" } });
  const want = form?.get("want");
  const jar = await cookies();
  const result = starMarket(parseWatchlist(jar.get(WATCHLIST_COOKIE)?.value), id, want === "on" ? true : want === "off" ? false : undefined);
  jar.set(WATCHLIST_COOKIE, serializeWatchlist(result.ids), {
    path: "/",
    maxAge: WATCHLIST_MAX_AGE_S,
    sameSite: "lax",
    httpOnly: true,
    secure: new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https",
  });
  const back = result.full ? "/watchlist?full=1" : safeBackPath(form?.get("back"));
  return new Response(null, { status: 303, headers: { Location: back, "Cache-Control": "no-store" } });
}
