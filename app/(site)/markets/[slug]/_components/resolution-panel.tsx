import type { MarketDetail } from "@/lib/markets/schemas";
import { formatDateTime } from "@/lib/ui/format";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
      <dt className="w-32 shrink-0 text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 break-words font-medium">{children}</dd>
    </div>
  );
}

const isHttp = (s: string) => /^https?:\/\//i.test(s);

/** Outcome of a settled market, or the state of one that is not trading (PENDING, LOCKED). */
export function ResolutionPanel({ market }: { market: MarketDetail }) {
  if (market.status === "PENDING") {
    return (
      <section
        role="status"
        data-testid="market-state"
        className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950/40"
      >
        <h2 className="font-semibold">Not yet trading</h2>
        <p className="mt-1">
          Trading opens{" "}
          <time dateTime={market.trading_starts_at} suppressHydrationWarning>
            {formatDateTime(market.trading_starts_at)}
          </time>
          . Prices and the book fill in once it does.
        </p>
      </section>
    );
  }
  if (market.status === "LOCKED") {
    return (
      <section
        role="status"
        data-testid="market-state"
        className="rounded-xl border border-violet-300 bg-violet-50 p-4 text-sm dark:border-violet-800 dark:bg-violet-950/40"
      >
        <h2 className="font-semibold">Trading closed</h2>
        <p className="mt-1">
          Trading ended{" "}
          <time dateTime={market.trading_ends_at} suppressHydrationWarning>
            {formatDateTime(market.trading_ends_at)}
          </time>
          . The market is waiting for its result; the last prices stay visible.
        </p>
      </section>
    );
  }
  if (market.status !== "RESOLVED" && market.status !== "CANCELLED") return null;
  const resolved = market.status === "RESOLVED";
  return (
    <section
      aria-labelledby="resolution-heading"
      data-testid="resolution-panel"
      className={
        resolved
          ? "rounded-xl border border-sky-300 bg-sky-50 p-4 text-sm dark:border-sky-800 dark:bg-sky-950/40"
          : "rounded-xl border border-rose-300 bg-rose-50 p-4 text-sm dark:border-rose-800 dark:bg-rose-950/40"
      }
    >
      <h2 id="resolution-heading" className="mb-3 text-base font-semibold">
        {resolved ? (
          <>
            Resolved: <span data-testid="winning-outcome">{market.winning_outcome?.name ?? "–"}</span>
          </>
        ) : (
          "Market cancelled"
        )}
      </h2>
      <dl className="flex flex-col gap-2">
        {resolved && <Row label="Winning outcome">{market.winning_outcome?.name ?? "–"}</Row>}
        {market.resolved_at && (
          <Row label="Resolved">
            <time dateTime={market.resolved_at} suppressHydrationWarning>
              {formatDateTime(market.resolved_at)}
            </time>
          </Row>
        )}
        {market.resolved_by && (
          <Row label="Resolved by">
            <span data-testid="resolved-by">{market.resolved_by}</span>
          </Row>
        )}
        {market.resolution_source && (
          <Row label="Source">
            {isHttp(market.resolution_source) ? (
              <a
                href={market.resolution_source}
                rel="noopener noreferrer nofollow"
                target="_blank"
                className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
              >
                {market.resolution_source}
              </a>
            ) : (
              market.resolution_source
            )}
          </Row>
        )}
        {market.resolution_note && (
          <Row label="Note">
            <span data-testid="resolution-note">{market.resolution_note}</span>
          </Row>
        )}
        {market.settled_at && (
          <Row label="Settled">
            <time dateTime={market.settled_at} suppressHydrationWarning>
              {formatDateTime(market.settled_at)}
            </time>
          </Row>
        )}
      </dl>
    </section>
  );
}
