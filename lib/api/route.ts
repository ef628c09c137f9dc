// The wrapper every /v1 handler goes through, and so the one place for cross-cutting HTTP behaviour:
// error mapping (ApiError and domain errors → their status and body, anything else → a logged 500 with a bland body),
// the camelCase variant chosen by Accept, weak ETags with 304s, Cache-Control per endpoint, Vary and CORS.
// Handlers stay thin: they return data, never a Response, and have no try/catch of their own.
import { type Body, Json, Representation } from "@/lib/cache/representation";
import { withCacheStatus, type RequestCacheStatus } from "@/lib/cache/request-status";
import { requestDeadlineMs } from "@/lib/db/bounds";
import { primaryUnreachable, withTimeout } from "@/lib/db/breaker";
import { DatabaseUnavailableError, isDatabaseUnavailable } from "@/lib/db/errors";
import { isErrorOf } from "@/lib/process-state";
import { acceptsCamel, CAMEL_MEDIA_TYPE } from "@/lib/markets/schemas/camel";
import { apiErrorOf } from "./errors";
import { API_HEADERS, apiErrorAnswer, ERROR_CACHE_CONTROL, PREFLIGHT_HEADERS } from "./headers";

type Ctx<P> = { params: Promise<P> };
/** A handler returns its data, a Json of it (lib/cache/representation.ts), or an Answer of either. */
type Handler<P, T> = (req: Request, ctx: Ctx<P>) => Promise<T | Json<T> | Answer<T | Json<T>>>;
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
  // The markets feed moves with every write: a cache may keep a page but must ask again each time (the ETag makes that a 304).
  feed: "no-cache",
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
  return acceptsCamel(req.headers.get("accept"));
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored, "*" matches any. */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag.replace(/^W\//, "");
  });
}

/**
 * The Json an answer is written from (lib/cache/representation.ts): the one the handler returned, or the
 * one of an answer the request read (lib/cache/request-status.ts) when the handler returned that very
 * value (frozen, so it is still what its text says) or one of its properties (a versioned book's `book`).
 */
function jsonOf(data: unknown, read: readonly Json[] | undefined): Json | undefined {
  if (data instanceof Json) return data;
  if (!read?.length || typeof data !== "object" || data === null) return undefined;
  for (const json of read) if (json.value === data) return json;
  for (const json of read) {
    const member = json.memberOf(data);
    if (member) return member;
  }
  return undefined;
}

