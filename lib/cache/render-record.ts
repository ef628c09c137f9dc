// What a page render depends on, gathered while it runs, so that the page cache (lib/pages/page-cache.ts)
// keeps the rendered HTML exactly as long as everything it shows holds: the tags of every cache entry it
// read, the earliest instant one of them or the clock changes what it shows, and whether it read
// anything that must not be reused (a stale or uncached answer, a failed read). Outside a recorded render
// every call here does nothing. One store per process (lib/request-scope.ts): server.ts opens it around
// Next's handler, the reads of lib/markets/reads/ inside Next's bundles fill it.
import "server-only";
import { shared } from "@/lib/process-state";
import { inScope, runInScope } from "@/lib/request-scope";
import type { CacheResult } from "./response-cache";

export interface RenderRecord {
  /**
   * The tags of what the render read, each added before its read starts: this array is the tags of the
   * render's own cache load, so an invalidation of any of them while the render runs keeps it from being stored.
   */
  readonly tags: string[];
  /** Unix ms when something shown changes without an announcement (an entry's expiry, a clock reading). */
  expiresAt: number;
  /** Set when the render must not be reused, saying why. */
  unfit?: string;
  /**
   * What must still hold for the render to be shown again, asked before each reuse: for what no tag
   * names, like a list's slice of an in-memory order (lib/markets/reads/). False or a failure: render anew.
   */
  readonly checks: (() => Promise<boolean>)[];
}

export const newRenderRecord = (): RenderRecord => ({ tags: [], expiresAt: Infinity, checks: [] });

/** Runs `render` with `record` collecting what it reads. */
export function recordingRender<T>(record: RenderRecord, render: () => T): T {
  return runInScope("renderRecord", record, render);
}

/** Before a read: the tags of the entry it will show. */
export function recordTags(tags: readonly string[]) {
  const record = inScope("renderRecord");
  if (!record) return;
  for (const tag of tags) if (!record.tags.includes(tag)) record.tags.push(tag);
}

/** After a read that no tag covers: what must still hold for the render to be shown again (`check()` makes it, in a recorded render only). */
export function recordCheck(check: () => () => Promise<boolean>) {
  inScope("renderRecord")?.checks.push(check());
}

/** After a read: until when its answer holds, and whether it may be shown again at all. */
export function recordResult(result: CacheResult<unknown>) {
  const record = inScope("renderRecord");
  if (!record) return;
  // STALE: served for an outage, already outdated. BYPASS: read while the cache hears no invalidations.
  if (result.status === "STALE" || result.status === "BYPASS") record.unfit ??= `a ${result.status} read`;
  record.expiresAt = Math.min(record.expiresAt, result.expiresAt);
}

/** A read failed (the page shows its absence) or read around the cache: this render is not to be kept. */
export function recordUnfit(why: string) {
  const record = inScope("renderRecord");
  if (record) record.unfit ??= why;
}

/**
 * The render shows a clock reading (a time, a relative time, a time left) that reads differently from `at`
 * (Unix ms). The display helpers that read the clock call it themselves (lib/ui/clock.ts).
 */
export function recordClock(at: number) {
  const record = inScope("renderRecord");
  if (record) record.expiresAt = Math.min(record.expiresAt, at);
}
shared("clockReading", () => recordClock);
