"use client";
// The market page's client root: renders the first view from the server's reads (market-first.tsx, no
// hooks, the same on the server and at hydration), imports the live view (react-query, push channels,
// chart) right after hydration and swaps it in. Both render the same markup from the same data
// (market-body.tsx), so the swap moves nothing.
// html[data-hydrated] waits for the swap: the page is fully interactive once the live view is in.
import { useEffect, useMemo, useState } from "react";
import type { DayAgoPrices } from "@/lib/markets/moves";
import { MarketFirst } from "./market-first";
import { unpackPageData } from "./page-data";

type Live = typeof import("./market-live").MarketLive;

/** `dayAgo` and `actions` (server-rendered star and embed code) go to both views unchanged. */
export function LiveSwap({
  slug,
  data,
  nowS,
  dayAgo,
  actions,
}: {
  slug: string;
  /** The query cache's state and the first view's reads, as one JSON text (page-data.ts). */
  data: string;
  nowS: number;
  dayAgo?: DayAgoPrices;
  actions?: React.ReactNode;
}) {
  const { state, first } = useMemo(() => unpackPageData(data), [data]);
  const [Live, setLive] = useState<Live | null>(null);
  useEffect(() => {
    let on = true;
    // The chart's mode, when it is not the line, loads before the swap, so the swap draws it at once.
    const mode = new URLSearchParams(window.location.search).get("chart");
    void import("./market-live").then((m) => m.preloadChartMode(mode).then(() => on && setLive(() => m.MarketLive)));
    return () => {
      on = false;
    };
  }, []);
  useEffect(() => {
    if (Live) {
      document.documentElement.dataset.hydrated = "true";
      return;
    }
    // Until the live view is in, a click on an outcome or a chart range still chooses it: its URL
    // (data-href) is pushed now, and the live view reads the view from the URL when it mounts.
    const onClick = (e: MouseEvent) => {
      const href = e.target instanceof Element ? e.target.closest<HTMLElement>("[data-live] [data-href]")?.dataset.href : undefined;
      if (href) window.history.pushState(null, "", href);
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [Live]);
  return (
    <div data-live={Live ? "on" : "pending"} className="contents">
      {Live ? (
        <Live slug={slug} state={state} nowS={nowS} dayAgo={dayAgo} actions={actions} />
      ) : (
        <MarketFirst reads={first} dayAgo={dayAgo} actions={actions} />
      )}
    </div>
  );
}
