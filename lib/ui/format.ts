// Display formatting shared by server and client components: money, probabilities, cents, shares, times.
// A time shown relative to now tells the page cache when it next reads differently (lib/ui/clock.ts).
import { clockRead } from "./clock";

const compactUsd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  notation: "compact",
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const shares = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat("en-US");

/** 1234567 → "$1.2M" */
export const formatUsdCompact = (n: number) => compactUsd.format(n);
/** 1234567 → "$1,234,567" */
export const formatUsd = (n: number) => usd.format(n);
/** 1234 → "1,234" */
export const formatInt = (n: number) => integer.format(n);
/** "1234.50" → "1,234.50" */
export const formatShares = (n: number | string) => shares.format(Number(n));

/** Percent 0..100 → "63%" or "63.4%" (one decimal only where it carries information; <1% and >99% stay visible). */
export function formatPercent(pct: number) {
  if (pct > 0 && pct < 1) return "<1%";
  if (pct < 100 && pct > 99) return ">99%";
  const rounded = Math.round(pct * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
}

/** Price 0..1 (number or "0.555") → "55.5¢" */
export function formatCents(price: number | string) {
  return `${(Number(price) * 100).toFixed(1)}¢`;
}

/** Fee fraction 0..1 → "2%" / "0.5%" */
export function formatFee(fee: number) {
  return `${Number((fee * 100).toFixed(2))}%`;
}

const dateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });
export const formatDateTime = (iso: string | number | Date) => dateTime.format(new Date(iso));
export const formatDate = (iso: string | number | Date) => dateOnly.format(new Date(iso));

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86400],
  ["month", 30 * 86400],
  ["week", 7 * 86400],
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 hours ago", "in 2 days", "now" */
export function formatRelative(iso: string | number | Date, now = Date.now()) {
  clockRead(relativeChangesAt(iso, now));
  const diffS = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(diffS) >= size) return relative.format(Math.round(diffS / size), unit);
  }
  return "just now";
}

/**
 * When formatRelative(iso, ·) first reads differently after `now`, in Unix ms (at most 1 ms early): a page
 * showing it holds until then (lib/cache/render-record.ts). The text is a step function of the seconds
 * between `iso` and now, which shrink (future) or grow (past) as time passes.
 */
export function relativeChangesAt(iso: string | number | Date, now = Date.now()): number {
  const at = new Date(iso).getTime();
  const diffS = (at - now) / 1000;
  const i = UNITS.findIndex(([, size]) => Math.abs(diffS) >= size);
  if (i < 0) return at + 60_000; // "just now" until a minute after
  const size = UNITS[i][1];
  const k = Math.abs(Math.round(diffS / size));
  if (diffS > 0) {
    // Counting down: the rounded count drops below k - 0.5 units, or the unit drops below one.
    return at - Math.max(k - 0.5, 1) * size * 1000;
  }
  // Counting up: the count rounds to k + 1 past k + 0.5 units, or the next larger unit is reached.
  const rounds = at + (k + 0.5) * size * 1000;
  return i > 0 ? Math.min(rounds, at + UNITS[i - 1][1] * 1000) : rounds;
}

/** Time left until `iso`: "5d 3h left", "2h 10m left", "Ended". */
export function formatTimeLeft(iso: string, now = Date.now()) {
  clockRead(timeLeftChangesAt(iso, now));
  const s = Math.floor((new Date(iso).getTime() - now) / 1000);
  if (s <= 0) return "Ended";
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d >= 30) return `Ends ${formatDate(iso)}`;
  if (d > 0) return `${d}d ${h}h left`;
  if (h > 0) return `${h}h ${m}m left`;
  return `${Math.max(1, m)}m left`;
}

/**
 * When formatTimeLeft(iso, ·) first reads differently after `now`, in Unix ms (at most 1 ms early;
 * Infinity once it reads "Ended"): the text depends on the whole seconds left only through the step they
 * are in (30 days and more, the hour, the minute; under two minutes it reads "1m left" to the end).
 */
export function timeLeftChangesAt(iso: string, now = Date.now()): number {
  const end = new Date(iso).getTime();
  const s = Math.floor((end - now) / 1000);
  if (s <= 0) return Infinity;
  const step = s >= 30 * 86400 ? 30 * 86400 : s >= 86400 ? Math.floor(s / 3600) * 3600 : s >= 120 ? Math.floor(s / 60) * 60 : 1;
  return end - step * 1000;
}
