"use client";
// The market page's actions: the watchlist star and the embed code (a <details> with the code and a copy
// button). Handed to the page's layout as a slot, identical before and after the live swap. A client
// component, so the page's RSC payload carries its four props rather than its markup.
import { buttonClass } from "@/components/ui/button";
import { CopyButton } from "./copy-button";
import { StarForm } from "./star-form";

export function ShareActions({ marketId, starred, back, embedCode }: { marketId: string; starred: boolean; back: string; embedCode: string }) {
  return (
    <div className="flex flex-wrap items-start gap-2" data-testid="market-actions">
      <StarForm marketId={marketId} starred={starred} back={back} label="Star this market" text />
      <details className="min-w-0 open:basis-full">
        <summary className={`${buttonClass("secondary", "sm")} h-9 cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>Embed</summary>
        <div className="mt-2 flex w-full max-w-lg flex-col gap-2 rounded-xl border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
          <label htmlFor="embed-code" className="text-sm font-medium">
            Embed this market on your site
          </label>
          <textarea
            id="embed-code"
            readOnly
            rows={3}
            value={embedCode}
            className="w-full resize-none rounded-lg border border-zinc-300 bg-zinc-50 p-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
          />
          <CopyButton text={embedCode} label="Copy embed code" className={`${buttonClass("primary", "sm")} self-start`} />
        </div>
      </details>
    </div>
  );
}
