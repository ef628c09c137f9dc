"use client";
// The market list's client glue: one transition for every change of view (filters, pages, retry), so the
// results can say they are loading, plus the refresh of the visible page while the tab is visible.
import { createContext, use, useCallback, useEffect, useOptimistic, useTransition } from "react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { LIST_REFRESH_MS } from "@/lib/markets/constants";
import { viewToSearch, type ListView } from "@/lib/ui/list-params";
import { cn } from "@/lib/ui/cn";

interface ListNavigation {
  /** The view shown, already the next one while its page is on its way. */
  view: ListView;
  pending: boolean;
  go: (next: ListView, opts?: { replace?: boolean }) => void;
  refresh: () => void;
}

const Context = createContext<ListNavigation | null>(null);

export function useListNavigation(): ListNavigation {
  const nav = use(Context);
  if (!nav) throw new Error("useListNavigation outside <ListNavigationProvider>");
  return nav;
}

export function ListNavigationProvider({ view, children }: { view: ListView; children: React.ReactNode }) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const [shown, setShown] = useOptimistic(view);

  const go = useCallback(
    (next: ListView, opts?: { replace?: boolean }) => {
      // A late change (the search debounce) must never drag the user back once the list is left.
      if (window.location.pathname !== pathname) return;
      const href = `${pathname}${viewToSearch(next)}`;
      startTransition(() => {
        setShown(next);
        if (opts?.replace) router.replace(href, { scroll: false });
        else router.push(href, { scroll: false });
      });
    },
    [pathname, router, setShown],
  );
  const refresh = useCallback(() => startTransition(() => router.refresh()), [router]);

  return (
    <Context value={{ view: shown, pending, go, refresh }}>
      {children}
      {/* Keyed by the view: its clock starts again with every page the list shows. */}
      <Refresher key={viewToSearch(view)} />
    </Context>
  );
}

/**
 * The visible page follows trading on a slow cadence while the tab is visible (not a socket per market);
 * a tab that comes back after a longer absence refreshes at once. A plain refresh: nothing dims for it.
 */
function Refresher() {
  const router = useRouter();
  useEffect(() => {
    let last = Date.now();
    let timer: ReturnType<typeof setInterval> | undefined;
    const tick = () => {
      last = Date.now();
      router.refresh();
    };
    const sync = () => {
      clearInterval(timer);
      if (document.visibilityState !== "visible") return;
      if (Date.now() - last >= LIST_REFRESH_MS) tick();
      timer = setInterval(tick, LIST_REFRESH_MS);
    };
    sync();
    document.addEventListener("visibilitychange", sync);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", sync);
    };
  }, [router]);
  return null;
}

/** The results, dimmed and busy while the next view is on its way (opacity only: nothing moves). */
export function ListResults({ children, className }: { children: React.ReactNode; className?: string }) {
  const { pending } = useListNavigation();
  return (
    <section
      id="results"
      aria-labelledby="results-heading"
      aria-busy={pending}
      className={cn("scroll-mt-20 transition-opacity", pending && "opacity-60", className)}
    >
      {children}
    </section>
  );
}

/** A page number: a real link (new tab, no JavaScript), followed in the list's transition and scrolled to the results. */
export function PageLink({ page, ...props }: { page: number } & Omit<React.ComponentProps<typeof Link>, "onNavigate">) {
  const { view, go } = useListNavigation();
  return (
    <Link
      {...props}
      onNavigate={(e) => {
        e.preventDefault();
        go({ ...view, page });
        document.getElementById("results")?.scrollIntoView({ block: "start" });
      }}
    />
  );
}

/** "Clear filters": back to the status tab and sort, without category, sub-category or search. */
export function ClearFiltersButton({ className }: { className?: string }) {
  const { view, go } = useListNavigation();
  return (
    <button type="button" className={className} onClick={() => go({ status: view.status, sortBy: view.sortBy, sortOrder: view.sortOrder, page: 1 })}>
      Clear filters
    </button>
  );
}

export function RetryButton({ className }: { className?: string }) {
  const { refresh } = useListNavigation();
  return (
    <button type="button" className={className} onClick={refresh}>
      Retry
    </button>
  );
}
