// The machine's own pace beside `npm run bench:compare -- --detail`: Next's floor, a dynamic page that reads
// no database (/watchlist without a cookie: its empty state, layout and metadata), asked like detail.mjs
// asks a page (16 connections). Processes of one build served cold market pages at 45 to 111 req/s
// within an hour on one machine of this kind (README, "Performance at 100,000 markets", stop 40); the floor
// moves with the machine, so a cold page's share of it compares runs on different days and machines better
// than req/s alone. Prints only; never asserts.
//   APP_URL=http://127.0.0.1:3000 DETAIL_JSON='{"page.cold":{"rps":75,…}}' npx tsx scripts/bench-floor.ts
import autocannon from "autocannon";

const base = (process.env.APP_URL ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
const duration = Number(process.env.DETAIL_SECONDS ?? 10);
const r = await autocannon({ url: `${base}/watchlist`, connections: 16, duration });
const floor = Math.round(r["2xx"] / r.duration);
const detail = process.env.DETAIL_JSON ? (JSON.parse(process.env.DETAIL_JSON) as Record<string, { rps: number }>) : {};
const cold = detail["page.cold"]?.rps;
const share =
  cold !== undefined && floor > 0 ? `; market page cold ${cold} req/s (the detail line's figure) = ${((100 * cold) / floor).toFixed(0)}% of the floor` : "";
console.log(`floor: /watchlist ${floor} req/s, p99 ${r.latency.p99} ms, ${r.non2xx + r.errors} failed (16 connections, ${duration} s)${share}`);
