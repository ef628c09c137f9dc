// The wrapper every /v1 handler goes through, and so the one place for cross-cutting HTTP behaviour:
// error mapping (ApiError and domain errors → their status and body, anything else → a logged 500 with a bland body),
// the camelCase variant chosen by Accept, weak ETags with 304s, Cache-Control per endpoint, Vary and CORS.
// Handlers stay thin: they return data, never a Response, and have no try/catch of their own.
import { createHash } from "node:crypto";
import { jsonBytesOf, jsonTextOf } from "@/lib/cache/json-text";
import { withCacheStatus, type RequestCacheStatus } from "@/lib/cache/request-status";
import { requestDeadlineMs } from "@/lib/db/bounds";
import { withTimeout } from "@/lib/db/breaker";
import { DatabaseUnavailableError, isDatabaseUnavailable } from "@/lib/db/errors";
import { isErrorOf } from "@/lib/process-state";
import { CAMEL_MEDIA_TYPE } from "@/lib/markets/schemas";
import { apiErrorOf } from "./errors";
import { API_HEADERS, apiErrorAnswer, ERROR_CACHE_CONTROL, PREFLIGHT_HEADERS } from "./headers";

type Ctx<P> = { params: Promise<P> };
type Handler<P, T> = (req: Request, ctx: Ctx<P>) => Promise<T | Answer<T>>;
type RouteHandler<P> = (req: Request, ctx: Ctx<P>) => Promise<Response>;

/**
 * Cache-Control by kind of resource: long enough for a CDN to absorb bursts of identical reads, short
 * enough that a trade shows within seconds. Book and history move fastest. Errors are never stored, so a
 * market created a moment after a 404 is visible at once (a malformed request costs one cheap query).
 */
export const CACHE_POLICIES = {
  list: "public, max-age=10, stale-while-revalidate=30, stale-if-error=300",
  market: "public, max-age=10, stale-while-revalidate=30, stale-if-error=300",
  book: "public, max-age=1, stale-while-revalidate=2, stale-if-error=300",
  history: "public, max-age=5, stale-while-revalidate=10, stale-if-error=300",
  // The trade tape moves with every trade, like the book.
  trades: "public, max-age=1, stale-while-revalidate=2, stale-if-error=300",
  document: "public, max-age=300, stale-while-revalidate=3600",
  // A past book or page of changes that nothing committed later can change (docs/api.md "Past books").
  final: "public, max-age=31536000, immutable",
  error: ERROR_CACHE_CONTROL,
} as const;
export type CachePolicy = keyof typeof CACHE_POLICIES;

const JSON_TYPE = "application/json";

export interface RouteOptions<T> {
  cache: CachePolicy;
  /** Maps the primary shape to the camelCase variant (lib/markets/camel.ts); absent: one shape only. */
  camel?: (data: T) => unknown;
  /** The handler never touches the database: it answers even while the database is away. */
  offline?: boolean;
}

