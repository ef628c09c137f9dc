// Decides the 404 above loading.tsx: once the skeleton streams the status is fixed at 200, so an
// unknown slug must be found out here. Only an index probe: Next runs this layout when it
// prefetches a market card's link, and the page loads the market itself.
import { notFound } from "next/navigation";
import { marketSlugExists } from "@/lib/markets/cache";

export default async function MarketLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  const slug = (await params).slug;
  // Through the cache and its breaker: a database that just went away opens it, and the next request gets the 503 page.
  if (!(await marketSlugExists(slug))) notFound();
  return children;
}
