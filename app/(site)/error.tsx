"use client";
import { useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";

export default function SiteError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // The error came from the server render: reset alone would re-render the same failed payload, so the
  // server renders the page again first.
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });
  return (
    <div role="alert" className="mx-auto flex max-w-lg flex-col items-center gap-3 py-20 text-center">
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The page could not be loaded{error.digest ? ` (ref ${error.digest})` : ""}. Try again in a moment.
      </p>
      <Button variant="primary" onClick={retry} disabled={pending}>
        Retry
      </Button>
    </div>
  );
}
