"use client";
// The live Activity panel: the tape through react-query (filled from the server's first page), kept by the
// trades channel (use-trades-channel.ts: each signal's trades appended, or a catch-up read), older pages
// read with the tape's before-cursor on "Load older". The polite live region sums up new trades at most
// every few seconds, never one announcement per trade.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { Outcome } from "@/lib/markets/schemas";
import { getTradesPage, tapeOptions, tradesUrl } from "@/lib/query/markets";
import { useTradesChannel } from "@/lib/realtime/use-trades-channel";
import { type HeldTape, withOlder } from "@/lib/markets/tape-follow";
import type { TapeScope } from "@/lib/ui/market-view";
import { ActivityPanelView, TAPE_ROW_H } from "./activity-panel-view";

/** New trades are announced at most this often (the count of all that came meanwhile). */
const ANNOUNCE_MS = 3000;
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

export function ActivityPanel({
  slug,
  outcomeId,
  outcomeName,
  outcomes,
  scope,
  onScopeChange,
  scopeHref,
}: {
  slug: string;
  outcomeId: string;
  outcomeName: string;
  outcomes: Pick<Outcome, "id" | "name" | "color" | "index">[];
  scope: TapeScope;
  onScopeChange: (s: TapeScope) => void;
  scopeHref?: (s: TapeScope) => string;
}) {
  useTradesChannel(slug);
  const queryClient = useQueryClient();
  const options = tapeOptions(slug, scope === "all" ? null : outcomeId);
  const tape = useQuery(options);
  const trades = tape.data?.trades ?? [];

  // New rows on top: keep the reader's place when scrolled down, and count them for the live region.
  const list = useRef<HTMLDivElement>(null);
  const seen = useRef<{ key: string; top?: string }>({ key: "" });
  const pendingCount = useRef(0);
  const [announcement, setAnnouncement] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const key = JSON.stringify(options.queryKey);
  useLayoutEffect(() => {
    const top = trades[0]?.id;
    const before = seen.current;
    seen.current = { key, top };
    if (before.key !== key || !before.top || before.top === top) return;
    const added = trades.findIndex((t) => t.id === before.top);
    if (added <= 0) return;
    if (list.current && list.current.scrollTop > 0) list.current.scrollTop += added * TAPE_ROW_H;
    pendingCount.current += added;
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      setAnnouncement(plural(pendingCount.current, "new trade"));
      pendingCount.current = 0;
    }, ANNOUNCE_MS);
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  const [loadingOlder, setLoadingOlder] = useState(false);
  const loadOlder = async () => {
    const held = tape.data;
    if (!held?.older || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = await getTradesPage(tradesUrl(slug, { outcomeId: scope === "all" ? null : outcomeId, before: held.older }));
      // Unless the tape was read anew meanwhile.
      queryClient.setQueryData<HeldTape>(options.queryKey, (now) => (now?.older === held.older ? withOlder(now, page) : now));
      setAnnouncement(page.trades.length ? `${plural(page.trades.length, "older trade")} loaded` : "No older trades");
    } catch {
      setAnnouncement("Couldn’t load older trades");
    } finally {
      setLoadingOlder(false);
    }
  };

  return (
    <ActivityPanelView
      trades={trades}
      outcomes={outcomes}
      scope={scope}
      outcomeName={outcomeName}
      hasOlder={!!tape.data?.older}
      loadingOlder={loadingOlder}
      onLoadOlder={() => void loadOlder()}
      onScopeChange={onScopeChange}
      scopeHref={scopeHref}
      announcement={announcement}
      pending={tape.isPending}
      error={tape.isError && !tape.data ? { onRetry: () => void tape.refetch() } : null}
      listRef={list}
    />
  );
}
