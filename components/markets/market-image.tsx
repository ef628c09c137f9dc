// A market's picture as a CSS background over its placeholder (the tinted box a market without an image
// gets): a URL that does not load leaves the placeholder, never the browser's broken-image icon, with no
// script and nothing moving. The box has its size before anything loads.
import { cn } from "@/lib/ui/cn";

/** `url("…")` for a style, with the characters that could end the string or the declaration escaped. */
export function cssUrl(src: string): string {
  return `url("${src.replace(/["\\\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)}")`;
}

export function MarketImage({ src, className }: { src: string | null | undefined; className?: string }) {
  return (
    <span aria-hidden="true" data-testid="market-image" className={cn("market-image", className)} style={src ? { backgroundImage: cssUrl(src) } : undefined} />
  );
}
