// This request's origin (scheme and host) for absolute URLs that leave the site: share-card tags, oEmbed,
// the embed code. The host is the one the reader used; behind a TLS-terminating proxy its X-Forwarded-Proto.
import "server-only";
import { headers } from "next/headers";

export function originOf(h: Pick<Headers, "get">): string {
  const host = h.get("x-forwarded-host")?.split(",")[0].trim() || h.get("host") || "localhost";
  const proto = h.get("x-forwarded-proto")?.split(",")[0].trim();
  const safeHost = /^[a-z0-9.-]+(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/i.test(host) ? host : "localhost";
  return `${proto === "https" ? "https" : "http"}://${safeHost}`;
}

export async function requestOrigin(): Promise<string> {
  return originOf(await headers());
}
