"use client";
// Keeps one market's queries fresh: joins its price and orderbook channels while mounted and turns
// each signal into a react-query invalidation (the socket never writes component state).
import { useEffect, useRef, useSyncExternalStore } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { marketKeys } from "@/lib/query/keys";
import { CHANNEL_KINDS, channelName, type ChannelKind } from "./channels";
import { getServerStatus, getStatus, subscribeChannel, subscribeStatus, type RealtimeStatus } from "./client";

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(subscribeStatus, getStatus, getServerStatus);
}

export function useMarketChannel(slug: string): RealtimeStatus {
  const queryClient = useQueryClient();
  const invalidate = (kind: ChannelKind) => {
    if (kind === "price") {
      void queryClient.invalidateQueries({ queryKey: marketKeys.histories(slug) });
      void queryClient.invalidateQueries({ queryKey: marketKeys.detail(slug) });
    } else {
      void queryClient.invalidateQueries({ queryKey: marketKeys.orderBooks(slug) });
    }
  };
  const handler = useRef(invalidate);
  useEffect(() => {
    handler.current = invalidate;
  });

  useEffect(() => {
    const unsubscribe = CHANNEL_KINDS.map((kind) =>
      subscribeChannel(channelName(slug, kind), {
        onSignal: () => handler.current(kind),
        onResync: () => handler.current(kind),
      }),
    );
    return () => {
      for (const u of unsubscribe) u();
    };
  }, [slug]);

  return useRealtimeStatus();
}
