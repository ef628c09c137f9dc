// While the database is away (the primary and every replica), the pages that read it answer a calm 503 page at once (with Retry-After),
// before Next starts streaming: a streamed page's status is fixed at 200 by then.
import "server-only";
import type http from "node:http";
import { breaker, readsUnavailable } from "../db/breaker";
import { UNAVAILABLE_PAGE as PAGE } from "./unavailable-html";

/** The market list and a market's page: the pages rendered from the database. */
const DATABASE_PAGES = /^\/(?:markets\/[^/]+\/?)?$/;
/** The list's own navigations (RSC payloads): it renders its error in place, beside filters that still work. */
const isListNavigation = (req: http.IncomingMessage, path: string) => path === "/" && req.headers.rsc === "1";

/**
 * Answers a database page with the 503 page while no database can be read (lib/db/breaker.ts readsUnavailable); false when Next should handle it.
 * A render that fails because the database went away just now (Next answers its error page with 500)
 * keeps Next's page, which shows the error boundary, but with 503 and Retry-After.
 */
export function answerUnavailablePage(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const path = (req.url ?? "/").split("?")[0];
  if (!DATABASE_PAGES.test(path) || isListNavigation(req, path)) return false;
  const b = breaker();
  if (!readsUnavailable()) {
    const writeHead = res.writeHead as (this: http.ServerResponse, status: number, ...rest: unknown[]) => http.ServerResponse;
    res.writeHead = function (this: http.ServerResponse, status: number, ...rest: unknown[]) {
      if (status === 500 && b.unavailableWithin(5_000)) {
        status = 503;
        this.setHeader("retry-after", String(b.retryAfterS));
      }
      return writeHead.call(this, status, ...rest);
    } as typeof res.writeHead;
    return false;
  }
  res.writeHead(503, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "retry-after": String(b.retryAfterS),
  });
  res.end(req.method === "HEAD" ? undefined : PAGE);
  return true;
}
