// Decides the 404 above loading.tsx: once the skeleton streams the status is fixed at 200, so an
// unknown slug must be found out here. Only an index probe: Next runs this layout when it
// prefetches a market card's link, and the page loads the market itself.
import { notFound } from "next/navigation";
import { marketSlugExists } from "@/lib/markets/cache";

export default async function MarketLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  if (!(await marketSlugExists((await params).slug))) notFound();
  return children;
}
