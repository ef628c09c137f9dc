// Market page: the market (an unknown slug is the 404), the chosen outcome's book and the chart range's
// history are read through lib and rendered here, whole, in the first response (no loading.tsx: see
// load-market.ts), chart included as an SVG. The browser hydrates only LiveSwap, which then loads the
// live view (react-query filled with these same reads, the push channels, the interactive chart).
import type { Metadata } from "next";
import { dehydrate } from "@tanstack/react-query";
import { getOrderBook, getPriceHistory } from "@/lib/markets/cache";
import type { OrderBook, PricePoint } from "@/lib/markets/schemas";
import { getQueryClient } from "@/lib/query/client";
import { marketDetailOptions, orderBookOptions, priceHistoryOptions } from "@/lib/query/markets";
import { marketHistoryRange, nowMinute, parseRange } from "@/lib/ui/chart-ranges";
import { marketHref, selectedOutcomeId } from "@/lib/ui/market-view";
import { OrderBookView } from "@/components/markets/order-book-view";
import { PriceChartFrame } from "@/components/markets/price-chart-frame";
import { loadMarket } from "./_components/load-market";
import { MarketBody } from "./_components/market-body";
import { LiveStatusView } from "./_components/live-status-view";
import { LiveSwap } from "./_components/live-swap";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const market = await loadMarket((await params).slug);
  return { title: market.question, description: market.description.slice(0, 200) };
}

export default async function MarketPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const sp = await searchParams;
  const market = await loadMarket(slug);
  const outcomeId = selectedOutcomeId(market, one(sp.outcome));
  const outcome = market.outcomes.find((o) => o.id === outcomeId);
  const range = parseRange(one(sp.range));
  const nowS = nowMinute();
  const history = marketHistoryRange(range, market.trading_starts_at, nowS);
  const notTradingYet = market.status === "PENDING";
  const path = `/markets/${encodeURIComponent(slug)}`;

  // The browser's query keys, filled with reads through lib (memory, not HTTP). "All" walks back over
  // several requests in the browser, so the server leaves it to the live view.
  const queryClient = getQueryClient();
  queryClient.setQueryData(marketDetailOptions(slug).queryKey, market);
  // Book and history are extras: if either cannot be read (the database is away and memory has none),
  // the page still renders, and the live view fetches them (with its error state and Retry).
  const [book, points] = await Promise.all([
    outcome ? getOrderBook({ slug, outcomeId: outcome.id }).catch(() => undefined) : undefined,
    outcome && !notTradingYet && history.walkBackTo === undefined
      ? getPriceHistory({ slug, outcomeId: outcome.id, startTs: history.startTs, fidelity: history.fidelity }).then(
          (h) => h.history,
          () => undefined,
        )
      : undefined,
  ]);
  if (outcome && book) queryClient.setQueryData(orderBookOptions(slug, outcome.id).queryKey, book as OrderBook);
  if (outcome && points) queryClient.setQueryData(priceHistoryOptions(slug, outcome.id, history).queryKey, points as PricePoint[]);

  return (
    <LiveSwap slug={slug} state={dehydrate(queryClient)} nowS={nowS}>
      <MarketBody
        market={market}
        outcomeId={outcomeId}
        status={<LiveStatusView slug={slug} status="connecting" updatedAt={Date.now()} fetching={false} />}
        chart={
          outcome && (
            <PriceChartFrame
              outcomeName={outcome.name}
              range={range}
              points={points ?? []}
              pending={!points && !notTradingYet}
              notTradingYet={notTradingYet}
              empty={points?.length === 0}
              rangeHref={(r) => marketHref(path, market, { outcome: outcome.id, range: r })}
            />
          )
        }
        book={outcome && <OrderBookView outcomeName={outcome.name} venue={market.external_source} book={book} />}
        hrefFor={(id) => marketHref(path, market, { outcome: id, range })}
      />
    </LiveSwap>
  );
}
