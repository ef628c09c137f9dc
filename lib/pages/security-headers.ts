// The security headers of pages and /docs (lib/pages/document-security.ts sets them per request): a
// nonce-based Content-Security-Policy that Next applies to its own scripts, and the usual hardening headers.
import { randomBytes } from "node:crypto";

/**
 * - script-src: only scripts carrying this response's nonce, and what they load ('strict-dynamic':
 *   Next's chunks, the lazily loaded chart and Scalar). Development needs eval for React's debugging.
 * - style-src 'unsafe-inline': React renders style attributes on the server (probability bars, the docs
 *   layout), which a nonce cannot cover; styles cannot run code.
 * - connect-src: the API and the Socket.IO WebSocket on this origin ('self' covers ws: in CSP 3
 *   browsers; the explicit ws/wss of the host covers the others).
 * - img-src http(s): imported market images and avatars may live on any host (lib/markets/urls.ts).
 */
export function contentSecurityPolicy(
  nonce: string,
  { dev = false, host, frameable = false }: { dev?: boolean; host?: string | null; frameable?: boolean } = {},
): string {
  const sameHostSockets = host && /^[a-z0-9.-]+(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/i.test(host) ? ` ws://${host} wss://${host}` : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    `connect-src 'self'${sameHostSockets}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // Only the embed card (/embed/…) may be framed, by any site; every other page by none.
    frameable ? "frame-ancestors *" : "frame-ancestors 'none'",
  ].join("; ");
}

/** The headers beside the CSP: no MIME sniffing, no framing (old browsers), no full URLs to other origins, no powerful features. */
export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

/** Paths other sites may frame: the embed cards alone (they get frame-ancestors * and no X-Frame-Options). */
export const isFrameablePath = (pathname: string) => pathname.startsWith("/embed/");

/** 128 random bits, base64: unguessable per response. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}
