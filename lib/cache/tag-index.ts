// Which cached keys carry a tag (the response cache's index for invalidation). Most tags name one entry
// (an outcome's book, a market's detail), so a tag with one key keeps the key itself and only a tag with
// more gets a Set: at 100k markets the index had 120,000 Sets with a hash table each, 48 MB and a quarter
// of a million heap objects that every major collection walks while pages render.
export class TagIndex {
  private readonly keys = new Map<string, string | Set<string>>();

  add(tag: string, key: string) {
    const held = this.keys.get(tag);
    if (held === undefined) this.keys.set(tag, key);
    else if (typeof held === "string") {
      if (held !== key) this.keys.set(tag, new Set([held, key]));
    } else held.add(key);
  }

  remove(tag: string, key: string) {
    const held = this.keys.get(tag);
    if (held === key) this.keys.delete(tag);
    else if (typeof held === "object") {
      held.delete(key);
      if (held.size === 1) this.keys.set(tag, held.values().next().value as string);
    }
  }

  /** The keys of `tag` (none: empty), and the tag forgotten. */
  take(tag: string): Iterable<string> {
    const held = this.keys.get(tag);
    if (held === undefined) return [];
    this.keys.delete(tag);
    return typeof held === "string" ? [held] : held;
  }

  clear() {
    this.keys.clear();
  }

  /** Tags held. */
  get size() {
    return this.keys.size;
  }
}
