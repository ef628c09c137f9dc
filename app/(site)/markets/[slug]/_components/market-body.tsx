// The market page's layout, shared by the server-rendered page and the live view: header, status row,
// resolution, chart, outcomes, description, comments, book and traders. The parts that differ between
// the two (chart, book, live status) come in as slots; no hooks, so the server renders it as it is.
import type { MarketDetail } from "@/lib/markets/schemas";
import { OutcomeList } from "@/components/markets/outcome-list";
import { TopTraders } from "@/components/markets/top-traders";
import { Comments } from "@/components/markets/comments";
import { MarketHeader } from "./market-header";
import { ResolutionPanel } from "./resolution-panel";
import type { DayAgoPrices } from "@/lib/markets/moves";

export function MarketBody({
  market,
  outcomeId,
  status,
  chart,
  book,
  activity,
  onSelect,
  hrefFor,
  dayAgo,
  actions,
}: {
  market: MarketDetail;
  outcomeId: string | undefined;
  status: React.ReactNode;
  chart: React.ReactNode;
  book: React.ReactNode;
  /** The Activity panel (trade tape), under the book. */
  activity?: React.ReactNode;
  onSelect?: (id: string) => void;
  hrefFor?: (id: string) => string;
  /** The outcomes' day-ago prices (the header's 24-hour change) and the star/embed slot: the server's, in both renders. */
  dayAgo?: DayAgoPrices;
  actions?: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <MarketHeader market={market} dayAgo={dayAgo} actions={actions} />
        <div className="flex justify-end">{status}</div>
      </div>
      <ResolutionPanel market={market} />
      {/* One comments section, placed by the grid: under the outcomes on wide screens, after the book on
          narrow ones (the 1fr row takes whatever height the book adds, so no gap opens above it). */}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_380px] lg:grid-rows-[auto_1fr]">
        <div className="flex min-w-0 flex-col gap-6">
          {chart}
          <OutcomeList outcomes={market.outcomes} selectedId={outcomeId} winningId={market.winning_outcome_id} onSelect={onSelect} hrefFor={hrefFor} />
          {market.description && (
            <section aria-labelledby="about-heading">
              <h2 id="about-heading" className="mb-2 font-semibold">
                About this market
              </h2>
              <p className="whitespace-pre-line text-sm leading-relaxed text-zinc-700 dark:text-zinc-300" data-testid="market-description">
                {market.description}
              </p>
            </section>
          )}
        </div>
        <aside aria-label="Order book and traders" className="flex min-w-0 flex-col gap-6 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          {book}
          {activity}
          <TopTraders traders={market.top_traders} />
        </aside>
        <div className="min-w-0 lg:col-start-1 lg:row-start-2">
          <Comments comments={market.comments} />
        </div>
      </div>
    </div>
  );
}
