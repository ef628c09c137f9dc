// Which cache answered the reads of the current request, so the HTTP layer can say so (X-Cache, Age)
// without the handlers passing it along. One store per process (lib/process-state.ts): Next bundles routes apart.
import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { shared } from "@/lib/process-state";
import type { CacheResult, CacheStatus } from "./response-cache";

export interface RequestCacheStatus {
  status?: CacheStatus;
  /** Age of the oldest answer used, in seconds. */
  ageS: number;
}

const RANK: Record<CacheStatus, number> = { HIT: 0, MISS: 1, BYPASS: 2, STALE: 3 };
const store = shared("cacheStatus", () => new AsyncLocalStorage<RequestCacheStatus>());

export function withCacheStatus<T>(fn: () => Promise<T>): { status: RequestCacheStatus; result: Promise<T> } {
  const status: RequestCacheStatus = { ageS: 0 };
  return { status, result: store.run(status, fn) };
}

/** Keeps the worst status of the request (a stale part makes the whole answer stale). */
export function reportCacheResult(result: CacheResult<unknown>) {
  const current = store.getStore();
  if (!current) return;
  if (!current.status || RANK[result.status] > RANK[current.status]) current.status = result.status;
  current.ageS = Math.max(current.ageS, result.ageS);
}
