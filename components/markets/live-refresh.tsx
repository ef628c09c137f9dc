"use client";
// Keeps a server-rendered page live (the watchlist, the embed card): joins each market's price channel
// (trades and probabilities) and re-renders the page on the server when one signals, at most once a second.
// Once every channel is joined (no signal can be missed from then on) it marks the document
// html[data-live-joined], which browser tests wait for before they write.
import { useEffect } from "react";
import { useRouter } from "next/navigation";
import { channelName } from "@/lib/realtime/channels";
import { subscribeChannel } from "@/lib/realtime/client";

export function LiveRefresh({ slugs }: { slugs: string[] }) {
  const router = useRouter();
  const key = slugs.join(",");
  useEffect(() => {
    if (!key) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          last = Date.now();
          router.refresh();
        },
        Math.max(0, 1000 - (Date.now() - last)),
      );
    };
    const channels = key.split(",").map((slug) => channelName(slug, "price"));
    const joined = new Set<string>();
    const offs = channels.map((channel) =>
      subscribeChannel(channel, {
        onSignal: refresh,
        onResync: refresh,
        onJoined: () => {
          joined.add(channel);
          if (joined.size === new Set(channels).size) document.documentElement.dataset.liveJoined = "true";
        },
      }),
    );
    return () => {
      clearTimeout(timer);
      for (const off of offs) off();
      delete document.documentElement.dataset.liveJoined;
    };
  }, [key, router]);
  return null;
}
