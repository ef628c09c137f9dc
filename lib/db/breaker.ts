// A circuit breaker in front of the database: after a failed connection every request answers 503 at
// once, and one probe per interval (not one connect per request) finds out when the database is back.
// One breaker per process (lib/process-state.ts): server.ts and the route handlers Next bundles separately share its state.
import "server-only";
import { config } from "@/lib/config";
import { isErrorOf, shared } from "@/lib/process-state";
import { db, type ReadAttempt, recordReads, replicaUp } from "./client";
import { connectTimeoutS, requestDeadlineMs } from "./bounds";
import { DatabaseUnavailableError, isConnectionFailure, isDatabaseUnavailable, isLostSession, isReplicaFailure } from "./errors";

export interface BreakerOptions {
  /** Runs one cheap query; resolves when the database answers. */
  probe: () => Promise<unknown>;
  /** Delay between probes while open. */
  retryMs: number;
  log?: (message: string) => void;
}

export class Breaker {
  private openedAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastUnavailableAt = 0;
  private readonly backListeners = new Set<() => void>();

  constructor(private readonly options: BreakerOptions) {}

  get isOpen(): boolean {
    return this.openedAt !== null;
  }

  /** Seconds a client should wait before retrying (the Retry-After header). */
  get retryAfterS(): number {
    return Math.max(1, Math.ceil(this.options.retryMs / 1000));
  }

  /** Open, or a request found the database unavailable within the last `ms` (a timeout does not open it). */
  unavailableWithin(ms: number): boolean {
    return this.openedAt !== null || Date.now() - this.lastUnavailableAt < ms;
  }

  /** Records that a request could not get its answer (any DatabaseUnavailableError). */
  noteUnavailable(): void {
    this.lastUnavailableAt = Date.now();
  }

  /** Throws DatabaseUnavailableError while open, so a request does not even wait for a pool slot. */
  check(): void {
    if (this.openedAt !== null) throw new DatabaseUnavailableError("database unavailable", this.retryAfterS);
  }

  /** Opens on a connection failure; a later probe closes it. */
  trip(err: unknown): void {
    if (this.openedAt !== null) return;
    this.openedAt = Date.now();
    const code = (err as { code?: string })?.code ?? (err as Error)?.message ?? String(err);
    this.options.log?.(`database unavailable (${code}): answering 503 and probing every ${this.options.retryMs} ms`);
    this.schedule();
  }

  /** Calls `fn` each time a probe finds the database back (the LISTEN connection retries at once). */
  onBack(fn: () => void): () => void {
    this.backListeners.add(fn);
    return () => this.backListeners.delete(fn);
  }

  /** Stops probing (process shutdown). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule() {
    this.timer = setTimeout(() => void this.probeOnce(), this.options.retryMs);
    this.timer.unref();
  }

  /**
   * The database answered on a connection of its own (the LISTEN connection is back, or a change was
   * heard on it): closed now rather than at the next probe. While open, reads go to a replica however far it
   * got; once the instance hears changes again, a read that would keep a replica's answer older than a
   * change just heard must see the primary's commits instead (docs/api.md "Reads without the primary").
   */
  reached(how: string): void {
    if (this.openedAt === null) return;
    if (this.timer) clearTimeout(this.timer);
    this.back(how);
  }

  private back(how: string) {
    this.options.log?.(`database back after ${((Date.now() - this.openedAt!) / 1000).toFixed(1)} s (${how})`);
    this.openedAt = null;
    this.timer = null;
    for (const fn of this.backListeners) fn();
  }

  private async probeOnce() {
    this.timer = null;
    try {
      await this.options.probe();
    } catch {
      // Still open and nothing else scheduled (reached() and a new trip() may have come meanwhile).
      if (this.openedAt !== null && !this.timer) this.schedule();
      return;
    }
    // reached() may have closed it while the probe ran.
    if (this.openedAt !== null) this.back("a probe answered");
  }
}

/** Rejects after `ms` with a DatabaseUnavailableError; the work keeps running (statement_timeout ends it). */
export function withTimeout<T>(work: Promise<T>, ms: number, what = "database"): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseUnavailableError(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** The process's breaker over db(). */
export function breaker(): Breaker {
  return shared(
    "breaker",
    () =>
      new Breaker({
        retryMs: config().DB_RETRY_MS,
        // As long as a connect may take: a slow first connect after a restart must not count as "still down".
        probe: () => withTimeout(db()`SELECT 1`.execute(), connectTimeoutS() * 1000 + 500, "probe"),
        log: (m) => console.error(`[db] ${m}`),
      }),
  );
}

/**
 * The primary cannot be reached (the breaker is open) and no replica is up either: a read has nowhere to
 * go. While a replica is up, reads go on without the primary (readDb).
 */
export function readsUnavailable(): boolean {
  return breaker().isOpen && !replicaUp();
}

/** The primary cannot be reached: reads that reach a database go to a replica (docs/api.md "Reads without the primary"). */
export function primaryUnreachable(): boolean {
  return breaker().isOpen;
}

/**
 * Runs the database reads of one load: refused at once while neither the primary nor a replica can be
 * reached, on a replica alone while only the primary cannot, bounded by the request deadline (pool wait
 * included), and any "try again" failure turned into a DatabaseUnavailableError.
 */
export async function withDatabase<T>(work: () => Promise<T>): Promise<T> {
  const b = breaker();
  if (b.isOpen && !replicaUp()) b.check();
  try {
    return await withOneRetry(work, b);
  } catch (err) {
    if (isConnectionFailure(err)) b.trip(err);
    if (!isDatabaseUnavailable(err)) throw err;
    b.noteUnavailable();
    throw isErrorOf(err, DatabaseUnavailableError) ? err : new DatabaseUnavailableError("database did not answer in time", 1, { cause: err });
  }
}

/**
 * `work` within the request deadline, and once more within what is left of it, on a new session, when its
 * session was lost (the server ended it) or a replica failed it (then on the primary), or the primary
 * could not be reached while a replica is up (then on a replica). A session ends under one read without
 * the database being away (pg_terminate_backend, a pooler, a restarted replica), and postgres.js 3.4.9
 * also replays a lost session's error onto the first query of its next one (porsager/postgres#1223):
 * without the retry a healthy database would answer a 503 and open the breaker. Loads only read: running
 * one twice is safe.
 */
async function withOneRetry<T>(work: () => Promise<T>, b: Breaker): Promise<T> {
  const deadline = Date.now() + requestDeadlineMs();
  const first: ReadAttempt = { replica: false, primaryOnly: false, withoutPrimary: b.isOpen };
  try {
    return await withTimeout(recordReads(first, work), requestDeadlineMs());
  } catch (err) {
    const left = deadline - Date.now();
    // No time left: a retry would start a query no one waits for.
    if (left <= 0) throw err;
    const primaryLost = !first.replica && !first.withoutPrimary && isConnectionFailure(err) && replicaUp();
    if (primaryLost) {
      b.trip(err);
      return await withTimeout(recordReads({ replica: false, primaryOnly: false, withoutPrimary: true }, work), left);
    }
    if (!isLostSession(err) && !(first.replica && isReplicaFailure(err))) throw err;
    const retry: ReadAttempt = first.withoutPrimary ? { ...first, replica: false } : { replica: false, primaryOnly: first.replica };
    try {
      return await withTimeout(recordReads(retry, work), left);
    } catch (again) {
      // The primary's session was lost and a new one could not answer either: the database is away.
      if (!first.replica && isLostSession(err) && isDatabaseUnavailable(again)) b.trip(err);
      throw again;
    }
  }
}
