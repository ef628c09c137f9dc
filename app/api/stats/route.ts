// GET /api/stats – what this instance holds in memory, for operators and the benchmarks (npm run
// bench:compare prints it after each run): the response cache's entries and bytes against its budget,
// the lists' in-memory orders, the process's memory. No database, no market data.
import { config } from "@/lib/config";
import { marketCache } from "@/lib/markets/cache";
import { listIndex } from "@/lib/markets/list-index";

export const dynamic = "force-dynamic";

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export function GET() {
  const cache = marketCache();
  const index = listIndex();
  const memory = process.memoryUsage();
  const { CACHE_MAX_MB } = config();
  return Response.json(
    {
      cache: { ...cache.size, mb: mb(cache.size.bytes), budgetMb: CACHE_MAX_MB, live: cache.isLive, ...cache.stats },
      listIndex: { ...index.size, mb: mb(index.size.bytes), ...index.stats },
      cachesMb: mb(cache.size.bytes + index.size.bytes),
      process: { rssMb: mb(memory.rss), heapUsedMb: mb(memory.heapUsed) },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
