"use client";
import { Button } from "@/components/ui/button";

export default function SiteError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="mx-auto flex max-w-lg flex-col items-center gap-3 py-20 text-center">
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The page could not be loaded{error.digest ? ` (ref ${error.digest})` : ""}. Try again in a moment.
      </p>
      <Button variant="primary" onClick={reset}>
        Retry
      </Button>
    </div>
  );
}
