"use client";
// Keeps a server-rendered page live (the watchlist, the embed card): joins each market's price channel
// (trades and probabilities) and re-renders the page on the server when one signals, at most once a second.
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
    const offs = key.split(",").map((slug) => subscribeChannel(channelName(slug, "price"), { onSignal: refresh, onResync: refresh }));
    return () => {
      clearTimeout(timer);
      for (const off of offs) off();
    };
  }, [key, router]);
  return null;
}
