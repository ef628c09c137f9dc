import { cn } from "@/lib/ui/cn";

/** A user's picture, or their initial on a tinted disc when there is none. */
export function Avatar({ src, name, size = 32, className }: { src: string | null; name: string; size?: number; className?: string }) {
  const cls = cn("shrink-0 rounded-full bg-zinc-200 object-cover dark:bg-zinc-700", className);
  if (src) {
    // biome-ignore lint/performance/noImgElement: small avatars at a fixed size gain nothing from next/image
    return <img src={src} alt="" width={size} height={size} loading="lazy" className={cls} style={{ width: size, height: size }} />;
  }
  return (
    <span
      aria-hidden="true"
      className={cn(cls, "inline-flex items-center justify-center text-xs font-semibold uppercase text-zinc-700 dark:text-zinc-200")}
      style={{ width: size, height: size }}
    >
      {name.charAt(0)}
    </span>
  );
}
