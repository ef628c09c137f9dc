"use client";
// Freshness of the page's data: joins the market's push channels (each signal only invalidates
// marketKeys.detail/orderBooks/histories of the slug) and shows whether they are live and how long
// ago they last heard from the server (a signal or a heartbeat), ticking once a second.
import { useEffect, useState } from "react";
import { useIsFetching } from "@tanstack/react-query";
import { marketKeys } from "@/lib/query/keys";
import { useMarketChannel, useMarketFreshness } from "@/lib/realtime/use-market-channel";
import { LiveStatusView } from "./live-status-view";

export function LiveStatus({ slug, updatedAt }: { slug: string; updatedAt: number }) {
  const status = useMarketChannel(slug);
  const { heardAt, interval } = useMarketFreshness(slug);
  const fetching = useIsFetching({ queryKey: marketKeys.all }) > 0;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const freshness = heardAt > 0 ? { ageS: (Math.max(now, heardAt) - heardAt) / 1000, stale: interval > 0 && now - heardAt > interval + 1000 } : null;
  return <LiveStatusView slug={slug} status={status} updatedAt={updatedAt} fetching={fetching} freshness={freshness} />;
}
