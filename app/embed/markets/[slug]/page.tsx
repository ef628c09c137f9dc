// The embeddable card of one market (/embed/markets/{slug}): probabilities, a small 7-day chart and a link
// back, rendered on the server; other sites may frame this route alone (lib/pages/document-security.ts). Kept live by LiveRefresh.
import type { Metadata } from "next";
import { EmbedNotFound } from "@/components/markets/embed-not-found";
import { LiveRefresh } from "@/components/markets/live-refresh";
import { MoveBadge } from "@/components/markets/move-badge";
import { getDayAgoPrices } from "@/lib/markets/reads/follow";
import { getPriceHistory } from "@/lib/markets/reads/history";
import { getMarket } from "@/lib/markets/reads/market";
import { setDocumentStatus } from "@/lib/pages/document-status";
import { requestOrigin } from "@/lib/follow/origin";
import { formatPercent, formatUsdCompact } from "@/lib/ui/format";
import { leadingOutcome, moveOf } from "@/lib/markets/moves";
import { AREA_H, AREA_W, areaPaths } from "@/lib/ui/price-area";
import { marketPath, SITE_NAME } from "@/lib/follow/share";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const market = await getMarket({ slug: (await params).slug });
  return { title: market?.question ?? "Market not found", robots: { index: false } };
}

export default async function EmbedPage({ params }: Props) {
  const { slug } = await params;
  const market = await getMarket({ slug });
  if (!market) {
    // The 404 drawn here, not thrown: Next would send its body empty (lib/pages/document-status.ts).
    setDocumentStatus(404);
    return <EmbedNotFound />;
  }
  const lead = leadingOutcome(market.outcomes);
  const [points, dayAgo, origin] = await Promise.all([
    lead && market.status !== "PENDING"
      ? getPriceHistory({ slug, outcomeId: lead.id, fidelity: 60 }).then(
          (h) => h.history,
          () => [],
        )
      : [],
    lead ? getDayAgoPrices([{ marketId: market.id, outcomeId: lead.id }]).catch(() => undefined) : undefined,
    requestOrigin(),
  ]);
  const top = [...market.outcomes].sort((a, b) => b.probability - a.probability || a.index - b.index).slice(0, 3);
  const paths = points.length > 1 ? areaPaths(points) : null;
  const move = moveOf(market.outcomes, dayAgo);
  const href = `${origin}${marketPath(market.slug)}`;

  return (
    <main className="flex min-h-dvh flex-col gap-3 bg-white p-4 text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100" data-testid="embed-card">
      <h1 className="line-clamp-2 text-base font-semibold leading-snug">
        <a href={href} target="_blank" rel="noopener" className="rounded hover:underline">
          {market.question}
        </a>
      </h1>
      <ul className="flex flex-col gap-1.5 text-sm" aria-label="Probabilities">
        {top.map((o) => (
          <li key={o.id} data-testid="embed-outcome">
            <div className="flex items-baseline justify-between gap-2">
              <span className="truncate">{o.name}</span>
              <span className="tabular font-semibold">{formatPercent(o.probability)}</span>
            </div>
            <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800" aria-hidden="true">
              <div className="h-full bg-indigo-500" style={{ width: `${o.probability}%` }} />
            </div>
          </li>
        ))}
      </ul>
      <div className="relative h-16 min-h-16 flex-1 text-indigo-600 dark:text-indigo-400">
        {paths && (
          <svg
            role="img"
            aria-label={`${lead?.name} over the last 7 days`}
            viewBox={`0 0 ${AREA_W} ${AREA_H}`}
            preserveAspectRatio="none"
            className="absolute inset-0 size-full"
          >
            <path d={paths.area} fill="currentColor" fillOpacity="0.12" />
            <path d={paths.line} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
          </svg>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="tabular">{formatUsdCompact(market.total_volume)} Vol.</span>
        {move && <MoveBadge move={move} withName />}
        <a href={href} target="_blank" rel="noopener" className="ml-auto rounded font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          View on {SITE_NAME} ↗
        </a>
      </div>
      <LiveRefresh slugs={[market.slug]} />
    </main>
  );
}
