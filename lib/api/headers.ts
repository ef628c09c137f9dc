// The headers of /v1, defined once: the route wrapper (lib/api/route.ts) sends them with the handlers'
// answers, and the request guard (lib/http/http-guard.ts) with the errors it answers before Next runs.
import { errorBody } from "./errors";

/** The methods every /v1 path answers (preflights included). */
export const API_METHODS = "GET, HEAD, OPTIONS";

/**
 * Every /v1 answer differs by Accept (the camelCase variant); CORS is open to any origin for GET and
 * HEAD (public data, no credentials, so "*" is safe) and does not vary by Origin.
 */
export const API_HEADERS = {
  Vary: "Accept",
  "Access-Control-Allow-Origin": "*",
  // ETag is not a CORS-safelisted response header: without this, browsers hide it from scripts. Nor are
  // a book's version, checksum and version time (docs/api.md "Book versions").
  "Access-Control-Expose-Headers": "ETag, Book-Version, Book-Checksum, Book-Version-Time",
} as const;

/** Errors are never stored, so a market created a moment after a 404 is visible at once. */
export const ERROR_CACHE_CONTROL = "no-store";

/** The CORS preflight answer's headers. */
export const PREFLIGHT_HEADERS = {
  ...API_HEADERS,
  Allow: API_METHODS,
  "Access-Control-Allow-Methods": API_METHODS,
  // Any request header (If-None-Match, Accept, Cache-Control …): the data is public and uncredentialed.
  "Access-Control-Allow-Headers": "*",
  "Access-Control-Max-Age": "86400",
  "Cache-Control": "public, max-age=86400",
} as const;

/** A /v1 error: the NestJS-style body, in application/json whatever the Accept (error bodies have one shape). */
export interface ApiErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function apiErrorAnswer(status: number, message: string | string[], extra: Record<string, string> = {}): ApiErrorAnswer {
  return {
    status,
    headers: { "Content-Type": "application/json", ...API_HEADERS, "Cache-Control": ERROR_CACHE_CONTROL, "X-Content-Type-Options": "nosniff", ...extra },
    body: JSON.stringify(errorBody(status, message)),
  };
}
