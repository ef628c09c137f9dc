"use client";
// Keeps the Activity panel's tapes (marketKeys.tapes) following the market's trades channel: each signal is
// applied by the client rule of docs/api.md "Push channels" (lib/markets/tape-follow.ts): its trades appended when it
// continues the held tape, otherwise a catch-up read. Signals are handled one after another, so a catch-up
// and the next signal never interleave. Tapes nobody shows are dropped (they are read again when shown).
import { useEffect, useRef } from "react";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { marketKeys } from "@/lib/query/keys";
import { getTradesPage, tradesUrl } from "@/lib/query/markets";
import { channelName, type Signal } from "./channels";
import { subscribeChannel } from "./client";
import { followSignal, type HeldTape, type TradesSignalData } from "@/lib/markets/tape-follow";

async function follow(queryClient: QueryClient, slug: string, signal: TradesSignalData) {
  const readAfter = (after: string) => getTradesPage(tradesUrl(slug, { after, limit: 100 }));
  for (const query of queryClient.getQueryCache().findAll({ queryKey: marketKeys.tapes(slug) })) {
    const held = query.state.data as HeldTape | undefined;
    if (query.getObserversCount() === 0) {
      queryClient.getQueryCache().remove(query);
      continue;
    }
    if (!held) continue;
    const outcomeId = (query.queryKey as ReturnType<typeof marketKeys.tape>)[3];
    const next = await followSignal(held, signal, outcomeId, readAfter).catch(() => "reload" as const);
    if (next === "reload") void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
    // Unless the tape was read anew meanwhile (its data is not the one this followed).
    else if (query.state.data === held) queryClient.setQueryData(query.queryKey, next);
  }
}

export function useTradesChannel(slug: string) {
  const queryClient = useQueryClient();
  const handler = useRef((signal: TradesSignalData) => follow(queryClient, slug, signal));
  useEffect(() => {
    handler.current = (signal) => follow(queryClient, slug, signal);
  });

  useEffect(() => {
    let queue = Promise.resolve();
    const next = (signal: TradesSignalData) => {
      queue = queue.then(() => handler.current(signal)).catch(() => {});
    };
    return subscribeChannel(channelName(slug, "trades"), {
      onSignal: (signal: Signal) => next(signal),
      // Reconnected: signals may have been missed; a signal without trades makes every tape catch up.
      onResync: () => next({}),
      // Joined: catch up on what traded between the read of the first page (the server's) and the join.
      onJoined: () => next({}),
    });
  }, [slug]);
}
