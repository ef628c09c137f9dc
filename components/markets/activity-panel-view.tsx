// The Activity panel, shared by the server-rendered page and the live view: the trade tape of the chosen
// outcome (or of every outcome), newest first, in a box of fixed height that scrolls, "Load older" under
// it, and a polite live region that sums up what arrived. Rows have one fixed height and are placed with
// transforms, so a trade added on top moves no box anywhere (CLS 0): only the rows' transforms change.
// No hooks: the first view draws it from the server's reads (market-first.tsx), the live view from react-query's.
import type { Outcome, Trade } from "@/lib/markets/schemas";
import type { TapeScope } from "@/lib/ui/market-view";
import { formatCents, formatShares } from "@/lib/ui/format";
import { outcomeColor } from "@/lib/ui/outcome-color";
import { cn } from "@/lib/ui/cn";
import { Button } from "@/components/ui/button";

/** Height of a row in px (two lines of text). */
export const TAPE_ROW_H = 44;
/** The columns of .tape-row (app/globals.css), for the heads above the rows. */
const COLUMNS = "grid grid-cols-[4.25rem_minmax(0,1fr)_minmax(0,0.9fr)_minmax(0,1.1fr)] gap-x-2 px-4";

const time = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

function TradeRow({ trade, outcome, index }: { trade: Trade; outcome?: Pick<Outcome, "name" | "color" | "index">; index: number }) {
  const at = new Date(trade.executed_at);
  // Laid out by .tape-row (app/globals.css); each row reads as one sentence ("… at 55.0¢, 10.00 shares …").
  return (
    <li className="tape-row" data-trade={trade.id} style={{ transform: `translateY(${index * TAPE_ROW_H}px)` }}>
      <span>
        <time dateTime={trade.executed_at} suppressHydrationWarning>
          {time.format(at)}
        </time>
        <small suppressHydrationWarning>{day.format(at)}</small>
      </span>
      <span>
        <span>
          {outcome && <i aria-hidden="true" style={{ background: outcomeColor(outcome) }} />}
          {outcome?.name ?? "–"}
        </span>
        <b>
          <span className="sr-only">at </span>
          {formatCents(trade.price)}
        </b>
      </span>
      <span>
        <span>
          {formatShares(trade.shares)}
          <span className="sr-only"> shares</span>
        </span>
        <small>{usd.format(Number(trade.notional))}</small>
      </span>
      <span>
        <span>
          <span className="sr-only">maker </span>
          {trade.maker?.username ?? "–"}
        </span>
        <small>
          <span aria-hidden="true">→ </span>
          <span className="sr-only">taker </span>
          {trade.taker?.username ?? "–"}
        </small>
      </span>
    </li>
  );
}

export interface ActivityPanelViewProps {
  trades: Trade[];
  outcomes: Pick<Outcome, "id" | "name" | "color" | "index">[];
  scope: TapeScope;
  /** The chosen outcome's name (the first scope's label). */
  outcomeName: string;
  /** Older trades exist (the tape has a before-cursor). */
  hasOlder: boolean;
  loadingOlder?: boolean;
  onLoadOlder?: () => void;
  onScopeChange?: (s: TapeScope) => void;
  /** The page's URL with this scope (data-href: a click before the live view is in still counts, live-swap.tsx). */
  scopeHref?: (s: TapeScope) => string;
  /** What the polite live region says (live view: "3 new trades"). */
  announcement?: string;
  pending?: boolean;
  stale?: boolean;
  error?: { onRetry: () => void } | null;
  /** The scrolling box (the live view keeps the reader's place in it when trades arrive on top). */
  listRef?: React.Ref<HTMLDivElement>;
}

