// Next's proxy (formerly middleware): a fresh CSP nonce and the security headers on every page and /docs.
// Next reads the nonce from the request's Content-Security-Policy and puts it on its own scripts.
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, isFrameablePath, newNonce, RENDER_NONCE_HEADER, SECURITY_HEADERS } from "@/lib/server/security-headers";

export function proxy(request: NextRequest) {
  // A render for the page cache brings its placeholder nonce (server.ts strips the header from every request that arrives).
  const nonce = request.headers.get(RENDER_NONCE_HEADER) ?? newNonce();
  const frameable = isFrameablePath(request.nextUrl.pathname);
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", host: request.headers.get("host"), frameable });
  const headers = new Headers(request.headers);
  headers.delete(RENDER_NONCE_HEADER);
  headers.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!(frameable && name === "X-Frame-Options")) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      // Documents only: not the API (its own headers, lib/api/route.ts), the internal JSON routes,
      // static files, icons or the public folder's images, oEmbed's JSON. Prefetches carry no document.
      source: "/((?!v1(?:/|$)|api/|oembed|healthz|readyz|_next/static|_next/image|favicon\\.ico|icon\\.|apple-icon\\.|avatars/|market-images/).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
