"use client";
// Freshness of the page's data: joins the market's push channels (each signal only invalidates
// marketKeys.detail/orderBooks/histories of the slug) and shows whether they are live.
import { useIsFetching } from "@tanstack/react-query";
import { marketKeys } from "@/lib/query/keys";
import { useMarketChannel } from "@/lib/realtime/use-market-channel";
import { LiveStatusView } from "./live-status-view";

export function LiveStatus({ slug, updatedAt }: { slug: string; updatedAt: number }) {
  const status = useMarketChannel(slug);
  const fetching = useIsFetching({ queryKey: marketKeys.all }) > 0;
  return <LiveStatusView slug={slug} status={status} updatedAt={updatedAt} fetching={fetching} />;
}
