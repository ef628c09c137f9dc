// State that must exist once per process, and how errors are recognised across bundles.
//
// Why: server.ts runs outside Next (under tsx), and Next bundles route handlers and pages separately, so
// a module-level variable exists once per bundle (and once more in server.ts). Whatever one part of the
// process sets and another reads must live on globalThis; every such piece is listed here, with why, and
// nothing else in the code touches globalThis.
import "server-only";

/**
 * Every piece of process-wide state, by key, and why it must be shared. Each is made and typed by the
 * module named beside it (its `create`), so this module imports none of them.
 * - config: the validated environment (lib/config.ts): parsed once; server.ts sets the embedded cluster's URL into it before Next loads.
 * - sql: the request pool (lib/db/client.ts): one pool for server.ts, scripts and every bundle (and dev reloads do not leak pools).
 * - reads: the replica read router (lib/db/client.ts): one set of replica pools and probes, whoever reads first.
 * - breaker: the circuit breaker (lib/db/breaker.ts): an outage one bundle (or the listener in server.ts) sees answers 503 in all.
 * - commitPosition: the WAL position announced (lib/db/consistency.ts): server.ts notes it as NOTIFYs arrive, the route handlers' reads wait for it.
 * - marketsCache: the response cache (lib/markets/reads/cache.ts): server.ts invalidates it from the NOTIFY stream, routes and pages read it.
 * - listIndex: the in-memory orders of the lists (lib/markets/list-index.ts): server.ts feeds it from the NOTIFY stream, list reads slice it.
 * - listPages: the list pages kept for their keys' next requests (lib/markets/reads/lists/kept-pages.ts): their bytes are stated in /api/stats.
 * - jsonShapes: the shapes of packed JSON (lib/cache/json-shapes.ts): a list item packed by the warm-up in server.ts or by a page unpacks in a route handler.
 * - requestScope: what our code keeps for the request in progress (lib/request-scope.ts): the cache status of a /v1 answer
 *   (the cache reports into it, the /v1 wrapper reads it), what a page render read (server.ts opens it around
 *   Next's handler, the pages' reads fill it) and the response of an HTML document (a page sets its status).
 * - draining: the instance is shutting down (lib/http/draining.ts): server.ts sets it on SIGTERM, /readyz (a route module) answers it.
 * - clockReading: told of each clock reading a page shows (lib/ui/clock.ts): set by lib/cache/render-record.ts, read by
 *   the display helpers, which run in the browser too and so cannot import this module (they read the registry by its key).
 */
export type SharedKey =
  | "config"
  | "sql"
  | "reads"
  | "breaker"
  | "commitPosition"
  | "marketsCache"
  | "listIndex"
  | "listPages"
  | "jsonShapes"
  | "requestScope"
  | "clockReading"
  | "draining";

// One symbol for the whole registry: Symbol.for gives every bundle the same one (lib/ui/clock.ts spells it too).
const STATE = Symbol.for("markets.process-state");
const registry = ((globalThis as Record<symbol, unknown>)[STATE] ??= {}) as Partial<Record<SharedKey, unknown>>;

/** The process's one `key`, made by `create` the first time any bundle asks. */
export function shared<T>(key: SharedKey, create: () => T): T {
  return (registry[key] ??= create()) as T;
}

/** The process's `key` if something made it already. */
export function peekShared<T>(key: SharedKey): T | undefined {
  return registry[key] as T | undefined;
}

/** Forgets `key` (a closed pool, a config to parse again) and returns what it was. */
export function dropShared<T>(key: SharedKey): T | undefined {
  const value = registry[key] as T | undefined;
  delete registry[key];
  return value;
}

// ------------------------------------------------------------------ errors across bundles

/**
 * An error class whose instances are recognised in every bundle. A class exists once per bundle, so
 * `instanceof` misses an error thrown by another bundle's copy (a load of the shared response cache begun
 * by a page and joined by a route handler), and minifiers rename classes, so `constructor.name` cannot
 * be trusted either: each such class states its `errorName` as a string literal and sets `this.name` to it.
 */
export interface NamedErrorClass<T extends Error> {
  readonly errorName: string;
  new (...args: never[]): T;
}

/** The one way to ask "is this a T?" of an error that may come from another bundle. */
export function isErrorOf<T extends Error>(err: unknown, cls: NamedErrorClass<T>): err is T {
  return err instanceof cls || (err instanceof Error && err.name === cls.errorName);
}
