// Offset pagination as page numbers with ellipses, plus the "21–40 of 1,234" range text. Rendered on the
// server; each number is a real link that the list follows in its own transition (PageLink).
import { cn } from "@/lib/ui/cn";
import { formatInt } from "@/lib/ui/format";
import { PageLink } from "./list-navigation";

export function rangeText(offset: number, count: number, total: number) {
  if (total === 0 || count === 0) return `0 of ${formatInt(total)}`;
  return `${formatInt(offset + 1)}–${formatInt(offset + count)} of ${formatInt(total)}`;
}

function pageList(page: number, pages: number): (number | "…")[] {
  const want = new Set([1, pages, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pages));
  const sorted = [...want].sort((a, b) => a - b);
  const out: (number | "…")[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push(p - sorted[i - 1] === 2 ? p - 1 : "…");
    out.push(p);
  });
  return out;
}

export function Pagination({ page, pages, hrefFor }: { page: number; pages: number; hrefFor: (page: number) => string }) {
  if (pages <= 1) return null;
  const link = (p: number, label: React.ReactNode, opts: { current?: boolean; aria?: string; disabled?: boolean } = {}) =>
    opts.disabled ? (
      <span aria-disabled="true" className="inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-2.5 text-sm text-zinc-400 dark:text-zinc-600">
        {label}
      </span>
    ) : (
      <PageLink
        href={hrefFor(p)}
        page={p}
        prefetch={false}
        aria-label={opts.aria}
        aria-current={opts.current ? "page" : undefined}
        className={cn(
          "inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-2.5 text-sm font-medium tabular",
          opts.current
            ? "bg-zinc-900 text-white dark:bg-white dark:text-zinc-900"
            : "text-zinc-700 hover:bg-zinc-200 dark:text-zinc-300 dark:hover:bg-zinc-800",
        )}
      >
        {label}
      </PageLink>
    );
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-center gap-1">
      {link(page - 1, "‹ Prev", { aria: "Previous page", disabled: page <= 1 })}
      {pageList(page, pages).map((p, i) =>
        p === "…" ? (
          <span key={`e${i}`} aria-hidden="true" className="px-1 text-zinc-500">
            …
          </span>
        ) : (
          <span key={p}>{link(p, p, { current: p === page, aria: `Page ${p}` })}</span>
        ),
      )}
      {link(page + 1, "Next ›", { aria: "Next page", disabled: page >= pages })}
    </nav>
  );
}
