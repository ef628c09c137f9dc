"use client";
// The ladder's replay (docs/api.md "Past books"): a time scrubber over the retained history (the last hour, or 6 or 24
// on request) that shows the book as it was (GET …/orderbook/at), with its time and version, and a way
// back to live. Imported by order-book-ladder.tsx on the first click on Replay, so it costs nothing before.
import { useEffect, useId, useRef, useState } from "react";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { OrderBook } from "@/lib/markets/schemas";
import { getJson, getJsonWithHeaders, HttpError } from "@/lib/query/markets";
import { marketKeys } from "@/lib/query/keys";
import { Button } from "@/components/ui/button";
import { OrderBookView } from "./order-book-view";

// The replay's reads live here, with the code that loads on the first click (not in the live chunk).
/** A past book with its version and that version's time (headers Book-Version, Book-Version-Time). */
interface PastBook {
  book: OrderBook;
  version: number;
  /** ISO 8601; null for version 0 */
  versionAt: string | null;
}

/** The book of one outcome as it was at `ts` (unix seconds): docs/api.md "Past books". Immutable once later versions exist. */
const bookAtOptions = (slug: string, outcomeId: string, ts: number) =>
  queryOptions({
    queryKey: marketKeys.bookAt(slug, outcomeId, ts),
    queryFn: async ({ signal }): Promise<PastBook> => {
      // Past books never change: the browser's HTTP cache may answer them.
      const url = `/v1/markets/slug/${encodeURIComponent(slug)}/orderbook/at?outcomeId=${encodeURIComponent(outcomeId)}&ts=${ts}`;
      const { body, headers } = await getJsonWithHeaders<OrderBook>(url, signal, "default");
      return { book: body, version: Number(headers.get("Book-Version") ?? 0), versionAt: headers.get("Book-Version-Time") };
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: (count, err) => !(err instanceof HttpError && err.status < 500) && count < 2,
    placeholderData: keepPreviousData,
  });

/**
 * The versions and times (unix seconds) of a book's changes from startTs to endTs: docs/api.md "Past books"
 * (…/orderbook/changes). One page of up to 1,000, the earliest; enough to mark a scrubber.
 */
const bookChangeTimesOptions = (slug: string, outcomeId: string, startTs: number, endTs: number) =>
  queryOptions({
    queryKey: marketKeys.bookChanges(slug, outcomeId, startTs, endTs),
    queryFn: async ({ signal }) => {
      const q = new URLSearchParams({ outcomeId, startTs: String(startTs), endTs: String(endTs), limit: "1000" });
      const body = await getJson<{ changes: Array<{ version: number; at: string }> }>(
        `/v1/markets/slug/${encodeURIComponent(slug)}/orderbook/changes?${q}`,
        signal,
      );
      return body.changes.map((c) => ({ version: c.version, at: Date.parse(c.at) / 1000 }));
    },
    staleTime: Number.POSITIVE_INFINITY,
  });

const WINDOWS = [
  { hours: 1, label: "Last hour" },
  { hours: 6, label: "Last 6 hours" },
  { hours: 24, label: "Last 24 hours" },
] as const;

/** Waits this long after the scrubber stops before asking for the book (dragging fires many changes). */
const DEBOUNCE_MS = 250;

const nowSeconds = () => Math.floor(Date.now() / 1000);

function formatMoment(ts: number, withDate: boolean) {
  return new Date(ts * 1000).toLocaleString(undefined, {
    ...(withDate ? { month: "short", day: "numeric" } : {}),
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

export function OrderBookReplay({
  slug,
  outcomeId,
  outcomeName,
  venue,
  minHeight,
  onExit,
}: {
  slug: string;
  outcomeId: string;
  outcomeName: string;
  venue: string | null;
  /** The live ladder's height when replay began: held, so switching moves nothing below it. */
  minHeight?: number;
  onExit: () => void;
}) {
  // The keyboard goes on to the scrubber whenever replay opens (this mounts then), however late its code came.
  const scrubber = useRef<HTMLInputElement>(null);
  useEffect(() => scrubber.current?.focus(), []);
  const [hours, setHours] = useState<number>(1);
  const [end, setEnd] = useState(nowSeconds);
  const start = end - hours * 3600;
  const [ts, setTs] = useState(end);
  const [queryTs, setQueryTs] = useState(end);
  useEffect(() => {
    const t = setTimeout(() => setQueryTs(ts), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [ts]);

  const past = useQuery(bookAtOptions(slug, outcomeId, queryTs));
  // The whole seconds at which each change of the window is first in force: marks on the scrubber, and stops
  // for the previous/next change buttons.
  const changes = useQuery(bookChangeTimesOptions(slug, outcomeId, start, end));
  const stops = [...new Set((changes.data ?? []).map((c) => Math.ceil(c.at)).filter((t) => t >= start && t <= end))];
  const prev = stops.findLast((t) => t < ts);
  const next = stops.find((t) => t > ts);
  const marksId = useId();
  const withDate = hours > 1;
  const windowId = useId();
  const rangeId = useId();
  const moment = formatMoment(ts, withDate);

  const asOf = past.isError
    ? "Not recorded at this moment"
    : past.data && !past.isPlaceholderData
      ? `As of ${formatMoment(queryTs, withDate)} · version ${past.data.version}${
          past.data.versionAt ? ` (since ${formatMoment(Date.parse(past.data.versionAt) / 1000, withDate)})` : ""
        }`
      : "Loading…";

  const controls = (
    <div role="group" aria-label="Replay the order book" className="flex flex-col gap-2 border-b border-zinc-200 px-4 py-3 text-xs dark:border-zinc-800">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={windowId} className="text-zinc-600 dark:text-zinc-400">
          Window
        </label>
        <select
          id={windowId}
          value={hours}
          onChange={(e) => {
            const next = Number(e.target.value);
            const now = nowSeconds();
            setHours(next);
            setEnd(now);
            setTs((t) => Math.min(now, Math.max(now - next * 3600, t)));
          }}
          className="h-7 rounded-md border border-zinc-300 bg-white px-1.5 text-xs dark:border-zinc-700 dark:bg-zinc-900"
        >
          {WINDOWS.map((w) => (
            <option key={w.hours} value={w.hours}>
              {w.label}
            </option>
          ))}
        </select>
        <Button size="sm" variant="secondary" className="ml-auto h-7 text-xs" onClick={onExit} data-testid="replay-live">
          Back to live
        </Button>
      </div>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={rangeId} className="font-medium">
          Moment
        </label>
        <output htmlFor={rangeId} className="tabular text-zinc-600 dark:text-zinc-400" data-testid="replay-moment">
          {moment}
        </output>
      </div>
      <input
        id={rangeId}
        type="range"
        min={start}
        max={end}
        step={1}
        value={ts}
        list={stops.length ? marksId : undefined}
        aria-valuetext={moment}
        onChange={(e) => setTs(Number(e.target.value))}
        className="h-6 w-full cursor-pointer accent-indigo-600 dark:accent-indigo-400"
        data-testid="replay-scrubber"
        ref={scrubber}
      />
      {stops.length > 0 && (
        <datalist id={marksId}>
          {stops.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      )}
      <div className="flex items-center gap-2">
        <Button size="sm" className="h-7 text-xs" disabled={prev === undefined} onClick={() => prev !== undefined && setTs(prev)}>
          Previous change
        </Button>
        <Button size="sm" className="h-7 text-xs" disabled={next === undefined} onClick={() => next !== undefined && setTs(next)}>
          Next change
        </Button>
        <span className="ml-auto tabular text-zinc-600 dark:text-zinc-400" data-testid="replay-changes">
          {changes.data ? `${changes.data.length}${changes.data.length >= 1000 ? "+" : ""} ${changes.data.length === 1 ? "change" : "changes"}` : ""}
        </span>
      </div>
      <p aria-live="polite" title={asOf} className="min-h-4 truncate tabular text-zinc-700 dark:text-zinc-300" data-testid="replay-as-of">
        {asOf}
      </p>
    </div>
  );

  return (
    <OrderBookView
      outcomeName={outcomeName}
      venue={venue}
      book={past.isError ? undefined : past.data?.book}
      stale={past.isPlaceholderData || ts !== queryTs}
      error={past.isError ? { message: past.error.message, onRetry: () => void past.refetch() } : null}
      replay={{ on: true, onToggle: onExit, controls, minHeight }}
    />
  );
}
