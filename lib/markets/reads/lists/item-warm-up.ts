// The list items of the most traded ACTIVE markets loaded before the port opens (server.ts). A list page
// of any key is a slice of an order kept in memory plus the items it shows (lib/markets/reads/lists/); after a
// start or a deploy every item is a miss, and a crawler's first pass over thousands of keys would load
// them one page at a time: the `wide` mix's first round ran at two thirds of the later ones' speed, with
// the worst p99 of a run (docs/performance.md, "Start-up"). They go in as a page's would (the
// same entries, tags and batched loads, so as fresh as any), most traded last, so that they are the most
// recent in the LRU, up to a share of the cache's budget, and within a deadline: a slow or absent
// database, or a change stream not heard (nothing could be kept), ends it early, never the start. A read
// the database did not answer in time is asked again, twice at most: a start beside a busy database (a
// lock, the trending sweeper catching up after a pause) had stopped at its first timeout and served the
// first crawl cold.
import "server-only";
import type { Sql } from "postgres";
import { withDatabase } from "@/lib/db/breaker";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { marketCache } from "../cache";
import { warmListItems } from "./items";

export interface ItemWarmUpResult {
  /** Items loaded (later ones may have pushed out earlier ones: the size of an item is estimated). */
  items: number;
  /** ACTIVE markets. */
  markets: number;
  /** The response cache's bytes when it returned. */
  bytes: number;
  /** Why it stopped before it was done: the deadline, the change stream, a failed read. */
  stopped: string | null;
  /** Reads asked again after the database did not answer them (in time). */
  retried: number;
  ms: number;
}

export interface ItemWarmUpOptions {
  /** Share of the response cache's budget to fill, 0–1 (0: none). */
  share: number;
  /** Nothing new is asked after this long. */
  deadlineMs: number;
  /** Told of each read about to be asked again: why it failed, and the pause before it is. */
  onRetry?: (why: string, pauseMs: number) => void;
}

/** Markets per step: one statement (lib/markets/reads/lists/items.ts loads at most 500 items in one). */
const STEP = 500;

/** Reads asked again in all, after a pause each, when the database did not answer (a timeout, an outage). */
const RETRIES = 2;
const RETRY_PAUSE_MS = 1_500;

export async function warmUpListItems(sql: Sql, { share, deadlineMs, onRetry }: ItemWarmUpOptions): Promise<ItemWarmUpResult> {
  const started = performance.now();
  const cache = marketCache();
  const result: ItemWarmUpResult = { items: 0, markets: 0, bytes: cache.size.bytes, stopped: null, retried: 0, ms: 0 };
  const target = Math.floor(cache.budgetBytes * Math.min(1, share));
  if (target <= 0) return result;
  const late = () => performance.now() - started > deadlineMs;
  // With replicas the stream is heard once a replica has replayed the position it started at (lib/db/consistency.ts).
  while (!cache.isLive && !late()) await new Promise((resolve) => setTimeout(resolve, 20));
  const stop = (why: string) => {
    result.stopped ??= why;
  };
  const go = () => {
    if (late()) stop("the deadline");
    else if (!cache.isLive) stop("the change stream not heard"); // every read would load and keep nothing
    return result.stopped === null;
  };
  /** `read`'s answer, asked again (RETRIES in all) when the database did not answer; undefined once stopped. */
  const asked = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
    while (go()) {
      try {
        return await read();
      } catch (err) {
        if (!isDatabaseUnavailable(err) || result.retried >= RETRIES) {
          stop(`a failed read (${(err as Error).message})`);
          return undefined;
        }
        result.retried++;
        onRetry?.((err as Error).message, RETRY_PAUSE_MS);
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      }
    }
    return undefined;
  };
  const step = async (markets: { id: string; slug: string }[]) => {
    const done = await asked(async () => {
      await warmListItems(markets);
      return true;
    });
    if (done) result.items += markets.length;
  };
  try {
    // The ranking too: on a cold start (nothing of markets in memory yet) it can outlast a request's deadline.
    const markets = await asked(() =>
      withDatabase(
        () => sql<{ id: string; slug: string }[]>`
        SELECT id, slug FROM markets WHERE status = 'ACTIVE' ORDER BY total_volume DESC, id DESC`,
      ),
    );
    if (markets) {
      result.markets = markets.length;
      // The most traded first, to learn what an item takes; then how many fit, from the least traded of
      // those up, two statements at a time (the database makes one while this process takes in the
      // other); the first again last (from memory), so that the LRU keeps the most traded longest.
      const first = markets.slice(0, STEP);
      const before = cache.size.bytes;
      await step(first);
      const perItem = Math.max(1, (cache.size.bytes - before) / Math.max(1, first.length));
      const count = Math.min(markets.length, first.length + Math.max(0, Math.floor((target - cache.size.bytes) / perItem)));
      const steps: { id: string; slug: string }[][] = [];
      for (let end = count; end > first.length; end -= STEP) steps.push(markets.slice(Math.max(first.length, end - STEP), end));
      let next = 0;
      const worker = async () => {
        while (next < steps.length && go()) await step(steps[next++]);
      };
      await Promise.all([worker(), worker()]);
      if (go()) await warmListItems(first);
    }
  } catch (err) {
    stop(`a failed read (${(err as Error).message})`);
  }
  result.bytes = cache.size.bytes;
  result.ms = Math.round(performance.now() - started);
  return result;
}
