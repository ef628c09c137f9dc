// The security headers of every document (pages, /docs, the 404 page) and the CSP nonce Next puts on its
// own scripts, set by server.ts on the request and the response before Next renders. Next reads the nonce
// from the request's Content-Security-Policy header (next/dist/server/app-render/get-script-nonce-from-header).
//
// Not a Next proxy (proxy.ts, formerly middleware): Next runs a proxy for every matching
// request through its own adapter (a NextRequest and its URL, a Headers copy, a NextResponse, the merge
// back into the request): about 1.2 ms of CPU a request, as much as a fifth of a new market page's render
// (README, "Performance"). Here it is a few assignments.
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { contentSecurityPolicy, isFrameablePath, newNonce, SECURITY_HEADERS } from "./security-headers";

/**
 * Not documents: the API (its own headers, lib/api/route.ts), the internal JSON routes, static files,
 * icons, the public folder's images and oEmbed's JSON. The same paths Next's proxy matcher left out.
 */
const NOT_A_DOCUMENT = /^\/(?:v1(?:\/|$)|api\/|oembed|healthz|readyz|_next\/static|_next\/image|favicon\.ico|icon\.|apple-icon\.|avatars\/|market-images\/)/;

/** The request headers that would choose the nonce Next uses: none is taken from outside. */
const CSP_REQUEST_HEADERS = ["content-security-policy", "content-security-policy-report-only"];

/** Whether the request asks for a document: not one of NOT_A_DOCUMENT's paths, and not a prefetch (no document). */
export function isDocumentRequest(req: Pick<IncomingMessage, "url" | "headers">): boolean {
  const h = req.headers;
  if (h["next-router-prefetch"] !== undefined || h.purpose === "prefetch") return false;
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return !NOT_A_DOCUMENT.test(q < 0 ? url : url.slice(0, q));
}

/**
 * Removes any Content-Security-Policy a request arrives with (Next would take its nonce), then, for a
 * document, gives the request the policy with `nonce` (a fresh one unless the page cache chose its
 * placeholder) and sets the policy and the hardening headers on the response. Next keeps headers set
 * before it writes. Returns whether the request is a document.
 */
export function secureDocument(req: IncomingMessage, res: ServerResponse, { dev = false, nonce }: { dev?: boolean; nonce?: string } = {}): boolean {
  for (const name of CSP_REQUEST_HEADERS) delete req.headers[name];
  if (!isDocumentRequest(req)) return false;
  const frameable = isFrameablePath(req.url ?? "/");
  const csp = contentSecurityPolicy(nonce ?? newNonce(), { dev, host: req.headers.host, frameable });
  req.headers["content-security-policy"] = csp;
  res.setHeader("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!(frameable && name === "X-Frame-Options")) res.setHeader(name, value);
  return true;
}
