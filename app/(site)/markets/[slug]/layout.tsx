// Looks the market up above loading.tsx: once the skeleton streams the status is fixed at 200, so an
// unknown slug must be found out here for the response to still be a real 404.
import { loadMarket } from "./load-market";

export default async function MarketLayout({ children, params }: { children: React.ReactNode; params: Promise<{ slug: string }> }) {
  await loadMarket((await params).slug);
  return children;
}
