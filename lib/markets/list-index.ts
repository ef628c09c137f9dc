// The orders of the market lists, in memory (docs/performance.md, "List orders in memory"): for every status, category (or all) and stored
// sort key, the markets in list order (each order a run of short arrays: ./sorted-chunks.ts), kept current
// from the change stream. A list without sub-category is then a page read from its order (its ids) and the
// order's length (its total): a key never asked before costs what a hot one does. 100,000 markets take about
// 35 MB (a row per market plus eight orders of references per status); the page's items come from the response cache (lib/markets/reads/lists/items.ts).
//
// Search (`q`) too, for a q of plain ASCII: each market keeps its question and description folded to
// lower case exactly as the database's ILIKE folds them (probed at every rebuild: lib/markets/search-fold.ts),
// about 45 MB more at 100,000 markets; a search is one pass over an order (5-20 ms at 100,000 markets, where
// PostgreSQL needs 0.1-1 s for a term its trigram indexes cannot narrow), its matches kept for other
// sorts, categories and pages and for longer needles while no market's text or status changes (a trade
// moves its market in the orders and keeps them). Any other q, and a database whose folding differs,
// stay with SQL.
//
// Exactly as fresh as the SQL it replaces: every announced change of a market (every event names its
// market) marks that market dirty; a slice is taken only after the dirty markets were read again, in one
// query. Changes that name no market (markets inserted in bulk, truncations) and a lost stream rebuild the
// index from scratch; until then, lists come from SQL. A users change leaves it be: no list item shows a user.
//
// Within a byte budget (LIST_INDEX_MAX_MB): each build counts the markets of each status and keeps the
// orders of ACTIVE and of as many other listed statuses as fit (`keptStatuses`); a list of a status not kept
// goes to SQL like any list the orders do not cover. A market that leaves the kept statuses leaves the
// orders; one that enters them arrives.
import "server-only";
import { flatString } from "@/lib/cache/flat-string";
import { config } from "@/lib/config";
import type { ChangeSubscriber } from "@/lib/events/change-stream";
import type { MarketEvent } from "@/lib/events/market-events";
import { shared } from "@/lib/process-state";
import { LIST_STATUSES } from "./constants";
import { SortedChunks } from "./sorted-chunks";
import { countRows, type IndexRow, loadRows } from "./sql/list-index-rows";
import type { MarketListQuery, SortBy } from "./schemas";
import { type Folding, probeFolding, searchNeedle } from "./search-fold";
import { LRUCache } from "lru-cache";

export type { IndexRow };

/** The sorts whose key is a stored column (TRENDING is corrected to the moment: lib/markets/sql/lists.ts). */
export type IndexedSort = Exclude<SortBy, "TRENDING">;
const SORTS: readonly IndexedSort[] = ["VOLUME", "LIQUIDITY", "CREATED", "ENDING"];

/** One market as the orders see it. Keys compare exactly as PostgreSQL orders their columns. */
export interface IndexedMarket {
  id: string;
  slug: string;
  status: string;
  category: string;
  /** numeric(30,6) ≥ 0 as a fixed-width string: string order is numeric order. */
  VOLUME: string;
  LIQUIDITY: string;
  /** timestamptz as unix microseconds (exact in a double until the year 2255). */
  CREATED: number;
  ENDING: number;
  /** Question and description as ILIKE sees them (lib/markets/search-fold.ts), or null when search stays with SQL. */
  text: string | null;
  /** Scratch of a search: equal to its stamp while the market is among its matches. */
  mark: number;
}

/** "123.45" → "000…000123.450000": 24 integer digits (numeric(30,6)), 6 decimals. */
export function fixedWidth(decimal: string): string {
  const [int, frac = ""] = decimal.split(".");
  return flatString(`${int.padStart(24, "0")}.${frac.padEnd(6, "0")}`); // kept for every market: one piece, not five
}

