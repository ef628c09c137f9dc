// Which database failures mean "the database is away or overloaded" (answer 503, retry soon) rather than
// a bug (answer 500), and the domain error that carries that verdict up to the HTTP layer.
import "server-only";
import { isErrorOf } from "@/lib/process-state";

/** Socket and driver codes of a connection that could not be made or was lost (postgres.js, node:net). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
]);

/** SQLSTATEs of a server that is shutting down, starting up, crashed, ended an idle session or is out of connection slots. */
const UNREACHABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "57P05", "53300", "53400"]);

/** SQLSTATEs of a query the server gave up on: statement_timeout (57014) and lock_timeout (55P03). */
const TIMEOUT_SQLSTATES = new Set(["57014", "55P03"]);

/** Thrown when the database cannot answer in time: the HTTP layer maps it to 503 with Retry-After. */
export class DatabaseUnavailableError extends Error {
  static readonly errorName = "DatabaseUnavailableError";
  constructor(
    message: string,
    /** Seconds after which a retry may succeed (the Retry-After header). */
    readonly retryAfterS = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = DatabaseUnavailableError.errorName;
  }
}

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The connection itself failed (refused, lost, timed out, server shutting down or full): the whole database is away. */
export function isConnectionFailure(err: unknown): boolean {
  const code = codeOf(err);
  if (!code) return false;
  // Class 08 is "connection exception" in every PostgreSQL version.
  return CONNECTION_CODES.has(code) || UNREACHABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}

/** Codes of a session that was open and then lost: the socket closed or reset, or the server ended it
 * (admin_shutdown, crash_shutdown, idle_session_timeout). Not a connect that failed, nor our own pool's end. */
const LOST_SESSION_CODES = new Set(["CONNECTION_CLOSED", "ECONNRESET", "EPIPE", "57P01", "57P02", "57P05"]);

/** The session under a query was lost (lib/db/breaker.ts runs the load again on a new one). */
export function isLostSession(err: unknown): boolean {
  return LOST_SESSION_CODES.has(codeOf(err) ?? "");
}

/** SQLSTATEs a hot standby cancels a query with when it conflicts with replay, or that say its database is gone. */
const RECOVERY_CONFLICT_SQLSTATES = new Set(["40001", "40P01", "57P04"]);

/** A failure of a read on a replica that the primary may not share: the replica unreachable or in conflict with replay. */
export function isReplicaFailure(err: unknown): boolean {
  return isConnectionFailure(err) || RECOVERY_CONFLICT_SQLSTATES.has(codeOf(err) ?? "");
}

/** Any failure that says "try again shortly", not "this request is wrong": connection failures and timeouts. */
export function isDatabaseUnavailable(err: unknown): boolean {
  // Thrown in any bundle: it reaches the response cache (shared by all of them) from another copy of the class.
  if (isErrorOf(err, DatabaseUnavailableError)) return true;
  return isConnectionFailure(err) || TIMEOUT_SQLSTATES.has(codeOf(err) ?? "");
}
