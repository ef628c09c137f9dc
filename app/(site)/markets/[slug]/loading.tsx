// The market page's shape while its data is on the way: header, stats, chart, outcomes, book and traders.
import { Skeleton } from "@/components/ui/skeleton";

const card = "rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900";

export default function MarketLoading() {
  return (
    <div aria-busy="true" className="flex flex-col gap-6">
      <p role="status" className="sr-only">
        Loading market
      </p>
      <div className="flex flex-col gap-4">
        <Skeleton className="h-4 w-40" />
        <div className="flex items-start gap-4">
          <Skeleton className="size-14 shrink-0 rounded-xl sm:size-[72px]" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-5 w-20 rounded-full" />
            <Skeleton className="h-6 w-full max-w-2xl" />
            <Skeleton className="h-6 w-2/3 max-w-md" />
          </div>
        </div>
        <div className={`grid grid-cols-2 gap-x-6 gap-y-3 p-4 sm:grid-cols-3 lg:grid-cols-5 ${card}`}>
          {Array.from({ length: 5 }, (_, i) => (
            <div key={i} className="space-y-1.5">
              <Skeleton className="h-3 w-16" />
              <Skeleton className="h-4 w-24" />
            </div>
          ))}
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_380px]">
        <div className="flex min-w-0 flex-col gap-6">
          <div className={`p-4 ${card}`}>
            <div className="flex justify-between gap-3">
              <Skeleton className="h-10 w-32" />
              <Skeleton className="h-7 w-56" />
            </div>
            <Skeleton className="mt-3 h-56 w-full sm:h-72" />
          </div>
          <div className="flex flex-col gap-2">
            <Skeleton className="mb-1 h-5 w-24" />
            {Array.from({ length: 2 }, (_, i) => (
              <Skeleton key={i} className="h-12 w-full rounded-lg" />
            ))}
          </div>
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <div className={`space-y-2 p-4 ${card}`}>
            <Skeleton className="mb-3 h-5 w-40" />
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} className="h-5 w-full" />
            ))}
          </div>
          <div className={`space-y-2 p-4 ${card}`}>
            <Skeleton className="mb-3 h-5 w-28" />
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} className="h-5 w-full" />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
