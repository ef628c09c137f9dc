// One market in the list: image, question, category, leading outcome or Yes/No chances, volume, time and marks.
import Link from "next/link";
import type { MarketListItem, Outcome } from "@/lib/markets/schemas";
import { formatDate, formatPercent, formatTimeLeft, formatUsdCompact } from "@/lib/ui/format";
import { titleCase } from "@/lib/ui/title-case";
import { FeaturedMark, MirroredMark, StatusBadge, VerifiedMark } from "./market-status";
import { Opening } from "./market-card-opening";
import type { Move } from "@/lib/markets/moves";
import { MarketImage } from "./market-image";
import { MoveBadge } from "./move-badge";
import { StarForm } from "./star-form";

const CARD_FIELDS = [
  "id",
  "slug",
  "question",
  "category",
  "sub_category",
  "type",
  "status",
  "trading_starts_at",
  "trading_ends_at",
  "resolved_at",
  "settled_at",
  "updated_at",
  "image_url",
  "verified",
  "featured",
  "external_source",
  "total_volume",
] as const satisfies readonly (keyof MarketListItem)[];

/** What a card shows of a market: a list item has it all; a client component drawing cards gets just this. */
export type CardMarket = Pick<MarketListItem, (typeof CARD_FIELDS)[number]> & {
  outcomes: Pick<Outcome, "id" | "name" | "index" | "probability">[];
  winning_outcome: Pick<Outcome, "name"> | null;
};

/** The fields of `m` a card shows, for a client component's props (no description, tags or on-chain ids). */
export function cardMarket(m: MarketListItem): CardMarket {
  const card = Object.fromEntries(CARD_FIELDS.map((k) => [k, m[k]])) as Pick<MarketListItem, (typeof CARD_FIELDS)[number]>;
  return {
    ...card,
    outcomes: m.outcomes.map(({ id, name, index, probability }) => ({ id, name, index, probability })),
    winning_outcome: m.winning_outcome && { name: m.winning_outcome.name },
  };
}

function byProbability(m: CardMarket) {
  return [...m.outcomes].sort((a, b) => b.probability - a.probability || a.index - b.index);
}

function Chances({ market }: { market: CardMarket }) {
  if (market.type === "BINARY" && market.outcomes.length === 2) {
    const [yes, no] = [...market.outcomes].sort((a, b) => a.index - b.index);
    return (
      <div data-testid="chances">
        <div className="flex items-baseline justify-between text-sm">
          <span className="font-medium text-emerald-700 dark:text-emerald-400">
            {yes.name} {formatPercent(yes.probability)}
          </span>
          <span className="font-medium text-rose-700 dark:text-rose-400">
            {no.name} {formatPercent(no.probability)}
          </span>
        </div>
        <div className="mt-1.5 flex h-1.5 overflow-hidden rounded-full bg-rose-200 dark:bg-rose-900/60" aria-hidden="true">
          <div className="bg-emerald-500" style={{ width: `${yes.probability}%` }} />
        </div>
      </div>
    );
  }
  const [lead, ...rest] = byProbability(market);
  if (!lead) return null;
  return (
    <div data-testid="leading-outcome" className="text-sm">
      <div className="flex items-baseline justify-between gap-2">
        <span className="truncate font-medium">{lead.name}</span>
        <span className="tabular font-semibold text-indigo-700 dark:text-indigo-300">{formatPercent(lead.probability)}</span>
      </div>
      <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800" aria-hidden="true">
        <div className="h-full bg-indigo-500" style={{ width: `${lead.probability}%` }} />
      </div>
      {rest.length > 0 && (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          +{rest.length} more outcome{rest.length > 1 ? "s" : ""}
        </p>
      )}
    </div>
  );
}

// Dates in the reader's time zone: where a client component renders them (the market page's related
// rows), the browser's day may differ from the server's, and hydration keeps the server's text.
export function When({ market }: { market: CardMarket }) {
  if (market.status === "RESOLVED") {
    return (
      <span suppressHydrationWarning>
        Resolved{market.winning_outcome ? `: ${market.winning_outcome.name}` : ""} · {formatDate(market.resolved_at ?? market.updated_at)}
      </span>
    );
  }
  if (market.status === "CANCELLED") return <span suppressHydrationWarning>Cancelled · {formatDate(market.settled_at ?? market.updated_at)}</span>;
  if (market.status === "PENDING") return <span suppressHydrationWarning>Opens {formatDate(market.trading_starts_at)}</span>;
  return (
    <time dateTime={market.trading_ends_at} suppressHydrationWarning>
      {formatTimeLeft(market.trading_ends_at)}
    </time>
  );
}

/** The card's anchor: the star's form returns here (`back#…`), so a reader without JavaScript keeps their place. */
export const cardAnchor = (slug: string) => `card-${slug}`;

/**
 * `star`: the watchlist star, starred or not, and the page the form returns to (the card's anchor is
 * added); absent, no star. `move`: the leading outcome's 24-hour change; null or absent, none shown.
 */
export function MarketCard({ market, star, move }: { market: CardMarket; star?: { on: boolean; back: string }; move?: Move | null }) {
  return (
    <article
      id={cardAnchor(market.slug)}
      data-testid="market-card"
      className="group relative flex min-w-0 scroll-mt-20 flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 shadow-sm transition hover:border-zinc-300 hover:shadow-md focus-within:ring-2 focus-within:ring-indigo-500 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-zinc-700 wrap-anywhere"
    >
      <div className="flex items-start gap-3">
        <MarketImage src={market.image_url} className="size-12 rounded-lg" />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-1.5 text-xs font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
            <span>{titleCase(market.category)}</span>
            {market.sub_category && (
              <>
                <span aria-hidden="true">·</span>
                <span className="normal-case tracking-normal">{market.sub_category}</span>
              </>
            )}
          </p>
          <h3 className="mt-0.5 line-clamp-3 font-semibold leading-snug">
            <Link href={`/markets/${market.slug}`} className="rounded outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']">
              {market.question}
              <Opening />
            </Link>
          </h3>
        </div>
        {market.verified && <VerifiedMark />}
        {star && <StarForm marketId={market.id} starred={star.on} back={`${star.back}#${cardAnchor(market.slug)}`} label={`Star: ${market.question}`} />}
      </div>
      <Chances market={market} />
      <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="tabular font-medium text-zinc-800 dark:text-zinc-200">{formatUsdCompact(market.total_volume)} Vol.</span>
        {move && <MoveBadge move={move} withName />}
        <When market={market} />
        <span className="ml-auto flex flex-wrap items-center gap-1.5">
          {market.featured && <FeaturedMark />}
          <StatusBadge status={market.status} />
        </span>
      </div>
      {market.external_source && (
        <div className="-mt-1">
          <MirroredMark venue={market.external_source} />
        </div>
      )}
    </article>
  );
}

/** An item of a grid of cards (list, watchlist): the card stretches to its row's height. */
export function CardCell({ children }: { children: React.ReactNode }) {
  return (
    <li className="flex">
      <div className="flex w-full flex-col [&>article]:flex-1">{children}</div>
    </li>
  );
}