/** One copy of each status and category string for all markets (each row brings its own). */
const interned = new Map<string, string>();
const intern = (s: string) => interned.get(s) ?? (interned.set(s, s), s);

const toMarket = (r: IndexRow, folding: Folding | null): IndexedMarket => ({
  id: r.id,
  slug: r.slug,
  status: intern(r.status),
  category: intern(r.category),
  VOLUME: fixedWidth(r.volume),
  LIQUIDITY: fixedWidth(r.liquidity),
  CREATED: r.created,
  ENDING: r.ends,
  text: folding ? folding.text(r.question, r.description) : null,
  mark: 0,
});

/** What places a market in its status's orders: what a trade may change. */
const PLACE = ["category", "VOLUME", "LIQUIDITY", "CREATED", "ENDING"] as const;

/** The same market to a search: its text, and the status whose matches hold it. */
const sameMatch = (a: IndexedMarket, b: IndexedMarket) => a.slug === b.slug && a.status === b.status && a.text === b.text;

const sameKeys = (a: IndexedMarket, b: IndexedMarket) => sameMatch(a, b) && PLACE.every((k) => a[k] === b[k]);

/** ORDER BY key ASC, id ASC (DESC is the exact reverse: both columns flip). uuid order is its lowercase text's. */
function compareBy(sort: IndexedSort) {
  return (a: IndexedMarket, b: IndexedMarket) => {
    const x = a[sort];
    const y = b[sort];
    if (x !== y) return x < y ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}
const COMPARE = Object.fromEntries(SORTS.map((s) => [s, compareBy(s)])) as Record<IndexedSort, (a: IndexedMarket, b: IndexedMarket) => number>;

const orderKey = (status: string, category: string | undefined, sort: IndexedSort) => `${status}|${category ?? "*"}|${sort}`;

/** The keys of the eight orders a market belongs to (its status, with and without its category, per sort), in a fixed order. */
const orderKeysOf = (m: IndexedMarket): [string, IndexedSort][] =>
  SORTS.flatMap((sort) => [
    [orderKey(m.status, m.category, sort), sort] as [string, IndexedSort],
    [orderKey(m.status, undefined, sort), sort] as [string, IndexedSort],
  ]);

/** `list` without the markets of `out`, with those of `incoming` added in order: one pass. */
function merged(list: IndexedMarket[], out: IndexedMarket[], incoming: IndexedMarket[], compare: (a: IndexedMarket, b: IndexedMarket) => number) {
  const gone = new Set(out);
  const kept = gone.size ? list.filter((m) => !gone.has(m)) : list;
  const add = [...incoming].sort(compare);
  const all: IndexedMarket[] = new Array(kept.length + add.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < kept.length && j < add.length) all[k++] = compare(kept[i], add[j]) <= 0 ? kept[i++] : add[j++];
  while (i < kept.length) all[k++] = kept[i++];
  while (j < add.length) all[k++] = add[j++];
  return all;
}

/** A list the orders can hold: a stored-key sort, no sub-category, no q or one of plain ASCII (its status apart: `ListIndex.covers`). */
const coversShape = (query: MarketListQuery) => query.sortBy !== "TRENDING" && query.subCategory === undefined && (!query.q || searchNeedle(query.q) !== null);

/** A page of a list: the markets' ids and slugs in order, and how many the list holds. */
export interface ListSlice {
  markets: { id: string; slug: string }[];
  total: number;
  /** Whether changed markets were read to answer it (the database was asked). */
  refreshed: boolean;
}

/**
 * Searches kept: a needle's matches per status (another sort, category or a longer needle typed on starts
 * from them) while no market's text or status changes, and their pages' orders (the next page is a slice)
 * while no market moves. At most a pointer per market each: 16 MB at 100,000 markets if every one matched.
 */
const SEARCHES_KEPT = 16;

/**
 * Above this many edits of one order at once (and an eighth of its markets), it is taken again in one pass
 * instead of edited in place (./sorted-chunks.ts: an edit is a search and a copy within a chunk).
 */
const RESORT_AT = 256;
/** After a failed rebuild, lists stay with SQL at least this long before the next try. */
const RETRY_MS = 1_000;

export class ListIndex {
  private readonly markets = new Map<string, IndexedMarket>();
  private readonly bySlug = new Map<string, string>();
  private orders = new Map<string, SortedChunks<IndexedMarket>>();
  /** Markets announced changed since the orders last read them. */
  private readonly dirty = new Set<string>();
  /** Unix ms of the oldest change not yet read (0: none). */
  private dirtySince = 0;
  /** Changes of a market heard so far (a count that only grows). */
  private heard = 0;
  /** The first `read` of the changes heard are in the orders: a read waits for those heard before it, not for the ones after. */
  private read = 0;
  private built = false;
  private listening = false;
  private rebuildWanted = true;
  /** Bumped whenever what is held stops being trustworthy: a load that began before does not apply. */
  private generation = 0;
  private rebuilding: Promise<void> | null = null;
  private refreshing: Promise<void> | null = null;
  private lastFailure = 0;
  /** How the database folds case for ILIKE, as probed at the last rebuild; null: search stays with SQL. */
  private folding: Folding | null = null;
  /** Characters of search text held (each one byte: search-fold.ts keeps them ASCII). */
  private textBytes = 0;
  /** Needles asked lately, per status: the markets whose text holds them. Emptied when a market's text or status changes, or one comes or goes. */
  private readonly found = new LRUCache<string, IndexedMarket[]>({ max: SEARCHES_KEPT });
  /** The same as orders (status, category, sort and needle): the markets in ascending order. Emptied whenever a market moves. */
  private readonly searches = new LRUCache<string, IndexedMarket[]>({ max: SEARCHES_KEPT });
  private stamp = 0;
  readonly stats = { rebuilds: 0, refreshes: 0, refreshed: 0, slices: 0, fallbacks: 0, searches: 0, searchScans: 0 };

  /** Statuses whose orders are held, as chosen at the last build (ACTIVE always). */
  private kept: ReadonlySet<string> = new Set(["ACTIVE"]);
  /** Markets of each status as counted at the last build. */
  private counts: ReadonlyMap<string, number> = new Map();

  constructor(
    /** Every market of `statuses` (ids null: a build), or those of `ids` among them (a refresh). */
    private readonly load: (ids: string[] | null, statuses: readonly string[]) => Promise<IndexRow[]> = loadRows,
    private readonly probe: () => Promise<Folding | null> = probeFolding,
    /** Markets per status: what a build weighs against the budget. */
    private readonly count: () => Promise<ReadonlyMap<string, number>> = countRows,
    /** The budget in bytes, read at each build (LIST_INDEX_MAX_MB). */
    private readonly budget: () => number = () => config().LIST_INDEX_MAX_MB * 1024 * 1024,
  ) {}

  // ---------------------------------------------------------------- the change stream

  readonly subscriber: ChangeSubscriber = {
    event: (e) => this.event(e),
    listening: () => {
      this.listening = true;
      this.invalidate(); // whatever changed before (or while the stream was away) was never announced
      this.current(); // built now, not at the first list asked
    },
    lost: () => {
      this.listening = false;
      this.invalidate();
    },
  };

  event(e: MarketEvent) {
    const id = e.marketId ?? (e.slug !== null ? this.bySlug.get(e.slug) : undefined);
    if (id) {
      if (!this.dirty.size) this.dirtySince = Date.now();
      this.dirty.add(id.toLowerCase());
      this.heard++;
    }
    // Markets inserted by a statement that did not name them, truncations: anything may differ. (Every
    // announcement names its market's id; a slug alone, of a market not held, is one from an older build.)
    else if (e.kind === "list" || e.kind === "flush" || e.slug !== null) this.invalidate();
  }

  private invalidate() {
    this.generation++;
    this.built = false;
    this.rebuildWanted = true;
    this.dirty.clear();
    this.dirtySince = 0;
  }

  // ---------------------------------------------------------------- reads

  /** Whether `query` is a list the index can answer: a stored-key sort, no sub-category, no q or one of plain ASCII, of a status it keeps. */
  covers(query: MarketListQuery): boolean {
    return coversShape(query) && this.kept.has(query.status);
  }

  /** A covered query this index can answer now: if it searches, this database's folding is known (else SQL answers). */
  private answers(query: MarketListQuery): boolean {
    return !query.q || this.folding !== null;
  }

  /**
   * The page of `query` as of every change announced before this call, or null when the index cannot
   * say (not built yet, rebuilding, stream lost, a status it does not keep): the caller asks SQL. Rejects when re-reading the
   * changed markets fails (the database is away): the caller's cache may then answer stale.
   */
  async slice(query: MarketListQuery): Promise<ListSlice | null> {
    if (!this.covers(query)) return null;
    if (!this.current() || !this.answers(query)) {
      this.stats.fallbacks++;
      return null;
    }
    // The changes announced before this call, and only those: under a stream that never pauses, changes
    // heard while it waits are for the reads after it (at most one refresh under way and one more).
    const need = this.heard;
    const refreshed = this.read < need;
    while (this.read < need) {
      await (this.refreshing ??= this.refresh());
      if (!this.current() || !this.covers(query) || !this.answers(query)) {
        this.stats.fallbacks++;
        return null;
      }
    }
    this.stats.slices++;
    return this.take(query, refreshed);
  }

  /**
   * The page of `query` from the orders as they are, without reading the changed markets: for a caller
   * whose read failed because the database is away, when the oldest unread change is at most `maxAgeMs`
   * old (the cache's stale-if-error bound). Null when there is none to give.
   */
  staleSlice(query: MarketListQuery, maxAgeMs: number): ListSlice | null {
    if (!this.covers(query) || !this.answers(query) || !this.built || !this.listening) return null;
    if (this.dirty.size > 0 && Date.now() - this.dirtySince > maxAgeMs) return null;
    return this.take(query, false);
  }

  private take(query: MarketListQuery, refreshed: boolean): ListSlice {
    const sort = query.sortBy as IndexedSort;
    const key = orderKey(query.status, query.category, sort);
    const order = this.orders.get(key);
    const { limit, offset } = query;
    if (!query.q) {
      const page = order?.page(offset, limit, query.sortOrder !== "ASC") ?? [];
      return { markets: page.map((m) => ({ id: m.id, slug: m.slug })), total: order?.length ?? 0, refreshed };
    }
    const list = this.matching(query, key, order, searchNeedle(query.q) ?? "");
    const total = list.length;
    const markets: ListSlice["markets"] = [];
    if (query.sortOrder === "ASC") {
      for (let i = offset; i < total && markets.length < limit; i++) markets.push({ id: list[i].id, slug: list[i].slug });
    } else {
      for (let i = total - 1 - offset; i >= 0 && markets.length < limit; i--) markets.push({ id: list[i].id, slug: list[i].slug });
    }
    return { markets, total, refreshed };
  }

  /**
   * The markets of `order` (`query`'s status, category and sort) whose text holds `needle`, in its order: kept
   * for the next page until a market moves. Few matches are sorted by the order's compare, the same total
   * order; many are picked out in a pass over the order (a market moved empties what is kept, and a stream
   * moves markets several times a second: a pass over 56,000 markets is ~15 ms, bound by memory's latency).
   */
  private matching(query: MarketListQuery, key: string, order: SortedChunks<IndexedMarket> | undefined, needle: string): IndexedMarket[] {
    this.stats.searches++;
    const searchKey = `${key}|${needle}`;
    const kept = this.searches.get(searchKey);
    if (kept) return kept;
    const matches = this.matchesOf(query.status, needle);
    let list: IndexedMarket[];
    if (matches.length * Math.log2(matches.length + 2) < (order?.length ?? 0)) {
      const category = query.category;
      list = (category === undefined ? [...matches] : matches.filter((m) => m.category === category)).sort(COMPARE[query.sortBy as IndexedSort]);
    } else {
      const stamp = ++this.stamp;
      for (const m of matches) m.mark = stamp;
      list = order?.filter((m) => m.mark === stamp) ?? [];
    }
    this.searches.set(searchKey, list);
    return list;
  }

  /**
   * The markets of `status` whose text holds `needle`. A text that holds it holds every part of it, so
   * the pass goes over the fewest matches kept of a needle inside this one (typing on: "ele" after "el"),
   * else over all of the status's markets.
   */
  private matchesOf(status: string, needle: string): IndexedMarket[] {
    const kept = this.found.get(`${status}|${needle}`);
    if (kept) return kept;
    this.stats.searchScans++;
    let candidates: { length: number; filter(keep: (m: IndexedMarket) => boolean): IndexedMarket[] } =
      this.orders.get(orderKey(status, undefined, "CREATED")) ?? [];
    for (const [k, matches] of this.found.entries()) {
      const at = k.indexOf("|"); // statuses hold no "|"; needles may
      if (matches.length < candidates.length && k.slice(0, at) === status && needle.includes(k.slice(at + 1))) candidates = matches;
    }
    const matches = candidates.filter((m) => m.text?.includes(needle) ?? false);
    this.found.set(`${status}|${needle}`, matches);
    return matches;
  }

  /** Built and heard; starts a rebuild when one is wanted. */
  private current(): boolean {
    if (!this.listening) return false;
    if (this.rebuildWanted && !this.rebuilding && Date.now() - this.lastFailure >= RETRY_MS) this.rebuilding = this.rebuild();
    return this.built;
  }

  get size() {
    let kept = 0;
    for (const list of [...this.searches.values(), ...this.found.values()]) kept += list.length;
    return {
      markets: this.markets.size,
      built: this.built,
      /** The statuses whose lists the orders answer; the others' come from SQL. */
      kept: [...this.kept],
      /** Markets of each status when the orders were last built. */
      statuses: Object.fromEntries(this.counts),
      searchable: this.folding !== null,
      bytes: this.markets.size * BYTES_PER_MARKET + this.textBytes + kept * 8,
    };
  }

  // ---------------------------------------------------------------- loads

  private async rebuild() {
    const generation = ++this.generation;
    this.rebuildWanted = false;
    this.dirty.clear(); // the full read covers them; changes heard from now on are marked again
    this.dirtySince = 0;
    const heard = this.heard;
    try {
      // A database that cannot be probed keeps search with SQL, lists still from here.
      const [folding, counts] = await Promise.all([this.probe().catch(() => null), this.count()]);
      if (generation !== this.generation) return; // invalidated meanwhile: another rebuild is wanted
      const textPerMarket = !folding ? 0 : this.markets.size ? this.textBytes / this.markets.size : TEXT_BYTES_PER_MARKET;
      const kept = keptStatuses(counts, this.budget(), BYTES_PER_MARKET + textPerMarket);
      const rows = await this.load(null, kept);
      if (generation !== this.generation) return;
      this.folding = folding;
      this.kept = new Set(kept);
      this.counts = counts;
      this.markets.clear();
      this.bySlug.clear();
      this.textBytes = 0;
      for (const r of rows) if (this.kept.has(r.status)) this.put(toMarket(r, folding));
      this.sortAll();
      this.read = Math.max(this.read, heard);
      this.built = true;
      this.stats.rebuilds++;
    } catch {
      if (generation === this.generation) {
        this.rebuildWanted = true;
        this.lastFailure = Date.now();
      }
    } finally {
      this.rebuilding = null;
    }
  }

  private async refresh() {
    const generation = this.generation;
    const ids = [...this.dirty];
    const since = this.dirtySince;
    const heard = this.heard;
    this.dirty.clear();
    this.dirtySince = 0;
    try {
      const rows = ids.length ? await this.load(ids, [...this.kept]) : [];
      if (generation !== this.generation) return;
      // A market of a status not kept is absent: it leaves the orders, or stays out of them.
      this.apply(
        ids,
        rows.filter((r) => this.kept.has(r.status)).map((r) => toMarket(r, this.folding)),
      );
      this.read = Math.max(this.read, heard);
      this.stats.refreshes++;
      this.stats.refreshed += ids.length;
    } catch (err) {
      if (generation === this.generation) {
        for (const id of ids) this.dirty.add(id);
        this.dirtySince = since;
      }
      throw err;
    } finally {
      this.refreshing = null;
    }
  }

  /**
   * The markets `ids` as read again: moved, added, or (absent from `rows`) removed. Only the orders a
   * market leaves, enters or moves within are edited: a trade or a book change moves a market in its
   * volume or liquidity orders, and its created and ending orders are not touched (a venue's stream
   * changes thousands of markets a second; work per change, not per market held, docs/performance.md
   * "Ingest"). An order is edited in place, each edit within one of its chunks (./sorted-chunks.ts); one with
   * many edits (RESORT_AT) is filtered of the markets that leave it and merged with those that enter it, in one pass.
   *
   * A market that only moved (the same slug, status and text) keeps its object, its keys rewritten, so
   * the matches kept of each needle (`found`, by object) still hold: a venue that trades all the time
   * leaves searches a pass over their matches, not a scan of every market's text. Any other change
   * forgets them.
   */
  private apply(ids: string[], rows: IndexedMarket[]) {
    const fresh = new Map(rows.map((m) => [m.id, m]));
    const leaving: IndexedMarket[] = [];
    const arriving: IndexedMarket[] = [];
    const moves: [IndexedMarket, IndexedMarket][] = [];
    let matchesChange = false; // a market came, went, or changed its text or status
    // Per order edited: the markets taken out (found by the keys they had) and put in (by the keys they have).
    const edits = new Map<string, { sort: IndexedSort; out: IndexedMarket[]; in: IndexedMarket[] }>();
    const edit = (key: string, sort: IndexedSort) => {
      let e = edits.get(key);
      if (!e) edits.set(key, (e = { sort, out: [], in: [] }));
      return e;
    };
    for (const id of ids) {
      const old = this.markets.get(id);
      const now = fresh.get(id);
      if (old && now && sameKeys(old, now)) continue;
      if (!old && !now) continue; // of a status not kept before or after (or gone): no order holds it, no search finds it
      if (old && now && sameMatch(old, now)) {
        moves.push([old, now]);
        // The same object, re-keyed below: out of (and back into) an order only where its place changed.
        const before = orderKeysOf(old);
        const after = orderKeysOf(now);
        for (const [i, [key, sort]] of before.entries()) {
          if (key === after[i][0] && old[sort] === now[sort]) continue;
          edit(key, sort).out.push(old);
          edit(after[i][0], sort).in.push(old);
        }
        continue;
      }
      matchesChange = true;
      if (old) {
        leaving.push(old);
        for (const [key, sort] of orderKeysOf(old)) edit(key, sort).out.push(old);
      }
      if (now) {
        arriving.push(now);
        for (const [key, sort] of orderKeysOf(now)) edit(key, sort).in.push(now);
      }
    }
    if (matchesChange) this.forgetSearches();
    else if (moves.length) this.searches.clear(); // the orders move: the matches' order is taken again from them
    // Out by the keys the markets had, then re-keyed, then in by the keys they have. An order with many edits
    // (an eighth of it) is taken again in one pass instead; so is one where a market was not found by its keys.
    const bulk = new Set<string>();
    for (const [key, e] of edits) {
      const list = this.orders.get(key);
      if (!list) continue;
      if (e.out.length + e.in.length > Math.max(RESORT_AT, list.length / 8)) bulk.add(key);
      else for (const m of e.out) if (!list.remove(m)) bulk.add(key);
    }
    for (const [old, now] of moves) for (const k of PLACE) (old as Record<(typeof PLACE)[number], unknown>)[k] = now[k];
    for (const [key, e] of edits) {
      const compare = COMPARE[e.sort];
      const list = this.orders.get(key);
      if (list && bulk.has(key)) this.orders.set(key, SortedChunks.from(merged(list.toArray(), e.out, e.in, compare), compare));
      else if (list) for (const m of e.in) list.insert(m);
      else this.orders.set(key, SortedChunks.from([...e.in].sort(compare), compare));
    }
    for (const old of leaving) {
      this.markets.delete(old.id);
      this.textBytes -= old.text?.length ?? 0;
      if (this.bySlug.get(old.slug) === old.id) this.bySlug.delete(old.slug);
    }
    for (const m of arriving) this.put(m);
  }

  private put(m: IndexedMarket) {
    this.markets.set(m.id, m);
    this.textBytes += m.text?.length ?? 0;
    this.bySlug.set(m.slug, m.id);
  }

  /** The eight orders a market belongs to (its status, with and without its category, per sort), as arrays being built. */
  private listsOf(m: IndexedMarket, orders: Map<string, IndexedMarket[]>): [IndexedMarket[], IndexedSort][] {
    return orderKeysOf(m).map(([key, sort]) => {
      let list = orders.get(key);
      if (!list) orders.set(key, (list = []));
      return [list, sort];
    });
  }

  private forgetSearches() {
    this.searches.clear();
    this.found.clear();
  }

  private sortAll() {
    this.forgetSearches();
    const orders = new Map<string, IndexedMarket[]>();
    for (const m of this.markets.values()) for (const [list] of this.listsOf(m, orders)) list.push(m);
    this.orders = new Map(
      [...orders].map(([key, list]) => {
        const compare = COMPARE[key.slice(key.lastIndexOf("|") + 1) as IndexedSort];
        return [key, SortedChunks.from(list.sort(compare), compare)];
      }),
    );
  }
}

/**
 * A market's row (its strings, numbers and record, its search text apart), its place in the map by id and
 * its eight references in the orders. Measured at 100,000 markets: the process held 94.5 MB more of V8's
 * heap after a full collection with the orders than without (CACHE=off), 43.2 MB of it search text: 538
 * bytes a market besides.
 */
const BYTES_PER_MARKET = 540;

/** A market's search text before any is held, as measured at 100,000 markets (43.2 MB); later builds take the average held. */
const TEXT_BYTES_PER_MARKET = 430;

/**
 * The statuses whose orders a build keeps, given the markets of each, the budget and the bytes a market
 * takes: ACTIVE always (every list's default, and the lists most read); then the other listed statuses,
 * smallest first, each while all kept so far stay within the budget. Smallest first because a status's
 * bytes grow with its markets while what it buys (all of its lists and searches from memory) is one
 * status: the small ones buy the most per byte, and as a catalogue grows the largest (the resolved
 * markets' archive, the lists read least) is the one given to SQL first. Statuses no list asks for
 * (PENDING, LOCKED) are never kept.
 */
export function keptStatuses(counts: ReadonlyMap<string, number>, budget: number, bytesPerMarket: number): string[] {
  const kept = ["ACTIVE"];
  let bytes = (counts.get("ACTIVE") ?? 0) * bytesPerMarket;
  const others = LIST_STATUSES.filter((s) => s !== "ACTIVE").sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || (a < b ? -1 : 1));
  for (const status of others) {
    const more = (counts.get(status) ?? 0) * bytesPerMarket;
    if (bytes + more > budget) break; // the rest are as large or larger
    kept.push(status);
    bytes += more;
  }
  return kept;
}

/** One index per process (lib/process-state.ts): route handlers read it, server.ts feeds it. */
export function listIndex(): ListIndex {
  return shared("listIndex", () => new ListIndex());
}
