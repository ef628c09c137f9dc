import Link from "next/link";
import type { MarketDetail } from "@/lib/markets/schemas";
import { formatDateTime, formatFee, formatUsd, formatUsdCompact } from "@/lib/ui/format";
import { titleCase } from "@/lib/ui/title-case";
import { FeaturedMark, MirroredMark, StatusBadge, VerifiedMark } from "@/components/markets/market-status";
import { MarketImage } from "@/components/markets/market-image";
import { MoveBadge } from "@/components/markets/move-badge";
import { moveOf, type DayAgoPrices } from "@/lib/markets/moves";

function Stat({ label, value, testId }: { label: string; value: React.ReactNode; testId: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="tabular text-sm font-semibold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * `dayAgo`: the outcomes' day-ago prices (the 24-hour change of the leading outcome is computed from the
 * market as shown, so the live view's moves with its probabilities); `actions`: the star and embed slot.
 */
export function MarketHeader({ market, dayAgo, actions }: { market: MarketDetail; dayAgo?: DayAgoPrices; actions?: React.ReactNode }) {
  const move = moveOf(market.outcomes, dayAgo);
  const categoryHref = `/?category=${market.category.toLowerCase()}`;
  return (
    <header className="flex flex-col gap-4">
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-600 dark:text-zinc-400">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link href="/" className="rounded hover:text-zinc-900 hover:underline dark:hover:text-white">
              Markets
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link href={categoryHref} className="rounded hover:text-zinc-900 hover:underline dark:hover:text-white" data-testid="market-category">
              {titleCase(market.category)}
            </Link>
          </li>
          {market.sub_category && (
            <>
              <li aria-hidden="true">/</li>
              <li data-testid="market-sub-category">{market.sub_category}</li>
            </>
          )}
        </ol>
      </nav>
      <div className="flex items-start gap-4">
        <MarketImage src={market.image_url} className="size-14 rounded-xl sm:size-[72px]" />
        <div className="min-w-0 flex-1">
          <div className="mb-1.5 flex flex-wrap items-center gap-1.5">
            <StatusBadge status={market.status} />
            {market.featured && <FeaturedMark />}
            {market.external_source && <MirroredMark venue={market.external_source} />}
          </div>
          <h1 className="flex items-start gap-2 text-xl font-semibold leading-tight tracking-tight wrap-anywhere sm:text-2xl">
            <span>{market.question}</span>
            {market.verified && (
              <span className="mt-1">
                <VerifiedMark />
              </span>
            )}
          </h1>
          {actions && <div className="mt-3">{actions}</div>}
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 rounded-xl border border-zinc-200 bg-white p-4 sm:grid-cols-3 lg:grid-cols-6 dark:border-zinc-800 dark:bg-zinc-900">
        <Stat label="Volume" value={`${formatUsdCompact(market.total_volume)} Vol.`} testId="market-volume" />
        <Stat
          label="24h change"
          value={move ? <MoveBadge move={move} withName /> : <span className="font-normal text-zinc-600 dark:text-zinc-400">No trade a day ago</span>}
          testId="market-move"
        />
        <Stat label="Liquidity" value={formatUsd(market.total_liquidity)} testId="market-liquidity" />
        <Stat label="Fee" value={formatFee(market.platform_fee)} testId="market-fee" />
        <Stat
          label="Trading opens"
          value={
            <time dateTime={market.trading_starts_at} suppressHydrationWarning>
              {formatDateTime(market.trading_starts_at)}
            </time>
          }
          testId="market-starts"
        />
        <Stat
          label="Trading closes"
          value={
            <time dateTime={market.trading_ends_at} suppressHydrationWarning>
              {formatDateTime(market.trading_ends_at)}
            </time>
          }
          testId="market-ends"
        />
      </dl>
    </header>
  );
}
