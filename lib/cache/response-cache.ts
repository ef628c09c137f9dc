// An in-memory read cache that is never staler than the last invalidation it was told about.
// Entries carry tags; an invalidation marks every entry of a tag stale and detaches the loads in
// flight for it, so a request that arrives after the invalidation never receives, nor stores, a value
// whose load began before it. Concurrent misses for one key share one load (single flight). Stale
// entries stay in the LRU (byte budget) only to be served, for a bounded time, when a load fails
// because the database is away (stale-if-error). No I/O here: callers bring the loads.
// lru-cache keeps the byte budget (size-weighted LRU with eviction callbacks); the freshness rules are ours.
//
// Answers that are objects are kept as their JSON text, not as objects (the objects of an answer take
// three to five times their JSON), and that text as UTF-8 bytes outside V8's heap: a full cache (100,000
// markets' answers) then leaves the heap about the size it is without it, for the pages that render
// beside it (docs/performance.md, "Memory", has the runs). A hit decodes and parses the text,
// and the Json it gives (lib/cache/representation.ts: the text and the value parsed from it) is kept in a
// small hot tier (an eighth of the budget), so an answer asked again and again is parsed once, stays one
// object, and its /v1 bodies and ETags are made once. An answer asked once (the long tail) never reaches
// the old generation as objects. Every object answer is handed out with its Json (`CacheResult.json`):
// /v1 writes its text without serializing it again. Answers that are bytes already (a Buffer: the list
// items' JSON, made with `offHeapBytes`) are kept as they are and handed out as the same Buffer on every
// hit, with nothing decoded.
import { isDeepStrictEqual } from "node:util";
import { LRUCache } from "lru-cache";
import { flatString } from "./flat-string";
import { Json } from "./representation";
import { TagIndex } from "./tag-index";

export interface Loaded<T> {
  value: T;
  /** Unix ms after which the value is wrong even without an invalidation (time-dependent answers). */
  expiresAt?: number;
  /** Hand the value to this load's waiters but keep nothing (an answer that must not be reused). */
  noStore?: boolean;
  /** Its weight in the byte budget when its JSON is not the measure (a rendered page's bytes). */
  bytes?: number;
}

export interface CacheOptions {
  /** Byte budget of the values (their JSON size, or the bytes a load states, and ENTRY_OVERHEAD each), the hot tier of parsed answers included. */
  maxBytes: number;
  /** How long after it went stale an entry may still be served when its load fails with a `canServeStale` error. */
  staleIfErrorMs: number;
  /** Which load failures justify a stale answer (the database is away, not a bad request). */
  canServeStale: (err: unknown) => boolean;
  /**
   * While not live (the invalidation stream is lost: the primary is unreachable, or its LISTEN connection
   * is down), an answer loaded meanwhile is kept this long from the start of its load, then served once
   * more while one load refreshes it (never older than twice this); concurrent reads of it share one load,
   * and nothing kept before the loss or during it outlives the loss. 0: every read loads.
   */
  unheardTtlMs?: number;
  /** Tests: throw when an answer kept as text is not JSON data (a Date, a Map: parsing would not give it back). */
  checkJson?: boolean;
  now?: () => number;
}

export type CacheStatus = "HIT" | "MISS" | "STALE" | "BYPASS";

export interface CacheResult<T> {
  value: T;
  status: CacheStatus;
  /** Seconds since the value was loaded (the HTTP Age of a cached answer). */
  ageS: number;
  /** Unix ms after which the value is wrong even without an invalidation (Infinity: only an invalidation ends it). */
  expiresAt: number;
  /** An object answer's JSON, whose value `value` is (frozen): kept with the entry, so a hit serializes nothing. */
  json?: Json<T>;
}

interface Entry {
  /** The value as loaded, when kept as is: strings, primitives, values weighed by `bytes` (rendered pages). */
  value: unknown;
  /** An object value's JSON text (UTF-8, outside the heap: offHeap), kept instead of the object. */
  text?: Buffer;
  bytes?: number;
  tags: readonly string[];
  loadedAt: number;
  expiresAt: number;
  /** Unix ms when it stopped being fresh, or 0 while fresh. */
  staleSince: number;
  /** Loaded while no change was heard: kept `unheardTtlMs` at most. */
  unheard: boolean;
}

