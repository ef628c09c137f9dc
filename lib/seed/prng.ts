// Deterministic randomness for the demo data: a small fast PRNG plus a hash that derives
// independent streams (per market, per table) from one seed, so any part can be regenerated alone.

/** Mixes 32-bit integers into one well-spread 32-bit value (murmur3 finaliser over a running hash). */
export function hash32(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    h = Math.imul(h ^ (x | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** Hash of a short label, so streams can be named ("trades", "orders") instead of numbered. */
export function labelHash(label: string): number {
  let h = 2166136261;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 16777619);
  return h >>> 0;
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // sfc32 seeded through the hash so that neighbouring seeds give unrelated streams.
    this.a = hash32(seed, 1);
    this.b = hash32(seed, 2);
    this.c = hash32(seed, 3);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Weighted pick: weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let x = this.next() * total;
    for (const [item, w] of items) {
      x -= w;
      if (x < 0) return item;
    }
    return items[items.length - 1][0];
  }

  /** k distinct items in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
}

const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, "0");

/**
 * A uuid (version-4 shaped) that encodes (table salt, a, b): ids of one table sort by (a, b), so bulk
 * loads append to the primary-key index instead of scattering; the tail is hash noise.
 * a < 2^28 (e.g. market index), b < 2^22 (row within the market).
 */
export function seededUuid(salt: number, a: number, b: number): string {
  return seededUuidAfter(seededUuidPrefix(salt, a), salt, a, b);
}

/** The part of seededUuid() that depends on (salt, a) only, for hot loops over b. */
export function seededUuidPrefix(salt: number, a: number): string {
  return `${hex8(salt)}-${((a >>> 12) & 0xffff).toString(16).padStart(4, "0")}-4${(a & 0xfff).toString(16).padStart(3, "0")}-`;
}

export function seededUuidAfter(prefix: string, salt: number, a: number, b: number): string {
  const tail = hash32(salt, a, b);
  const s4 = (8 + ((b >>> 20) & 3)).toString(16) + ((b >>> 8) & 0xfff).toString(16).padStart(3, "0");
  const s5 = (b & 0xff).toString(16).padStart(2, "0") + hex8(tail) + ((tail >>> 7) & 0xff).toString(16).padStart(2, "0");
  return `${prefix}${s4}-${s5}`;
}
