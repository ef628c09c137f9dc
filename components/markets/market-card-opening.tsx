"use client";
// The one client part of a market card: useLinkStatus needs the browser.
import { useLinkStatus } from "next/link";

/** While the clicked card's page is on its way (it is not prefetched: see load-market.ts), the card says so. */
export function Opening() {
  const { pending } = useLinkStatus();
  if (!pending) return null;
  return (
    <span
      role="status"
      className="absolute right-3 top-3 z-10 inline-flex items-center gap-1.5 rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-medium text-white shadow-sm"
    >
      <span aria-hidden="true" className="size-3 rounded-full border-2 border-white/40 border-t-white motion-safe:animate-spin" />
      Loading market…
    </span>
  );
}