interface Load {
  promise: Promise<Loaded<unknown> & { json?: Json }>;
  tags: readonly string[];
  epoch: number;
  detached: boolean;
}

/** An answer kept as its JSON text: an object, unless it states its own weight (a rendered page). */
const keptAsText = (loaded: Loaded<unknown>) =>
  typeof loaded.value === "object" && loaded.value !== null && !Buffer.isBuffer(loaded.value) && loaded.bytes === undefined;

/** A value kept as is: its JSON length; a string (an answer kept as JSON text) is its own length, not its JSON-escaped form's; bytes their length. */
const sizeOf = (value: unknown) => (typeof value === "string" || Buffer.isBuffer(value) ? value.length : (JSON.stringify(value)?.length ?? 0));

/**
 * The hot tier's share of the byte budget at most. The two share the budget: what the hot tier does not
 * hold, the entries may (a crawl of the long tail asks nothing twice and parses nothing).
 */
const PARSED_SHARE = 1 / 8;

/**
 * What an entry takes beside its bytes: its key, tags, record, the Buffer's two objects, and its places in
 * the LRU and the tag index. Measured at 100,000 markets: 45,101 list items held 32.5 MB more of V8's
 * heap after a full collection than none did (756 bytes each), besides their 123.9 MB of bytes; with the
 * ArrayBuffers' native records, 800.
 */
const ENTRY_OVERHEAD = 800;

/**
 * A parsed object's heap per byte of its JSON text: a market detail took 1.24 times its text, a list page
 * 1.06 (2,000 of each parsed and held, measured after a full collection).
 */
const PARSED_PER_BYTE = 1.25;

export class ResponseCache {
  private readonly lru: LRUCache<string, Entry>;
  /** The Json of entries asked again (its value parsed), by key, with the entry it was parsed from. */
  private readonly parsed: LRUCache<string, { entry: Entry; json: Json }>;
  private readonly byTag = new TagIndex();
  private readonly loads = new Map<string, Load>();
  private readonly now: () => number;
  /** Bumped by `invalidateAll`: a load that began in an older epoch is not stored. */
  private epoch = 0;
  /** Only while live (the invalidation stream is connected) may fresh answers come from memory. */
  private live = false;
  readonly stats = { hits: 0, misses: 0, stale: 0, bypass: 0, invalidations: 0 };

  constructor(private readonly options: CacheOptions) {
    this.now = options.now ?? Date.now;
    const parsedBytes = Math.floor(options.maxBytes * PARSED_SHARE);
    this.lru = new LRUCache<string, Entry>({
      maxSize: Math.max(1, options.maxBytes),
      sizeCalculation: (e) => Math.max(1, (e.bytes ?? e.text?.length ?? sizeOf(e.value)) + ENTRY_OVERHEAD),
      dispose: (entry, key) => {
        this.untag(key, entry.tags);
        // Its parsed object goes with it: a hot object of an entry no longer held would only take room.
        if (this.parsed.peek(key)?.entry === entry) this.parsed.delete(key);
      },
    });
    this.parsed = new LRUCache({ maxSize: Math.max(1, parsedBytes), sizeCalculation: (p) => Math.ceil((p.entry.text?.length ?? 0) * PARSED_PER_BYTE) + 200 });
  }

  /** Turns memory answers on (the invalidation stream is listening) or off (it is lost: every read loads). */
  setLive(live: boolean) {
    if (live === this.live) return;
    // Whatever changed while the stream was down was never announced: nothing held before is fresh.
    this.invalidateAll();
    this.live = live;
  }

  get isLive() {
    return this.live;
  }

  /** The byte budget of everything it holds (`maxBytes`). */
  get budgetBytes() {
    return this.options.maxBytes;
  }

  get size() {
    const parsed = this.parsed.calculatedSize;
    return { entries: this.lru.size, bytes: this.lru.calculatedSize + parsed, parsedEntries: this.parsed.size, parsedBytes: parsed, loading: this.loads.size };
  }

