"use client";
// The live order book: react-query's copy (filled by the server, replaced by each orderbook signal's book).
import { useQuery } from "@tanstack/react-query";
import { orderBookOptions } from "@/lib/query/markets";
import { OrderBookView } from "./order-book-view";

export function OrderBookLadder({ slug, outcomeId, outcomeName, venue }: { slug: string; outcomeId: string; outcomeName: string; venue: string | null }) {
  const book = useQuery(orderBookOptions(slug, outcomeId));
  return (
    <OrderBookView
      outcomeName={outcomeName}
      venue={venue}
      book={book.data}
      stale={book.isPlaceholderData}
      error={book.isError ? { message: book.error.message, onRetry: () => void book.refetch() } : null}
    />
  );
}
