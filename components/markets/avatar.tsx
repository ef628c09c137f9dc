import { cn } from "@/lib/ui/cn";
import { cssUrl } from "./market-image";

/**
 * A user's picture over their initial on a tinted disc: with no picture, or one whose URL does not load,
 * the initial shows (a CSS background fails silently, where an <img> shows the broken-image icon).
 */
export function Avatar({ src, name, size = 32, className }: { src: string | null; name: string; size?: number; className?: string }) {
  return (
    <span
      aria-hidden="true"
      data-testid="avatar"
      className={cn(
        "relative inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-zinc-200 text-xs font-semibold uppercase text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200",
        className,
      )}
      style={{ width: size, height: size }}
    >
      {name.charAt(0)}
      {src && <span className="absolute inset-0 bg-cover bg-center" style={{ backgroundImage: cssUrl(src) }} />}
    </span>
  );
}
