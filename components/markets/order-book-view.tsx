// The order book of one outcome as a price ladder: asks above, bids below, spread and midpoint between.
// No hooks: the server renders it with the book it read, the live view with react-query's.
import type { OrderBook } from "@/lib/markets/schemas";
import { buildLadder, type LadderRow } from "@/lib/ui/ladder";
import { formatCents, formatShares } from "@/lib/ui/format";
import { cn } from "@/lib/ui/cn";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";

function Row({ row, side, max }: { row: LadderRow; side: "ask" | "bid"; max: number }) {
  const width = max > 0 ? (row.cumulative / max) * 100 : 0;
  return (
    <tr
      data-testid={`${side}-row`}
      className={cn(
        "text-sm tabular",
        side === "ask" ? "[--bar:rgb(244_63_94/0.13)] dark:[--bar:rgb(244_63_94/0.2)]" : "[--bar:rgb(16_185_129/0.13)] dark:[--bar:rgb(16_185_129/0.2)]",
      )}
      // Depth bar: cumulative shares relative to the deepest side, drawn from the right edge.
      style={{ backgroundImage: `linear-gradient(to left, var(--bar) ${width}%, transparent ${width}%)` }}
    >
      <td className={cn("py-1 pl-3 font-semibold", side === "ask" ? "text-rose-700 dark:text-rose-400" : "text-emerald-700 dark:text-emerald-400")}>
        {formatCents(row.price)}
      </td>
      <td className="py-1 text-right">{formatShares(row.shares)}</td>
      <td className="py-1 pr-3 text-right text-zinc-600 dark:text-zinc-400">{formatShares(row.cumulative)}</td>
    </tr>
  );
}

/** A full-width row of the ladder: an empty side says so, a cut side says how many levels are not shown. */
function NoteRow({ empty, children }: { empty?: boolean; children: React.ReactNode }) {
  return (
    <tr>
      <td
        colSpan={3}
        className={empty ? "px-3 py-4 text-center text-sm text-zinc-600 dark:text-zinc-400" : "px-3 py-1 text-xs text-zinc-500 dark:text-zinc-400"}
      >
        {children}
      </td>
    </tr>
  );
}

/** One figure of the spread row, a dash while a side is empty. */
function Figure({ label, testId, cents }: { label: string; testId: string; cents: number | undefined }) {
  return (
    <span>
      {label}{" "}
      <strong data-testid={testId} className="font-semibold">
        {cents !== undefined ? formatCents(cents) : "–"}
      </strong>
    </span>
  );
}

export function OrderBookView({
  outcomeName,
  venue,
  book,
  stale,
  error,
  replay,
}: {
  outcomeName: string;
  venue: string | null;
  book: OrderBook | undefined;
  stale?: boolean;
  error?: { message: string; onRetry: () => void } | null;
  /**
   * The Replay toggle (the server renders it disabled, the live view with `onToggle`), the replay
   * controls under the heading while on, and the ladder's height to hold meanwhile (px).
   */
  replay?: { on: boolean; onToggle?: () => void; controls?: React.ReactNode; minHeight?: number };
}) {
  const ladder = book ? buildLadder(book) : null;

  return (
    <section aria-labelledby="book-heading" className="rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 id="book-heading" className="font-semibold">
          Order book <span className="font-normal text-zinc-600 dark:text-zinc-400">· {outcomeName}</span>
        </h2>
        {/* Rendered by the server too (disabled until the live view is in), so its height is there from the first paint. */}
        <Button
          size="sm"
          variant={replay?.on ? "primary" : "secondary"}
          className="h-7 text-xs"
          aria-pressed={replay?.on ?? false}
          disabled={!replay?.onToggle}
          onClick={replay?.onToggle}
          data-testid="replay-toggle"
        >
          Replay
        </Button>
        {venue && (
          <p data-testid="book-venue" className="w-full text-xs text-zinc-600 dark:text-zinc-400">
            Book mirrored from {venue}
          </p>
        )}
      </div>
      {replay?.on && replay.controls}
      <div style={replay?.on && replay.minHeight ? { minHeight: replay.minHeight } : undefined} data-testid="book-body">
        {error && !book ? (
          <div role="alert" className="flex flex-col items-center gap-2 px-4 py-8 text-center text-sm">
            <p>Couldn’t load the order book: {error.message}</p>
            <Button size="sm" onClick={error.onRetry}>
              Retry
            </Button>
          </div>
        ) : !ladder ? (
          <div className="space-y-2 p-4" aria-busy="true">
            <p role="status" className="sr-only">
              Loading order book
            </p>
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} className="h-5 w-full" />
            ))}
          </div>
        ) : (
          <div className={cn("overflow-hidden", stale && "opacity-60")}>
            <table className="w-full border-collapse" data-testid="order-book">
              <caption className="sr-only">Order book for {outcomeName}: asks above the spread, bids below</caption>
              <thead>
                <tr className="text-xs uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
                  <th scope="col" className="py-2 pl-3 text-left font-medium">
                    Price
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Shares
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody data-testid="asks">
                {ladder.hiddenAsks > 0 && <NoteRow>+{ladder.hiddenAsks} higher asks</NoteRow>}
                {ladder.asks.length === 0 ? (
                  <NoteRow empty>No asks – nobody is selling {outcomeName} right now</NoteRow>
                ) : (
                  ladder.asks.map((r) => <Row key={r.price} row={r} side="ask" max={ladder.maxCumulative} />)
                )}
              </tbody>
              <tbody>
                <tr
                  data-testid="spread-row"
                  className="border-y border-zinc-200 bg-zinc-50 text-xs text-zinc-700 dark:border-zinc-800 dark:bg-zinc-950/60 dark:text-zinc-300"
                >
                  <td colSpan={3} className="px-3 py-1.5">
                    <div className="flex justify-between gap-2 tabular">
                      <Figure label="Spread" testId="spread" cents={ladder.spread} />
                      <Figure label="Midpoint" testId="midpoint" cents={ladder.midpoint} />
                    </div>
                  </td>
                </tr>
              </tbody>
              <tbody data-testid="bids">
                {ladder.bids.length === 0 ? (
                  <NoteRow empty>No bids – nobody is buying {outcomeName} right now</NoteRow>
                ) : (
                  ladder.bids.map((r) => <Row key={r.price} row={r} side="bid" max={ladder.maxCumulative} />)
                )}
                {ladder.hiddenBids > 0 && <NoteRow>+{ladder.hiddenBids} lower bids</NoteRow>}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