export function ActivityPanelView(props: ActivityPanelViewProps) {
  const { trades, scope, onScopeChange, hasOlder, loadingOlder } = props;
  const byId = new Map(props.outcomes.map((o) => [o.id, o]));
  const scopes: [TapeScope, string][] = [
    ["outcome", `${props.outcomeName} only`],
    ["all", "All outcomes"],
  ];
  return (
    <section
      aria-labelledby="activity-heading"
      data-testid="activity-panel"
      className="rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 px-4 pt-4 pb-3">
        <h2 id="activity-heading" className="font-semibold">
          Activity
        </h2>
        <div role="group" aria-label="Trades of" className="flex rounded-lg bg-zinc-100 p-0.5 dark:bg-zinc-800">
          {scopes.map(([s, label]) => (
            <button
              key={s}
              type="button"
              aria-pressed={s === scope}
              data-href={props.scopeHref?.(s)}
              onClick={onScopeChange && (() => onScopeChange(s))}
              className={cn(
                "max-w-48 truncate rounded-md px-2.5 py-1 text-xs font-semibold",
                s === scope
                  ? "bg-white text-zinc-900 shadow-sm dark:bg-zinc-950 dark:text-white"
                  : "text-zinc-600 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-white",
              )}
            >
              {label}
            </button>
          ))}
        </div>
      </div>
      {/* The box keeps its height whatever it holds: the column heads, then seven rows' room. It scrolls,
          so it takes the focus (arrow keys scroll it). Each row reads as one sentence; the heads are for the eye. */}
      <div
        ref={props.listRef}
        role="region"
        aria-label={scope === "all" ? "Trades of all outcomes, newest first" : `Trades of ${props.outcomeName}, newest first`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable from the keyboard to be scrolled (axe scrollable-region-focusable)
        tabIndex={0}
        className="relative overflow-y-auto border-t border-zinc-200 dark:border-zinc-800"
        style={{ height: 8 * TAPE_ROW_H }}
        data-testid="activity-list"
      >
        <div
          aria-hidden="true"
          className={cn(
            COLUMNS,
            "sticky top-0 z-10 h-11 content-center border-b border-zinc-200 bg-white text-[11px] font-medium text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400",
          )}
        >
          <span>Time</span>
          <span>Outcome</span>
          <span className="text-right">Shares</span>
          <span>Maker → Taker</span>
        </div>
        <ol className={cn("relative", props.stale && "opacity-60")} data-testid="trade-rows" style={{ height: trades.length * TAPE_ROW_H }}>
          {trades.map((t, i) => (
            <TradeRow key={t.id} trade={t} outcome={byId.get(t.outcome_id)} index={i} />
          ))}
        </ol>
        {trades.length === 0 && !props.pending && !props.error && (
          <p
            className="absolute inset-x-0 top-11 bottom-0 flex items-center justify-center text-sm text-zinc-600 dark:text-zinc-400"
            data-testid="activity-empty"
          >
            No trades yet
          </p>
        )}
        {props.error && (
          <div role="alert" className="absolute inset-x-0 top-11 bottom-0 flex flex-col items-center justify-center gap-2 text-sm">
            <p>Couldn’t load the trades.</p>
            <Button size="sm" onClick={props.error.onRetry}>
              Retry
            </Button>
          </div>
        )}
        {props.pending && <div aria-hidden="true" className="absolute inset-x-0 top-11 bottom-0 animate-pulse bg-zinc-100 dark:bg-zinc-800/60" />}
      </div>
      <div className="flex h-14 items-center justify-between gap-3 border-t border-zinc-200 px-4 dark:border-zinc-800">
        {/* One button whatever the state (never removed, so it keeps the focus of a keyboard reader). */}
        <Button
          size="sm"
          aria-disabled={!hasOlder || loadingOlder || undefined}
          className={cn((!hasOlder || loadingOlder) && "cursor-not-allowed")}
          onClick={props.onLoadOlder}
          data-testid="load-older"
        >
          {loadingOlder ? "Loading older trades…" : hasOlder ? "Load older trades" : "No older trades"}
        </Button>
        <p role="status" className="sr-only" data-testid="activity-announcement">
          {props.announcement}
        </p>
      </div>
    </section>
  );
}
