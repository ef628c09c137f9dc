// What an app's caches hold after a run (GET /api/stats, app/api/stats/route.ts): the response cache's bytes
// against its budget, the lists' orders (the statuses they keep, against their budget), and the process's heap and resident memory. One line per app.
export async function printStats(apps) {
  for (const app of apps) {
    try {
      const res = await fetch(`${app.origin}/api/stats`);
      const s = await res.json();
      console.log(
        `caches ${app.name}: ${s.cachesMb} MB (response cache ${s.cache.mb} MB in ${s.cache.entries} entries, budget ${s.cache.budgetMb} MB; ` +
          `list orders ${s.listIndex.mb} MB for ${s.listIndex.markets} markets of ${(s.listIndex.kept ?? ["every status"]).join(", ")}, budget ${s.listIndex.budgetMb ?? "–"} MB); process heap ${s.process.heapUsedMb} MB, rss ${s.process.rssMb} MB`,
      );
    } catch (err) {
      console.log(`caches ${app.name}: no stats (${err.message})`);
    }
  }
}
