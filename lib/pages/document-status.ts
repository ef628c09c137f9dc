// The HTTP status of a document a page draws itself. A page that throws notFound() gets a 404 whose HTML
// body Next leaves empty (its error shell: the not-found UI is drawn by the browser once the scripts ran,
// vercel/next.js#62228), so crawlers, link previews and readers without JavaScript see a blank page. A
// page that knows what it is missing (an unknown market) draws its own "not found" in the normal render
// instead and sets the status here: server.ts opens the store around Next's handler for each HTML
// document, and Next writes the head after the page rendered (no page with such a status streams).
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { inScope, runInScope } from "@/lib/request-scope";

/** Requests of Next's client router (RSC payloads, prefetches, server actions): it follows a non-200 with a full load. */
const ROUTER_HEADER = /^(?:rsc$|next-|x-nextjs-|x-middleware-)/;

/** Whether the request asks for HTML a page may give its own status (not a client router's payload). */
export function isHtmlDocumentRequest(req: Pick<IncomingMessage, "url" | "headers">): boolean {
  if (Object.keys(req.headers).some((name) => ROUTER_HEADER.test(name))) return false;
  const q = req.url?.indexOf("?") ?? -1;
  return q < 0 || !new URLSearchParams(req.url!.slice(q + 1)).has("_rsc");
}

/** Runs `render` as the render of the HTML document answered on `res`. */
export function renderingDocument<T>(res: ServerResponse, render: () => T): T {
  return runInScope("documentResponse", res, render);
}

/** From a page's render: answer with `status` (e.g. 404 for an unknown market). Elsewhere (a client router's payload) it does nothing. */
export function setDocumentStatus(status: number): void {
  const res = inScope("documentResponse");
  if (res && !res.headersSent) res.statusCode = status;
}
