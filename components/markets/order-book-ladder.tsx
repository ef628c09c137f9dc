"use client";
// The live order book: react-query's copy (filled by the server, replaced by each orderbook signal's book).
// Replay (order-book-replay.tsx, imported on the first click) swaps in the book as it was at a chosen moment.
import { useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { orderBookOptions } from "@/lib/query/markets";
import { OrderBookView } from "./order-book-view";

type Replay = typeof import("./order-book-replay").OrderBookReplay;

export function OrderBookLadder({ slug, outcomeId, outcomeName, venue }: { slug: string; outcomeId: string; outcomeName: string; venue: string | null }) {
  const book = useQuery(orderBookOptions(slug, outcomeId));
  const [Replay, setReplay] = useState<Replay | null>(null);
  const [replaying, setReplaying] = useState(false);
  const [height, setHeight] = useState<number>();
  const box = useRef<HTMLDivElement>(null);

  const focus = (testId: string) => requestAnimationFrame(() => box.current?.querySelector<HTMLElement>(`[data-testid=${testId}]`)?.focus());
  const start = () => {
    setHeight(box.current?.querySelector<HTMLElement>("[data-testid=book-body]")?.offsetHeight);
    // The replay view takes the keyboard to its scrubber when it mounts.
    if (Replay) {
      setReplaying(true);
      return;
    }
    void import("./order-book-replay").then((m) => {
      setReplay(() => m.OrderBookReplay);
      setReplaying(true);
    });
  };
  const stop = () => {
    setReplaying(false);
    // Back on the toggle, where the keyboard was before replay began.
    focus("replay-toggle");
  };

  return (
    <div ref={box}>
      {replaying && Replay ? (
        <Replay key={outcomeId} slug={slug} outcomeId={outcomeId} outcomeName={outcomeName} venue={venue} minHeight={height} onExit={stop} />
      ) : (
        <OrderBookView
          outcomeName={outcomeName}
          venue={venue}
          book={book.data}
          stale={book.isPlaceholderData}
          error={book.isError ? { message: book.error.message, onRetry: () => void book.refetch() } : null}
          replay={{ on: false, onToggle: start }}
        />
      )}
    </div>
  );
}
