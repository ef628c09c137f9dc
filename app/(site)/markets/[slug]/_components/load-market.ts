// The market of one request, loaded once for the metadata and the page (React's per-request cache).
// There is deliberately no loading.tsx above the page: a document load would stream its skeleton first,
// and React reveals a streamed boundary no sooner than 300 ms after its fallback was painted, all of it
// added to LCP although the market comes from memory. A click on a card shows that it is opening instead
// (components/markets/market-card.tsx).
import { cache } from "react";
import { getMarket } from "@/lib/markets/reads/market";

/**
 * The market with this slug, or null: the page then draws the 404 itself (lib/pages/document-status.ts
 * says why not notFound()). Already a MarketDetail (lib/markets/sql/market.ts builds it, and the response
 * cache gives back exactly what was kept), so it is not parsed again here: the schema's parse was a copy
 * of the same data on every render.
 */
export const loadMarket = cache((slug: string) => getMarket({ slug }));
