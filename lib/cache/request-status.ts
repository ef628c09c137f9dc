// Which cache answered the reads of the current request, so the HTTP layer can say so (X-Cache, Age)
// without the handlers passing it along, and the Json of each object answer read (lib/cache/representation.ts),
// so that an answer the handler returns as it was read is written from its text, made once. One store per process, shared with the other things a request keeps (lib/request-scope.ts): Next bundles routes apart.
import "server-only";
import { inScope, runInScope } from "@/lib/request-scope";
import type { Json } from "./representation";
import type { CacheResult, CacheStatus } from "./response-cache";

export interface RequestCacheStatus {
  status?: CacheStatus;
  /** Age of the oldest answer used, in seconds. */
  ageS: number;
  /** The Json of every object answer read, in the order read. */
  readonly read: Json[];
}

const RANK: Record<CacheStatus, number> = { HIT: 0, MISS: 1, BYPASS: 2, STALE: 3 };

export function withCacheStatus<T>(fn: () => Promise<T>): { status: RequestCacheStatus; result: Promise<T> } {
  const status: RequestCacheStatus = { ageS: 0, read: [] };
  return { status, result: runInScope("cacheStatus", status, fn) };
}

/** Keeps the worst status of the request (a stale part makes the whole answer stale). */
export function reportCacheResult(result: CacheResult<unknown>) {
  const current = inScope("cacheStatus");
  if (!current) return;
  if (!current.status || RANK[result.status] > RANK[current.status]) current.status = result.status;
  current.ageS = Math.max(current.ageS, result.ageS);
  if (result.json) current.read.push(result.json);
}
