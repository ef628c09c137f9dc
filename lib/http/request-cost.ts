// What a /v1 request costs in rate-limit tokens (docs/api.md "Batches"): a batch read costs one token
// per distinct id it names (`outcomeIds`, however many times given, at most BATCH_MAX_IDS), so 50 books
// in one request cost as much as 50 requests; a preflight costs nothing; anything else one.
import { BATCH_MAX_IDS } from "@/lib/markets/constants";

export function requestCost(method: string | undefined, url: string | undefined): number {
  if (method === "OPTIONS") return 0;
  const q = url?.indexOf("?") ?? -1;
  if (q < 0 || !url) return 1;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(url.slice(q + 1));
  } catch {
    return 1;
  }
  const ids = new Set<string>();
  for (const value of params.getAll("outcomeIds")) {
    for (const id of value.split(",")) {
      const trimmed = id.trim().toLowerCase();
      if (trimmed) ids.add(trimmed);
    }
  }
  return Math.max(1, Math.min(ids.size, BATCH_MAX_IDS));
}
