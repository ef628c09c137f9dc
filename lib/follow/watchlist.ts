// The watchlist without an account: market ids in one cookie, newest star first, at most WATCHLIST_MAX.
// The server reads it to render the stars and /watchlist; the star's form posts to /watchlist/star,
// which writes it (app/(site)/watchlist/star/route.ts). Pure: shared by the route, pages and tests.
import { isUuid } from "@/lib/markets/schemas";

export const WATCHLIST_COOKIE = "watchlist";
/** 100 ids of 36 characters and their commas: 3,699 bytes, inside the 4,096 a browser keeps per cookie. */
export const WATCHLIST_MAX = 100;
/** A year; every star renews it. */
export const WATCHLIST_MAX_AGE_S = 365 * 24 * 3600;

/** The ids a cookie value holds: UUIDs only, lower case, each once, at most WATCHLIST_MAX; anything else is dropped. */
export function parseWatchlist(value: string | undefined | null): string[] {
  if (!value) return [];
  const ids: string[] = [];
  for (const raw of value.split(",")) {
    const id = raw.trim().toLowerCase();
    if (isUuid(id) && !ids.includes(id)) ids.push(id);
    if (ids.length === WATCHLIST_MAX) break;
  }
  return ids;
}

export const serializeWatchlist = (ids: string[]) => ids.join(",");

export type StarResult = { ids: string[]; starred: boolean; full: boolean };

/**
 * Stars or unstars one market. `want` says which (the form knows what it showed); without it the
 * market's mark flips. A full list refuses a new star (the market stays unstarred, `full` says why).
 */
export function starMarket(ids: string[], id: string, want?: boolean): StarResult {
  const has = ids.includes(id);
  const on = want ?? !has;
  if (!on) return { ids: ids.filter((x) => x !== id), starred: false, full: false };
  if (has) return { ids, starred: true, full: false };
  if (ids.length >= WATCHLIST_MAX) return { ids, starred: false, full: true };
  return { ids: [id, ...ids], starred: true, full: false };
}

/** Where the form sends the reader back to: a path on this site only (never //host or a scheme), else /watchlist. */
export function safeBackPath(back: unknown): string {
  if (typeof back !== "string" || !back.startsWith("/") || back.startsWith("//") || back.startsWith("/\\") || back.length > 2000) return "/watchlist";
  for (let i = 0; i < back.length; i++) if (back.charCodeAt(i) < 0x20) return "/watchlist"; // no control characters in a header
  return back;
}
