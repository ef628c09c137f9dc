// The market page's reads as one JSON text, the client root's (LiveSwap's) one big prop. React's RSC
// payload writes a string of 1 KB or more as a raw text row, while an object goes node by node through the
// server's serializer and, on the way back (the server render's own decode and the browser's), through a
// JSON.parse reviver called for every node: for the page's 10–15 KB of market, book, chart and tape that
// walk was about a tenth of a new page's server time. A text costs one JSON.stringify here and one native
// JSON.parse where it is read. The reads are JSON data already (the response cache checks that of what it
// keeps: CACHE_CHECK_JSON), so nothing is lost on the way; a property set to undefined is left out, as
// the browser would not tell the difference.
//
// The first view's reads (FirstReads) are the same objects as the query cache's data: each is written once,
// as the index of its query, and is that query's data again once read.
import type { DehydratedState } from "@tanstack/react-query";
import type { FirstReads } from "./market-first";

interface Packed {
  state: DehydratedState;
  /** FirstReads' own values, without those that are a query's data. */
  first: Partial<FirstReads>;
  /** FirstReads' values that are a query's data: the index of that query in `state.queries`. */
  refs: Partial<Record<keyof FirstReads, number>>;
}

export function packPageData(state: DehydratedState, first: FirstReads): string {
  const own: Record<string, unknown> = {};
  const refs: Record<string, number> = {};
  for (const [key, value] of Object.entries(first)) {
    const i = typeof value === "object" && value !== null ? state.queries.findIndex((q) => q.state.data === value) : -1;
    if (i >= 0) refs[key] = i;
    else own[key] = value;
  }
  return JSON.stringify({ state, first: own, refs } satisfies Packed);
}

export function unpackPageData(text: string): { state: DehydratedState; first: FirstReads } {
  const { state, first, refs } = JSON.parse(text) as Packed;
  const reads = { ...first } as Record<string, unknown>;
  for (const [key, i] of Object.entries(refs)) reads[key] = state.queries[i as number].state.data;
  return { state, first: reads as unknown as FirstReads };
}
