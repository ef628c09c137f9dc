// The site's top bar (with the skip link before it): the way back to the markets from every page, /docs included.
// Reads the watchlist count on the server; the markup is the client view's (site-header-view.tsx).
import { SiteHeaderView } from "./site-header-view";
import { readWatchlist } from "@/lib/follow/read-watchlist";

/** Height of the sticky bar including its bottom border, for pages that pin their own parts below it. */
export const SITE_HEADER_HEIGHT = "57px";

export async function SiteHeader() {
  const watched = (await readWatchlist()).length;
  return <SiteHeaderView watched={watched} />;
}
