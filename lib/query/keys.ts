// Query keys from one factory, used by server prefetch, client hooks and realtime invalidation alike.
// Hierarchical so a push signal can invalidate by prefix (every outcome or range of one market).
export const marketKeys = {
  all: ["markets"] as const,
  detail: (slug: string) => [...marketKeys.all, "detail", slug] as const,
  orderBooks: (slug: string) => [...marketKeys.all, "orderbook", slug] as const,
  orderBook: (slug: string, outcomeId: string) => [...marketKeys.orderBooks(slug), outcomeId] as const,
  /** A past book (replay): outside orderBooks(slug), so the book channel's invalidations leave it be. */
  bookAt: (slug: string, outcomeId: string, ts: number) => [...marketKeys.all, "book-at", slug, outcomeId, ts] as const,
  /** The times of a book's changes in a stretch (the replay scrubber's marks). */
  bookChanges: (slug: string, outcomeId: string, startTs: number, endTs: number) =>
    [...marketKeys.all, "book-changes", slug, outcomeId, startTs, endTs] as const,
  histories: (slug: string) => [...marketKeys.all, "history", slug] as const,
  history: (slug: string, outcomeId: string, range: { startTs?: number; endTs?: number; fidelity: number } | string) =>
    [...marketKeys.histories(slug), outcomeId, range] as const,
  /** Every outcome's history over one range, read in one batch (the chart's "All outcomes" mode). */
  outcomeHistories: (slug: string, outcomeIds: readonly string[], range: { startTs?: number; fidelity: number }) =>
    [...marketKeys.histories(slug), "outcomes", outcomeIds, range] as const,
  candles: (slug: string) => [...marketKeys.all, "candles", slug] as const,
  candle: (slug: string, outcomeId: string, range: { interval: string; startTs: number }) => [...marketKeys.candles(slug), outcomeId, range] as const,
  /** The trade tapes the page holds: one per filter (an outcome, or null for all of them). */
  tapes: (slug: string) => [...marketKeys.all, "trades", slug] as const,
  tape: (slug: string, outcomeId: string | null) => [...marketKeys.tapes(slug), outcomeId] as const,
};
