// The market list's view state as it lives in the URL (?status=resolved&category=crypto&sort=volume&page=2…).
// Parsing is lenient: each bad value falls back to its own default, so a mangled link still renders a page.
import {
  CATEGORIES,
  LIST_DEFAULTS,
  LIST_STATUSES,
  SORT_BY,
  SORT_ORDER,
  type Category,
  type ListStatus,
  type SortBy,
  type SortOrder,
} from "@/lib/markets/constants";
import type { MarketListQuery } from "@/lib/markets/schemas";

export const PAGE_SIZE = 20;
const MAX_PAGE = 100_000;
const MAX_Q = 200;

export interface ListView {
  status: ListStatus;
  category?: Category;
  subCategory?: string;
  q?: string;
  sortBy: SortBy;
  sortOrder: SortOrder;
  page: number;
}

export const DEFAULT_VIEW: ListView = { status: LIST_DEFAULTS.status, sortBy: LIST_DEFAULTS.sortBy, sortOrder: LIST_DEFAULTS.sortOrder, page: 1 };

type Raw = Record<string, string | string[] | undefined> | URLSearchParams;

function first(raw: Raw, key: string): string | undefined {
  const v = raw instanceof URLSearchParams ? (raw.get(key) ?? undefined) : raw[key];
  return Array.isArray(v) ? v[0] : v;
}

function member<T extends string>(values: readonly T[], v: string | undefined): T | undefined {
  const up = v?.trim().toUpperCase();
  return values.find((x) => x === up);
}

export function parseListView(raw: Raw): ListView {
  const pageRaw = first(raw, "page");
  const page = pageRaw && /^\d{1,6}$/.test(pageRaw) ? Number(pageRaw) : 1;
  const sub = first(raw, "sub")?.trim();
  const q = first(raw, "q")?.trim();
  return {
    status: member(LIST_STATUSES, first(raw, "status")) ?? DEFAULT_VIEW.status,
    category: member(CATEGORIES, first(raw, "category")),
    subCategory: sub && sub.length <= 50 ? sub : undefined,
    q: q ? q.slice(0, MAX_Q) : undefined,
    sortBy: member(SORT_BY, first(raw, "sort")) ?? DEFAULT_VIEW.sortBy,
    sortOrder: member(SORT_ORDER, first(raw, "order")) ?? DEFAULT_VIEW.sortOrder,
    page: page >= 1 && page <= MAX_PAGE ? page : 1,
  };
}

/** The canonical search string of a view: defaults left out, values lower-case, stable key order. */
export function viewToSearch(view: ListView): string {
  const p = new URLSearchParams();
  if (view.status !== DEFAULT_VIEW.status) p.set("status", view.status.toLowerCase());
  if (view.category) p.set("category", view.category.toLowerCase());
  if (view.subCategory) p.set("sub", view.subCategory);
  if (view.q) p.set("q", view.q);
  if (view.sortBy !== DEFAULT_VIEW.sortBy) p.set("sort", view.sortBy.toLowerCase());
  if (view.sortOrder !== DEFAULT_VIEW.sortOrder) p.set("order", view.sortOrder.toLowerCase());
  if (view.page !== 1) p.set("page", String(view.page));
  const s = p.toString();
  return s ? `?${s}` : "";
}

export function viewToQuery(view: ListView): MarketListQuery {
  return {
    status: view.status,
    category: view.category,
    subCategory: view.subCategory,
    q: view.q,
    sortBy: view.sortBy,
    sortOrder: view.sortOrder,
    limit: PAGE_SIZE,
    offset: (view.page - 1) * PAGE_SIZE,
  };
}

export const SORT_LABELS: Record<SortBy, string> = {
  VOLUME: "Volume",
  LIQUIDITY: "Liquidity",
  CREATED: "Newest",
  TRENDING: "Trending",
  ENDING: "Ending soon",
};