/** True when the client asks for the camelCase variant (docs/api.md) with a non-zero quality. */
export function wantsCamel(req: Request): boolean {
  const accept = req.headers.get("accept");
  if (!accept) return false;
  return accept.split(",").some((range) => {
    const [type, ...params] = range.split(";").map((s) => s.trim().toLowerCase());
    if (type !== CAMEL_MEDIA_TYPE) return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * A hash of the body and its media type, so the two variants never share one. Weak: the server
 * gzips bodies for clients that accept it, after this handler, and a strong validator must differ
 * between content-codings; a weak one is shared by them (RFC 9110 8.8.1), and If-None-Match
 * compares weakly anyway. A text and its UTF-8 bytes hash alike (a string is hashed as its UTF-8).
 */
export function etagOf(body: Body, mediaType: string): string {
  return `W/"${createHash("sha1").update(mediaType).update("\n").update(body).digest("base64url")}"`;
}

/** A JSON body: its text, or the text's UTF-8 (a list page kept: lib/cache/json-text.ts, JSON_BYTES). */
export type Body = string | Buffer;

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored, "*" matches any. */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag.replace(/^W\//, "");
  });
}

/**
 * Body and ETag of each variant, once per answer: the response cache hands out the same object until
 * it changes, so a hit (or a 304) costs neither serialization nor hashing. Kept on the answer itself (a
 * hidden property), not in a WeakMap: an answer made for one request (a list page of the long tail) then
 * dies young with its body, where a WeakMap's entry would carry the body through the young generation.
 */
const REPRESENTATIONS = Symbol("representations");
/** One variant's body and ETag; `gzipped` is filled by whoever compresses it first (lib/server/api-router.ts). */
export interface Representation {
  body: Body;
  etag: string;
  gzipped?: Promise<Buffer>;
}
type Represented = { [REPRESENTATIONS]?: Map<string, Representation> };

function represent(data: unknown, mediaType: string, camel: ((data: any) => unknown) | undefined): Representation {
  const holder = typeof data === "object" && data !== null && Object.isExtensible(data) ? (data as Represented) : undefined;
  const memo = holder?.[REPRESENTATIONS];
  const hit = memo?.get(mediaType);
  if (hit) return hit;
  // A value that carries its JSON (a list page of items kept packed, lib/markets/list-page.ts) is not serialized again.
  const body = (camel ? undefined : (jsonBytesOf(data) ?? jsonTextOf(data))) ?? JSON.stringify(camel ? camel(data) : data);
  const rep: Representation = { body, etag: etagOf(body, mediaType) };
  if (holder) {
    if (memo) memo.set(mediaType, rep);
    else Object.defineProperty(holder, REPRESENTATIONS, { value: new Map([[mediaType, rep]]) });
  }
  return rep;
}

/** What the response cache did for this answer: X-Cache, and for a stale one Age and a Warning. */
function cacheHeaders(status: RequestCacheStatus | undefined, policy: string): Record<string, string> {
  if (!status?.status) return {};
  if (status.status !== "STALE") return { "X-Cache": status.status };
  // The database is away and this answer was invalidated (stale-if-error): say so, let no one keep it.
  return {
    "X-Cache": "STALE",
    Age: String(status.ageS),
    Warning: '110 - "Response is Stale"',
    "Cache-Control": policy.replace(/max-age=\d+/, "max-age=0"),
  };
}

/**
 * What a handler returns when its answer has headers of its own (a book's Book-Version …) or another
 * cache policy than the route's (a past book that can no longer change): the body is `data` alone.
 */
export class Answer<T> {
  constructor(
    readonly data: T,
    readonly headers: Record<string, string>,
    readonly cache?: CachePolicy,
  ) {}
}

const REPRESENTATION = Symbol("representation");

const WRITES_REPRESENTATION = Symbol("writes representation");
type DirectRequest = Request & { [WRITES_REPRESENTATION]?: true };

/**
 * Marks a request whose caller writes a 200's body from its representation (representationOf), as
 * lib/server/api-router.ts does: json() then gives its Response no body.
 */
export function writesRepresentation(req: Request): Request {
  (req as DirectRequest)[WRITES_REPRESENTATION] = true;
  return req;
}

/** A 200 with ETag and Cache-Control, or a 304 carrying the same validators and no body. */
export function json(req: Request, answer: unknown, options: RouteOptions<any>, cache?: RequestCacheStatus): Response {
  const data = answer instanceof Answer ? answer.data : answer;
  const own = answer instanceof Answer ? answer.headers : {};
  const camel = options.camel !== undefined && wantsCamel(req);
  const mediaType = camel ? CAMEL_MEDIA_TYPE : JSON_TYPE;
  const rep = represent(data, mediaType, camel ? options.camel : undefined);
  const { body, etag } = rep;
  const policy = CACHE_POLICIES[(answer instanceof Answer && answer.cache) || options.cache];
  const headers = new Headers({ ...API_HEADERS, ...own, "Cache-Control": policy, ETag: etag, ...cacheHeaders(cache, policy) });
  if (ifNoneMatchHits(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", mediaType);
  // lib/server/api-router.ts writes the representation itself: no body of the Response's own (an encoded
  // copy made per request, never read).
  const direct = (req as DirectRequest)[WRITES_REPRESENTATION] === true;
  const response = new Response(direct ? null : (body as string | Uint8Array<ArrayBuffer>), { status: 200, headers });
  Object.defineProperty(response, REPRESENTATION, { value: rep });
  return response;
}

/** The representation a 200 of json() carries, so that a server can send its body (and its gzip, once) without reading the stream. */
export function representationOf(response: Response): Representation | undefined {
  return (response as Response & { [REPRESENTATION]?: Representation })[REPRESENTATION];
}

/** The NestJS-style error body with the /v1 headers (lib/api/headers.ts), as the request guard sends it too. */
export function errorResponse(req: Request, status: number, message: string | string[], extra: Record<string, string> = {}): Response {
  const answer = apiErrorAnswer(status, message, extra);
  return new Response(answer.body, { status, headers: answer.headers });
}

/** The database is away or overloaded: a 503 the client may retry after a second or two (lib/db/breaker.ts). */
export function unavailableResponse(req: Request, err: DatabaseUnavailableError): Response {
  return errorResponse(req, 503, "Service temporarily unavailable", { "Retry-After": String(err.retryAfterS) });
}

export function route<P = Record<string, string>, T = unknown>(options: RouteOptions<T>, handler: Handler<P, T>): RouteHandler<P> {
  return async (req, ctx) => {
    try {
      // Each database read goes through the breaker inside the response cache (lib/markets/cache.ts), so
      // that an outage can still be answered from memory (stale-if-error); the request as a whole has a deadline.
      const { status, result } = withCacheStatus(() => (options.offline ? handler(req, ctx) : withTimeout(handler(req, ctx), requestDeadlineMs(), "request")));
      return json(req, await result, options, status);
    } catch (err) {
      const api = apiErrorOf(err);
      if (api) return errorResponse(req, api.status, api.detail);
      if (isDatabaseUnavailable(err)) {
        return unavailableResponse(
          req,
          isErrorOf(err, DatabaseUnavailableError) ? err : new DatabaseUnavailableError("database unavailable", 1, { cause: err }),
        );
      }
      // Never leak SQL, stack traces or connection strings to the client.
      console.error(`[api] ${req.method} ${new URL(req.url).pathname} failed:`, err);
      return errorResponse(req, 500, "Internal server error");
    }
  };
}

/** The CORS preflight answer of every /v1 route (export const OPTIONS = preflight). */
export async function preflight(): Promise<Response> {
  return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
}
