// Market page: the market (an unknown slug is the 404, drawn here), the chosen outcome's book, the chart in its mode
// and the trade tape's first page are read through lib and rendered here, whole, in the first response
// (no loading.tsx: see load-market.ts), chart included as an SVG. The reads go to the browser once, as
// the query cache's data: LiveSwap renders the first view from them (market-first.tsx) on the server and
// again when the browser hydrates, then loads the live view (react-query filled with these same reads,
// the push channels, the interactive chart).
import type { Metadata } from "next";
import { dehydrate } from "@tanstack/react-query";
import { getOrderBook } from "@/lib/markets/reads/books";
import { getDayAgoPrices } from "@/lib/markets/reads/follow";
import type { OrderBook } from "@/lib/markets/schemas";
import { getQueryClient } from "@/lib/query/client";
import { marketDetailOptions, orderBookOptions } from "@/lib/query/markets";
import { nowMinute } from "@/lib/ui/chart-ranges";
import { readNow } from "@/lib/ui/clock";
import { marketHref, parseMarketView } from "@/lib/ui/market-view";
import { loadMarket } from "./_components/load-market";
import type { FirstReads } from "./_components/market-first";
import { serverPanels } from "./_components/server-panels";
import { LiveSwap } from "./_components/live-swap";
import { packPageData } from "./_components/page-data";
import { ShareActions } from "@/components/markets/share-actions";
import { readWatchlist } from "@/lib/follow/read-watchlist";
import { requestOrigin } from "@/lib/follow/origin";
import { embedHtml, marketPath, SHARE_IMAGE, SITE_NAME, shareImagePath, shareVersion } from "@/lib/follow/share";
import { RelatedMarkets } from "./_components/related-markets";
import { MarketNotFound } from "@/components/markets/market-not-found";
import { setDocumentStatus } from "@/lib/pages/document-status";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

/** Title and description, the share card (Open Graph, Twitter) with its versioned image, and oEmbed discovery. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const market = await loadMarket((await params).slug);
  if (!market) return { title: "Market not found", robots: { index: false } };
  const origin = await requestOrigin();
  const url = `${origin}${marketPath(market.slug)}`;
  const description = market.description.slice(0, 200);
  const image = {
    url: `${origin}${shareImagePath(market.slug, shareVersion(market))}`,
    width: SHARE_IMAGE.width,
    height: SHARE_IMAGE.height,
    alt: `${market.question} – current probabilities on ${SITE_NAME}`,
    type: "image/png",
  };
  return {
    title: market.question,
    description,
    alternates: {
      canonical: url,
      types: { "application/json+oembed": `${origin}/oembed?url=${encodeURIComponent(url)}&format=json` },
    },
    openGraph: { type: "website", siteName: SITE_NAME, title: market.question, description, url, images: [image] },
    twitter: { card: "summary_large_image", title: market.question, description, images: [image] },
  };
}

export default async function MarketPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const sp = await searchParams;
  const market = await loadMarket(slug);
  if (!market) {
    // The 404 drawn here, not thrown: Next would send its body empty (lib/pages/document-status.ts).
    setDocumentStatus(404);
    return <MarketNotFound />;
  }
  const view = parseMarketView(market, (name) => one(sp[name]));
  const outcomeId = view.outcome;
  const outcome = market.outcomes.find((o) => o.id === outcomeId);
  // The chart's window (to the minute) and the status row's read time (to the second); each reading tells
  // the page cache when it changes (lib/ui/clock.ts), as the comments' ages and the related rows' time left do.
  const nowS = nowMinute();
  const updatedAt = readNow(1000);
  const path = `/markets/${encodeURIComponent(slug)}`;

  // The browser's query keys, filled with reads through lib (memory, not HTTP).
  const queryClient = getQueryClient();
  queryClient.setQueryData(marketDetailOptions(slug).queryKey, market);
  // Book, chart and tape are extras: if one cannot be read (the database is away and memory has none),
  // the page still renders, and the live view fetches it (with its error state and Retry).
  // The header's 24-hour change (day-ago prices of every outcome, so the live view can follow a new
  // leader), the star's state and the embed code; none of it may fail the page.
  const [book, panels, dayAgo, starred, origin] = await Promise.all([
    outcome ? getOrderBook({ slug, outcomeId: outcome.id }).catch(() => undefined) : undefined,
    outcome ? serverPanels({ slug, market, outcome, view, nowS, queryClient }) : undefined,
    getDayAgoPrices(market.outcomes.map((o) => ({ marketId: market.id, outcomeId: o.id }))).catch(() => undefined),
    readWatchlist(),
    requestOrigin(),
  ]);
  const here = marketHref(path, market, view); // where the star's form returns
  const actions = (
    <ShareActions marketId={market.id} starred={starred.includes(market.id)} back={here} embedCode={embedHtml(origin, market.slug, market.question)} />
  );
  const orderBook = book as OrderBook | undefined; // read only when the view has an outcome
  if (outcome && orderBook) queryClient.setQueryData(orderBookOptions(slug, outcome.id).queryKey, orderBook);

  const reads: FirstReads = { market, view, path, updatedAt, book: orderBook, ...panels };

  return (
    <div className="flex flex-col gap-10">
      <LiveSwap slug={slug} data={packPageData(dehydrate(queryClient), reads)} nowS={nowS} dayAgo={dayAgo} actions={actions} />
      <RelatedMarkets market={market} />
    </div>
  );
}
