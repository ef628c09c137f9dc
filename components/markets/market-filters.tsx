"use client";
// The list's controls: status tabs, category chips, sub-category, debounced search, sort and order. Each
// change navigates (list-navigation.tsx) and the server renders the new view.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Tabs } from "@/components/ui/tabs";
import { CATEGORIES, LIST_STATUSES, SEARCH_DEBOUNCE_MS, SORT_BY, type Category, type ListStatus, type SortBy } from "@/lib/markets/constants";
import type { SubCategories } from "@/lib/markets/rows";
import { SORT_LABELS, type ListView } from "@/lib/ui/list-params";
import { cn } from "@/lib/ui/cn";
import { titleCase } from "@/lib/ui/title-case";
import { useListNavigation } from "./list-navigation";

const chip = (active: boolean) =>
  cn(
    "h-8 shrink-0 rounded-full px-3 text-sm font-medium ring-1 ring-inset transition-colors",
    active
      ? "bg-zinc-900 text-white ring-zinc-900 dark:bg-white dark:text-zinc-900 dark:ring-white"
      : "bg-white text-zinc-700 ring-zinc-300 hover:bg-zinc-100 dark:bg-zinc-900 dark:text-zinc-200 dark:ring-zinc-700 dark:hover:bg-zinc-800",
  );

/** Whether a click follows a link to another page in this tab (not a new tab, not a download). */
function leavesPage(e: MouseEvent) {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return false;
  const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
  if (!(a instanceof HTMLAnchorElement) || (a.target && a.target !== "_self") || a.hasAttribute("download")) return false;
  return a.origin !== window.location.origin || a.pathname !== window.location.pathname;
}

const field = "h-9 rounded-lg border border-zinc-300 bg-white px-2.5 text-sm dark:border-zinc-700 dark:bg-zinc-900";

export function MarketFilters({ subCategories }: { subCategories: SubCategories }) {
  const { view, go } = useListNavigation();
  // Any filter change starts again at page 1.
  const onChange = useCallback((patch: Partial<ListView>) => go({ ...view, page: 1, ...patch }), [go, view]);
  const ids = { q: useId(), sub: useId(), sort: useId() };
  const [text, setText] = useState(view.q ?? "");
  const pushed = useRef(view.q ?? "");

  // Back/forward or a link changed q: show it, unless it is the value this box itself just pushed.
  useEffect(() => {
    if ((view.q ?? "") !== pushed.current) {
      pushed.current = view.q ?? "";
      setText(view.q ?? "");
    }
  }, [view.q]);

  useEffect(() => {
    const q = text.trim();
    if (q === pushed.current) return;
    const t = setTimeout(() => {
      pushed.current = q;
      onChange({ q: q || undefined });
    }, SEARCH_DEBOUNCE_MS);
    // The list stays mounted while the next page loads; a URL update then would undo that navigation.
    const onClick = (e: MouseEvent) => {
      if (leavesPage(e)) clearTimeout(t);
    };
    document.addEventListener("click", onClick, true);
    return () => {
      clearTimeout(t);
      document.removeEventListener("click", onClick, true);
    };
  }, [text, onChange]);

  const subOptions =
    view.subCategory && !subCategories.some((s) => s.sub_category === view.subCategory)
      ? [{ sub_category: view.subCategory, count: 0 }, ...subCategories]
      : subCategories;

  return (
    <section aria-label="Filters" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Tabs<ListStatus>
          label="Market status"
          value={view.status}
          options={LIST_STATUSES.map((s) => ({ value: s, label: titleCase(s) }))}
          onChange={(status) => onChange({ status })}
        />
        <div className="relative w-full sm:w-80">
          <label htmlFor={ids.q} className="sr-only">
            Search markets
          </label>
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-zinc-500"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <circle cx="9" cy="9" r="6" />
            <path d="M14 14l4 4" />
          </svg>
          <input
            id={ids.q}
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Search markets"
            autoComplete="off"
            className={cn(field, "w-full pl-8")}
          />
        </div>
      </div>

      <div role="group" aria-label="Category" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0">
        <button
          type="button"
          aria-pressed={!view.category}
          className={chip(!view.category)}
          onClick={() => onChange({ category: undefined, subCategory: undefined })}
        >
          All
        </button>
        {CATEGORIES.map((c) => (
          <button
            key={c}
            type="button"
            aria-pressed={view.category === c}
            className={chip(view.category === c)}
            onClick={() => onChange({ category: view.category === c ? undefined : (c as Category), subCategory: undefined })}
          >
            {titleCase(c)}
          </button>
        ))}
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.sub} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
            Sub-category
          </label>
          <select
            id={ids.sub}
            value={view.subCategory ?? ""}
            onChange={(e) => onChange({ subCategory: e.target.value || undefined })}
            className={cn(field, "max-w-56")}
          >
            <option value="">All sub-categories</option>
            {subOptions.map((s) => (
              <option key={s.sub_category} value={s.sub_category}>
                {s.sub_category}
                {s.count ? ` (${s.count})` : ""}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.sort} className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
            Sort by
          </label>
          <div className="flex gap-1.5">
            <select id={ids.sort} value={view.sortBy} onChange={(e) => onChange({ sortBy: e.target.value as SortBy })} className={field}>
              {SORT_BY.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
            {/* Named by its content so the name starts with the visible word (WCAG 2.5.3: say "Desc" to
                press it); the name states the order, so no aria-pressed (a toggle's name must not change). */}
            <button
              type="button"
              title="Toggle sort order"
              onClick={() => onChange({ sortOrder: view.sortOrder === "ASC" ? "DESC" : "ASC" })}
              className={cn(field, "inline-flex items-center gap-1 px-2.5 font-medium hover:bg-zinc-100 dark:hover:bg-zinc-800")}
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 20 20"
                className={cn("size-4 transition-transform", view.sortOrder === "ASC" && "rotate-180")}
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M10 4v12M5 11l5 5 5-5" />
              </svg>
              {view.sortOrder === "ASC" ? "Asc" : "Desc"}
              <span className="sr-only">{view.sortOrder === "ASC" ? " (ascending order)" : " (descending order)"}</span>
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
