// The checks server.ts runs on every request before Next sees it: requests Next would answer with a 500
// (an undecodable path, TRACE) or with a redirect (a trailing slash on /v1), and /v1 paths that could
// resolve outside /v1, get a 4xx here. /v1 answers carry the API's JSON error body and headers.
import "server-only";
import { API_METHODS, apiErrorAnswer } from "@/lib/api/headers";

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Checked {
  /** The request addresses the public API (after percent-decoding and dot-segment resolution). */
  api: boolean;
  /** Set when the request is answered here and never reaches Next. */
  answer?: Answer;
}

/** The methods pages, /docs and the internal routes answer: no server actions, one form (below). */
export const SITE_METHODS = "GET, HEAD, OPTIONS";

/** The one form target: the watchlist star (app/(site)/watchlist/star/route.ts) takes POST, spelt exactly so. */
export const FORM_POST_PATHS = new Set(["/watchlist/star"]);

function siteAnswer(status: number, text: string, headers: Record<string, string> = {}): Answer {
  return {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...headers },
    body: `${text}\n`,
  };
}

function decoded(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** The path as a router resolves it: backslashes and repeated slashes as one slash, dot segments applied. */
export function resolvePath(path: string): string {
  const out: string[] = [];
  for (const segment of path.replace(/\\/g, "/").split("/").slice(1)) {
    if (segment === "..") out.pop();
    else if (segment !== "." && segment !== "") out.push(segment);
  }
  return `/${out.join("/")}`;
}

const isApiPath = (path: string) => path === "/v1" || path.startsWith("/v1/");

/** The path of a request target: origin-form as is, absolute-form (RFC 9112 3.2.2) without its authority. */
function pathOf(target: string): string | undefined {
  const path = target.split(/[?#]/, 1)[0];
  if (path.startsWith("/")) return path;
  const absolute = /^https?:\/\/[^/?#]*(\/[^?#]*)?/i.exec(target);
  return absolute ? (absolute[1] ?? "/") : undefined;
}

export function checkRequest(method = "GET", target = "/"): Checked {
  const path = pathOf(target);
  if (path === undefined) return { api: false, answer: siteAnswer(400, "Bad Request: malformed URL") };
  const plain = decoded(path);
  if (plain === undefined) {
    // An undecodable path (`/markets/%%`): Next would throw on it. Ours to answer, in the API's shape on /v1.
    return path.startsWith("/v1")
      ? { api: true, answer: apiErrorAnswer(400, "Malformed URL") }
      : { api: false, answer: siteAnswer(400, "Bad Request: malformed URL") };
  }
  const resolved = resolvePath(plain);
  // Anything that starts as /v1 or resolves into it is the API's, however it is spelt.
  const api = isApiPath(resolved) || /^\/v1(?:$|[/\\])/.test(plain);
  if (!api) {
    // TRACE, CONNECT, POST … would reach Next's page renderer, which has no answer for them (TRACE is a 500).
    if (method === "POST" && FORM_POST_PATHS.has(path)) return { api };
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") return { api, answer: siteAnswer(405, "Method Not Allowed", { Allow: SITE_METHODS }) };
    // Next answers OPTIONS on a page with an empty 400; no CORS here (only /v1 is open to other origins).
    if (method === "OPTIONS") return { api, answer: { status: 204, headers: { Allow: SITE_METHODS, "Cache-Control": "no-store" }, body: "" } };
    return { api };
  }
  if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS")
    return { api, answer: apiErrorAnswer(405, `Cannot ${method} ${path}`, { Allow: API_METHODS }) };
  // One spelling per resource: no redirects (a preflight that redirects fails in browsers) and nothing
  // that a router would resolve elsewhere (`/v1/%2e%2e` is the site's root). The JSON 404 says why.
  const canonical = plain === "/v1" || (plain.startsWith("/v1/") && resolvePath(plain) === plain && !plain.endsWith("/"));
  if (!canonical) {
    const hint = plain.length > 1 && plain.endsWith("/") && resolvePath(plain) === plain.slice(0, -1) ? ` (no trailing slash: ${resolvePath(plain)})` : "";
    return { api, answer: apiErrorAnswer(404, `Cannot ${method === "HEAD" ? "GET" : method} ${path}${hint}`) };
  }
  // Next parses the query into a plain object before route handlers see it, where `__proto__` silently
  // vanishes: refused here, in the words of lib/api/query.ts, so it cannot pass unvalidated.
  const query = target.indexOf("?");
  if (query >= 0 && /proto/i.test(target.slice(query)) && new URLSearchParams(target.slice(query + 1).split("#")[0]).has("__proto__"))
    return { api, answer: apiErrorAnswer(400, ["property __proto__ should not exist"]) };
  return { api };
}
