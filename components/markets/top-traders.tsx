import type { MarketDetail } from "@/lib/markets/schemas";
import { formatUsd } from "@/lib/ui/format";
import { Avatar } from "./avatar";

export function TopTraders({ traders }: { traders: MarketDetail["top_traders"] }) {
  return (
    <section aria-labelledby="traders-heading" className="rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <h2 id="traders-heading" className="border-b border-zinc-200 px-4 py-3 font-semibold dark:border-zinc-800">
        Top traders
      </h2>
      {traders.length === 0 ? (
        <p className="px-4 py-6 text-center text-sm text-zinc-600 dark:text-zinc-400">No trades yet.</p>
      ) : (
        <ol className="divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="top-traders">
          {traders.map((t, i) => (
            <li key={t.username} className="flex items-center gap-3 px-4 py-2 text-sm">
              <span className="w-5 text-right tabular text-zinc-500 dark:text-zinc-400">{i + 1}</span>
              <Avatar src={t.profile_image_url} name={t.username} size={28} />
              <span className="min-w-0 flex-1 truncate font-medium">{t.username}</span>
              <span className="tabular text-zinc-700 dark:text-zinc-300">{formatUsd(t.volume)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
