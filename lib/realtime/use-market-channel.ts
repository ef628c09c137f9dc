"use client";
// Keeps one market's queries fresh: joins its price and orderbook channels while mounted and turns
// each signal into a react-query invalidation (the socket never writes component state). The trades
// channel is the Activity panel's (use-trades-channel.ts).
import { useEffect, useRef, useSyncExternalStore } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { marketKeys } from "@/lib/query/keys";
import type { OrderBook } from "@/lib/markets/schemas";
import type { ChannelKind } from "@/lib/events/channel-kinds";
import { channelName, type Signal } from "./channels";
import { getHeard, getServerStatus, getStatus, subscribeChannel, subscribeHeard, subscribeStatus, type RealtimeStatus } from "./client";

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(subscribeStatus, getStatus, getServerStatus);
}

export function useMarketChannel(slug: string): RealtimeStatus {
  const queryClient = useQueryClient();
  const invalidate = (kind: ChannelKind, signal?: Signal) => {
    if (kind === "price") {
      void queryClient.invalidateQueries({ queryKey: marketKeys.histories(slug) });
      // Candles change only with trades, which signal the price channel (docs/api.md "Candles").
      void queryClient.invalidateQueries({ queryKey: marketKeys.candles(slug) });
      void queryClient.invalidateQueries({ queryKey: marketKeys.detail(slug) });
    } else if (signal?.book && signal.outcomeId) {
      // The signal carries the new book: show it without a request (a fetch in flight may predate it).
      const key = marketKeys.orderBook(slug, signal.outcomeId);
      void queryClient.cancelQueries({ queryKey: key, exact: true });
      queryClient.setQueryData(key, signal.book as OrderBook);
    } else {
      void queryClient.invalidateQueries({ queryKey: marketKeys.orderBooks(slug) });
    }
  };
  const handler = useRef(invalidate);
  useEffect(() => {
    handler.current = invalidate;
  });

  useEffect(() => {
    const unsubscribe = (["price", "orderbook"] as const).map((kind) =>
      subscribeChannel(channelName(slug, kind), {
        onSignal: (signal) => handler.current(kind, signal),
        onResync: () => handler.current(kind),
      }),
    );
    return () => {
      for (const u of unsubscribe) u();
    };
  }, [slug]);

  return useRealtimeStatus();
}

const noHeard = () => 0;

/**
 * When the market's channels (price, orderbook) last heard from the server, a signal or a heartbeat
 * (ms since the epoch; 0: not yet), and the heartbeat interval they announced (ms; 0: none heard yet).
 */
export function useMarketFreshness(slug: string): { heardAt: number; interval: number } {
  const names = [channelName(slug, "price"), channelName(slug, "orderbook")];
  const heardAt = useSyncExternalStore(subscribeHeard, () => Math.max(0, ...names.map((n) => getHeard(n)?.at ?? 0)), noHeard);
  const interval = useSyncExternalStore(subscribeHeard, () => Math.max(0, ...names.map((n) => getHeard(n)?.interval ?? 0)), noHeard);
  return { heardAt, interval };
}
