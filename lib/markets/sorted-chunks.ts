// A sorted list held as a run of short arrays (chunks): the in-memory list orders (./list-index.ts) keep each
// order of a status's markets in one, so that a market moving in it costs a search and a copy within one
// chunk, not within the whole order. In one array of 56,000 markets, each move copied the array's tail and
// a burst of a few hundred moves was merged in a pass over every market, both bound by memory's latency
// (each step reads a market the caches no longer hold): 40 ms of the event loop for the ~220 markets an
// ingest batch moves (docs/performance.md "List orders in memory").
//
// Elements are found by the order's compare, which must be total (the list orders break ties by id): an
// element is removed by its keys as they were when it was put in.

/** Chunks are split above twice this and joined with a neighbour below a quarter of it. */
const CHUNK = 512;

export class SortedChunks<T> {
  private chunks: T[][] = [];
  private size = 0;

  private constructor(private readonly compare: (a: T, b: T) => number) {}

  /** A list of `sorted` (already in `compare`'s order; not copied by reference). */
  static from<T>(sorted: readonly T[], compare: (a: T, b: T) => number): SortedChunks<T> {
    const list = new SortedChunks(compare);
    for (let i = 0; i < sorted.length; i += CHUNK) list.chunks.push(sorted.slice(i, i + CHUNK));
    list.size = sorted.length;
    return list;
  }

  get length(): number {
    return this.size;
  }

  /** The first chunk whose last element is not before `x`, or the last chunk. */
  private chunkOf(x: T): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.chunks[mid];
      if (this.compare(c[c.length - 1], x) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private lowerBound(chunk: T[], x: T): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(chunk[mid], x) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(x: T): void {
    this.size++;
    if (!this.chunks.length) {
      this.chunks.push([x]);
      return;
    }
    const at = this.chunkOf(x);
    const chunk = this.chunks[at];
    chunk.splice(this.lowerBound(chunk, x), 0, x);
    if (chunk.length > 2 * CHUNK) this.chunks.splice(at, 1, chunk.slice(0, CHUNK), chunk.slice(CHUNK));
  }

  /** Removes `x` (the same element, found by its keys); whether it was there. */
  remove(x: T): boolean {
    if (!this.chunks.length) return false;
    const at = this.chunkOf(x);
    const chunk = this.chunks[at];
    const i = this.lowerBound(chunk, x);
    if (chunk[i] !== x) return false;
    chunk.splice(i, 1);
    this.size--;
    if (chunk.length === 0) this.chunks.splice(at, 1);
    else if (chunk.length < CHUNK / 4 && this.chunks.length > 1) {
      // Joined with the smaller neighbour, split again if that makes it too long.
      const with_ = at === 0 || (at + 1 < this.chunks.length && this.chunks[at + 1].length < this.chunks[at - 1].length) ? at + 1 : at - 1;
      const [first, second] = with_ > at ? [at, with_] : [with_, at];
      const joined = this.chunks[first].concat(this.chunks[second]);
      this.chunks.splice(first, 2, ...(joined.length > 2 * CHUNK ? [joined.slice(0, CHUNK), joined.slice(CHUNK)] : [joined]));
    }
    return true;
  }

  /** At most `limit` elements from position `offset`, counted from the start, or from the end when `reverse`. */
  page(offset: number, limit: number, reverse = false): T[] {
    const out: T[] = [];
    if (offset >= this.size || limit <= 0) return out;
    if (!reverse) {
      let skip = offset;
      for (const chunk of this.chunks) {
        if (skip >= chunk.length) {
          skip -= chunk.length;
          continue;
        }
        for (let i = skip; i < chunk.length && out.length < limit; i++) out.push(chunk[i]);
        skip = 0;
        if (out.length >= limit) break;
      }
    } else {
      let skip = offset;
      for (let c = this.chunks.length - 1; c >= 0; c--) {
        const chunk = this.chunks[c];
        if (skip >= chunk.length) {
          skip -= chunk.length;
          continue;
        }
        for (let i = chunk.length - 1 - skip; i >= 0 && out.length < limit; i--) out.push(chunk[i]);
        skip = 0;
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  /** The elements that pass `keep`, in order. */
  filter(keep: (x: T) => boolean): T[] {
    const out: T[] = [];
    for (const chunk of this.chunks) for (const x of chunk) if (keep(x)) out.push(x);
    return out;
  }

  /** Every element, in order. */
  toArray(): T[] {
    return this.chunks.flat();
  }
}
