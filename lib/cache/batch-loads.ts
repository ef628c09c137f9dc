// Loads of many keys put together: the keys asked for in one turn of the event loop go out as one
// `loadMany` (one statement) on the next, so that the misses of a cache read, or of every request read
// in one turn (lib/markets/reads/lists/items.ts), cost the database and the main thread one round trip.

/**
 * A loader of one key whose calls are put together: the keys queued before the next turn of the loop
 * (setImmediate) go out as one `loadMany`, each key once, at most `maxKeys` of them in each. Each caller
 * gets its key's value, or undefined when the load did not return it; a load that fails fails each of
 * its callers.
 */
export function batchLoads<K, V>(
  loadMany: (keys: K[]) => Promise<Map<string, V>>,
  idOf: (key: K) => string,
  maxKeys = Number.POSITIVE_INFINITY,
): (key: K) => Promise<V | undefined> {
  let open: { keys: K[]; ids: Set<string>; loaded: Promise<Map<string, V>> } | null = null;
  return (key) => {
    const id = idOf(key);
    if (open?.ids.has(id)) return open.loaded.then((loaded) => loaded.get(id));
    if (!open || open.keys.length >= maxKeys) {
      const keys: K[] = [];
      const batch = {
        keys,
        ids: new Set<string>(),
        loaded: new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          if (open === batch) open = null;
          return loadMany(keys);
        }),
      };
      open = batch;
    }
    open.keys.push(key);
    open.ids.add(id);
    return open.loaded.then((loaded) => loaded.get(id));
  };
}
