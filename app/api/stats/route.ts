// GET /api/stats – what this instance holds in memory, for operators and the benchmarks (npm run
// bench:compare prints it after each run): the response cache's entries and bytes against its budget,
// the lists' in-memory orders (which statuses they keep, against their budget), the list pages kept, the shapes of the packed list items, the process's
// memory. No database, no market data.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { shapeStats } from "@/lib/cache/json-shapes";
import { config } from "@/lib/config";
import { marketCache } from "@/lib/markets/reads/cache";
import { keptPages } from "@/lib/markets/reads/lists/kept-pages";
import { listIndex } from "@/lib/markets/list-index";

export const dynamic = "force-dynamic";

// Event-loop delay since the previous call of this endpoint (started at the first): what stalls every request.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

export function GET() {
  const cache = marketCache();
  const index = listIndex();
  const shapes = shapeStats();
  const pages = keptPages();
  const memory = process.memoryUsage();
  const { CACHE_MAX_MB, LIST_INDEX_MAX_MB } = config();
  const response = Response.json(
    {
      cache: { ...cache.size, mb: mb(cache.size.bytes), budgetMb: CACHE_MAX_MB, live: cache.isLive, ...cache.stats },
      listIndex: { ...index.size, mb: mb(index.size.bytes), budgetMb: LIST_INDEX_MAX_MB, ...index.stats },
      keptPages: { entries: pages.size, bytes: pages.calculatedSize, mb: mb(pages.calculatedSize) },
      jsonShapes: { ...shapes, mb: mb(shapes.bytes) },
      cachesMb: mb(cache.size.bytes + pages.calculatedSize + index.size.bytes + shapes.bytes),
      process: { rssMb: mb(memory.rss), heapUsedMb: mb(memory.heapUsed) },
      eventLoopDelayMs: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
  loop.reset();
  return response;
}