  /**
   * The value of `key`: fresh from memory, from the load in flight for it, or from `load`. `tags` may grow
   * while the load runs (a page render learns what it shows as it reads): an invalidation of any tag in it
   * by then detaches the load, and the value is stored under all of them.
   */
  async get<T>(key: string, tags: readonly string[], load: () => Promise<Loaded<T>>): Promise<CacheResult<T>> {
    const now = this.now();
    const entry = this.lru.get(key);
    const keeping = this.live || Boolean(this.options.unheardTtlMs);
    if (entry && keeping && this.isFresh(entry, now)) {
      this.stats.hits++;
      return this.resultOf<T>(key, entry, "HIT", now);
    }
    // Still unheard: an answer kept meanwhile that expired within the last unheardTtlMs is served once more
    // while one load refreshes it, so readers do not wait on the reloads (none is older than twice the TTL).
    if (entry && !this.live && entry.unheard && !entry.staleSince && now - entry.expiresAt < (this.options.unheardTtlMs ?? 0)) {
      if (!this.loads.has(key)) this.start(key, tags, load as () => Promise<Loaded<unknown>>).promise.catch(() => {});
      this.stats.hits++;
      return this.resultOf<T>(key, entry, "HIT", now);
    }
    if (!keeping) {
      this.stats.bypass++;
      try {
        const loaded = await load();
        return { value: loaded.value, json: undefined, status: "BYPASS", ageS: 0, expiresAt: loaded.expiresAt ?? Infinity };
      } catch (err) {
        return this.staleOr(err, key);
      }
    }
    this.stats.misses++;
    let inFlight = this.loads.get(key);
    if (!inFlight) inFlight = this.start(key, tags, load as () => Promise<Loaded<unknown>>);
    try {
      const loaded = await inFlight.promise;
      return { value: loaded.value as T, json: loaded.json as Json<T> | undefined, status: "MISS", ageS: 0, expiresAt: loaded.expiresAt ?? Infinity };
    } catch (err) {
      return this.staleOr(err, key);
    }
  }

  /** Marks every entry with one of these tags stale and detaches their loads in flight. */
  invalidate(tags: Iterable<string>) {
    const now = this.now();
    for (const tag of tags) {
      this.stats.invalidations++;
      for (const key of this.byTag.take(tag)) {
        const entry = this.lru.peek(key);
        if (entry && !entry.staleSince) entry.staleSince = now;
      }
      for (const [key, l] of this.loads) {
        if (l.tags.includes(tag)) this.detach(key, l);
      }
    }
  }

  /** Marks `key`'s entry stale if it still holds `value`: a reader found it outdated by a check no tag stands for. */
  expire(key: string, value: unknown) {
    const entry = this.lru.peek(key);
    if (!entry || entry.staleSince) return;
    const parsed = this.parsed.peek(key);
    const held = entry.text === undefined ? entry.value : parsed?.entry === entry ? parsed.json.value : undefined;
    if (held === value) entry.staleSince = this.now();
  }

  /** Nothing held or loading is fresh any more (an announcement that names no entries, a lost stream). */
  invalidateAll() {
    const now = this.now();
    this.stats.invalidations++;
    this.epoch++;
    this.byTag.clear();
    this.lru.forEach((entry) => {
      if (!entry.staleSince) entry.staleSince = now;
    });
    for (const [key, l] of this.loads) this.detach(key, l);
  }

  private isFresh(entry: Entry, now: number) {
    return !entry.staleSince && entry.expiresAt > now;
  }

  private start(key: string, tags: readonly string[], load: () => Promise<Loaded<unknown>>): Load {
    const l: Load = { promise: undefined as never, tags, epoch: this.epoch, detached: false };
    // Begun while no change is heard: kept only briefly, counted from now (setLive's epoch ends it sooner).
    const until = this.live ? Infinity : this.now() + (this.options.unheardTtlMs ?? 0);
    l.promise = (async () => {
      try {
        const answer = await load();
        const loaded = until < (answer.expiresAt ?? Infinity) ? { ...answer, expiresAt: until } : answer;
        // An object answer and its text, made once for memory and for /v1 alike (its value frozen from here on).
        const json = keptAsText(loaded) ? Json.ofValue(loaded.value) : undefined;
        // A load detached by an invalidation may predate the change: its waiters (who asked before the
        // change was announced) get it, memory does not.
        if (!l.detached && l.epoch === this.epoch && !loaded.noStore) this.store(key, tags, loaded, json, until !== Infinity);
        return { ...loaded, json };
      } finally {
        if (this.loads.get(key) === l) this.loads.delete(key);
      }
    })();
    this.loads.set(key, l);
    return l;
  }