/** The representation of `data` in `mediaType`: from its Json when it has one (made once there), else made now. */
function represent(data: unknown, mediaType: string, shape: ((data: any) => unknown) | undefined, read: readonly Json[] | undefined): Representation {
  const json = jsonOf(data, read);
  if (json) return json.representation(mediaType, shape);
  return new Representation(mediaType, JSON.stringify(shape ? shape(data) : data));
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

/**
 * A /v1 answer as the server writes it: its status, its headers, and its body (a 200's representation, an
 * error's JSON text) or none (a 304, a preflight). The /v1 router (lib/http/api-router.ts) writes it as
 * it is, HEAD without the body; Next gets it as a Response (responseOf). Told apart by `typeof`, never by
 * `instanceof`: Next's bundles and server.ts each have their own copy of these classes, and the answers
 * kept are made by whichever first made the cache (lib/process-state.ts).
 */
export interface Reply {
  status: number;
  headers: Headers;
  body: Representation | Body | null;
}

/** A reply's body when it is a representation. */
export function representationIn(reply: Reply): Representation | undefined {
  const { body } = reply;
  return typeof body === "object" && body !== null && !Buffer.isBuffer(body) ? body : undefined;
}

/** A 200 with ETag and Cache-Control, or a 304 carrying the same validators and no body. */
export function replyOf(req: Request, answer: unknown, options: RouteOptions<any>, cache?: RequestCacheStatus): Reply {
  const data = answer instanceof Answer ? answer.data : answer;
  const own = answer instanceof Answer ? answer.headers : {};
  const camel = options.camel !== undefined && wantsCamel(req);
  const mediaType = camel ? CAMEL_MEDIA_TYPE : JSON_TYPE;
  const rep = represent(data, mediaType, camel ? options.camel : undefined, cache?.read);
  const policy = CACHE_POLICIES[(answer instanceof Answer && answer.cache) || options.cache];
  const headers = new Headers({ ...API_HEADERS, ...own, "Cache-Control": policy, ETag: rep.etag, ...cacheHeaders(cache, policy) });
  if (ifNoneMatchHits(req.headers.get("if-none-match"), rep.etag)) return { status: 304, headers, body: null };
  headers.set("Content-Type", mediaType);
  return { status: 200, headers, body: rep };
}

/** A reply as a fetch Response (what Next's route handlers return). */
export function responseOf(reply: Reply): Response {
  const body = representationIn(reply)?.body ?? (reply.body as Body | null);
  return new Response(body as string | Uint8Array<ArrayBuffer> | null, { status: reply.status, headers: reply.headers });
}

/** replyOf as a Response. */
export function json(req: Request, answer: unknown, options: RouteOptions<any>, cache?: RequestCacheStatus): Response {
  return responseOf(replyOf(req, answer, options, cache));
}

/** The NestJS-style error body with the /v1 headers (lib/api/headers.ts), as the request guard sends it too. */
export function errorReply(status: number, message: string | string[], extra: Record<string, string> = {}): Reply {
  const answer = apiErrorAnswer(status, message, extra);
  return { status, headers: new Headers(answer.headers), body: answer.body };
}

/** The database is away or overloaded: a 503 the client may retry after a second or two (lib/db/breaker.ts). */
export function unavailableReply(err: DatabaseUnavailableError): Reply {
  return errorReply(503, "Service temporarily unavailable", { "Retry-After": String(err.retryAfterS) });
}

/**
 * A /v1 route handler: a function Next calls for a Response, and `reply` for the /v1 router, which
 * writes the Reply itself (a body made once, its gzip once) instead of reading a Response's stream.
 */
export type ApiRouteHandler<P> = RouteHandler<P> & { reply: (req: Request, ctx: Ctx<P>) => Promise<Reply> };

export function route<P = Record<string, string>, T = unknown>(options: RouteOptions<T>, handler: Handler<P, T>): ApiRouteHandler<P> {
  const reply = async (req: Request, ctx: Ctx<P>): Promise<Reply> => {
    try {
      // Each database read goes through the breaker inside the response cache (lib/markets/reads/), so
      // that an outage can still be answered from memory (stale-if-error); the request as a whole has a deadline.
      const { status, result } = withCacheStatus(() => (options.offline ? handler(req, ctx) : withTimeout(handler(req, ctx), requestDeadlineMs(), "request")));
      const reply = replyOf(req, await result, options, status);
      // Read while the primary cannot be reached: from a replica, or (stale-if-error) from memory (docs/api.md "Reads without the primary").
      if (!options.offline && primaryUnreachable()) reply.headers.set("X-Data-Source", status.status === "STALE" ? "memory" : "replica");
      return reply;
    } catch (err) {
      const api = apiErrorOf(err);
      if (api) return errorReply(api.status, api.detail);
      if (isDatabaseUnavailable(err)) {
        return unavailableReply(isErrorOf(err, DatabaseUnavailableError) ? err : new DatabaseUnavailableError("database unavailable", 1, { cause: err }));
      }
      // Never leak SQL, stack traces or connection strings to the client.
      console.error(`[api] ${req.method} ${new URL(req.url).pathname} failed:`, err);
      return errorReply(500, "Internal server error");
    }
  };
  return Object.assign(async (req: Request, ctx: Ctx<P>) => responseOf(await reply(req, ctx)), { reply });
}

/** The CORS preflight answer of every /v1 route (export const OPTIONS = preflight). */
export async function preflight(): Promise<Response> {
  return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
}
