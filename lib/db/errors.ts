// Which database failures mean "the database is away or overloaded" (answer 503, serve stale)
// rather than a bug or a bad request.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN",
  "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT",
  "57P01", "57P02", "57P03", // admin/crash shutdown, cannot connect now
  "53300", // too many connections
  "57014", // statement timeout (query_canceled)
  "55P03", // lock not available (lock_timeout)
  "08000", "08003", "08006", "08001", "08004",
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNAVAILABLE_CODES.has(code);
}
