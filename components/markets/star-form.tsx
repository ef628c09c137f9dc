// The watchlist star: a plain form posting to /watchlist/star, which sets the cookie and sends the reader
// back (303). Works without JavaScript and costs the list no client code; the server renders its state.
// On cards it is styled by the .star classes (app/globals.css), short markup on every card.
import { cn } from "@/lib/ui/cn";

export const STAR_ACTION = "/watchlist/star";

function StarIcon({ on }: { on: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-5"
      fill={on ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
    >
      <path d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
    </svg>
  );
}

/**
 * `label` names the market for screen readers (cards); `text` shows a word beside the star (the market
 * page). `back` is where the reader returns, a path on this site.
 */
export function StarForm({
  marketId,
  starred,
  back,
  label,
  text = false,
  className,
}: {
  marketId: string;
  starred: boolean;
  back: string;
  label: string;
  text?: boolean;
  className?: string;
}) {
  return (
    <form method="post" action={STAR_ACTION} className={cn("star-form", className)}>
      <input type="hidden" name="id" value={marketId} />
      <input type="hidden" name="want" value={starred ? "off" : "on"} />
      <input type="hidden" name="back" value={back} />
      <button
        type="submit"
        aria-pressed={starred}
        aria-label={text ? undefined : label}
        className={
          text
            ? "inline-flex h-9 items-center gap-1.5 rounded-lg border border-zinc-300 px-3 text-sm font-medium hover:bg-zinc-100 aria-pressed:text-amber-600 dark:border-zinc-700 dark:hover:bg-zinc-800 dark:aria-pressed:text-amber-400"
            : "star"
        }
      >
        <StarIcon on={starred} />
        {text && <span className="text-zinc-800 dark:text-zinc-100">{starred ? "Starred" : "Star"}</span>}
      </button>
    </form>
  );
}