  private detach(key: string, l: Load) {
    l.detached = true;
    if (this.loads.get(key) === l) this.loads.delete(key);
  }

  private store(key: string, tags: readonly string[], loaded: Loaded<unknown>, json: Json | undefined, unheard: boolean) {
    key = flatString(key); // held by the LRU and the tag index as long as the entry
    const now = this.now();
    const { value, bytes } = loaded;
    const text = json ? offHeapBytes(this.textOf(json)) : undefined;
    tags = tags.map(flatString); // held as long as the entry (and by the tag index)
    this.lru.set(key, {
      value: text === undefined ? value : undefined,
      text,
      bytes,
      tags,
      loadedAt: now,
      expiresAt: loaded.expiresAt ?? Infinity,
      staleSince: 0,
      unheard,
    });
    this.trim();
    if (!this.lru.has(key)) return; // larger than the whole budget
    for (const tag of tags) this.byTag.add(tag, key);
  }

  private textOf(json: Json): string {
    const text = json.text as string; // made by JSON.stringify (Json.ofValue)
    if (this.options.checkJson && !isDeepStrictEqual(plain(json.value), JSON.parse(text))) {
      throw new Error(`ResponseCache: an answer is not JSON data (parsing its text does not give it back): ${text.slice(0, 200)}`);
    }
    return text;
  }

  /**
   * An entry's answer: its value as kept, or parsed from its text (once while it is asked again: the hot
   * tier), with its Json. Every result has one shape (value, json, status, ageS, expiresAt): the cache is
   * asked for each list item of a page, and results of several shapes made the hit path polymorphic.
   */
  private resultOf<T>(key: string, entry: Entry, status: CacheStatus, now: number): CacheResult<T> {
    const ageS = Math.floor((now - entry.loadedAt) / 1000);
    if (entry.text === undefined) return { value: entry.value as T, json: undefined, status, ageS, expiresAt: entry.expiresAt };
    const hot = this.parsed.get(key);
    if (hot?.entry === entry) return { value: hot.json.value as T, json: hot.json as Json<T>, status, ageS, expiresAt: entry.expiresAt };
    // Its value is parsed now and frozen: a reader that changes it throws, so its text stays what it shows.
    const json = Json.ofText<T>(entry.text);
    const value = json.value;
    this.parsed.set(key, { entry, json });
    this.trim();
    return { value, json, status, ageS, expiresAt: entry.expiresAt };
  }

  /** Within the budget, the two tiers together: the least recently used entries go first. */
  private trim() {
    while (this.lru.size > 0 && this.lru.calculatedSize + this.parsed.calculatedSize > this.options.maxBytes) this.lru.pop();
  }

  private untag(key: string, tags: readonly string[]) {
    for (const tag of tags) this.byTag.remove(tag, key);
  }

  /** The entry when the failure is an outage and it went stale recently enough, else the failure itself. */
  private staleOr<T>(err: unknown, key: string): CacheResult<T> {
    if (!this.options.canServeStale(err)) throw err;
    const entry = this.lru.peek(key);
    if (!entry) throw err;
    const now = this.now();
    const staleSince = entry.staleSince || Math.min(now, entry.expiresAt);
    if (now - staleSince > this.options.staleIfErrorMs) throw err;
    this.stats.stale++;
    return this.resultOf<T>(key, entry, "STALE", now);
  }
}

/**
 * A value as plain JSON-shaped data for the check: arrays of any class (postgres.js results) as arrays,
 * properties that are undefined dropped (JSON drops them too, and reading them gives undefined either way).
 * Anything else stays what it is, so a Date, a Map or an instance differs from what parsing gives.
 */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return Array.from(value, plain);
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = plain(v);
  return out;
}

/**
 * A text's UTF-8 bytes in memory of their own, outside V8's heap: not a slice of Node's shared 8 KB pool,
 * which a kept slice would hold whole. Every text kept is a JSON text (JSON.stringify, or parts of such
 * texts put together), so UTF-8 gives it back exactly. For what is kept: V8 counts such memory toward its
 * next full collection, so bytes made for one request only would bring those on.
 */
export function offHeapBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}
