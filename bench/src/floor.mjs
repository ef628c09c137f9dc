// The machine's pace beside --detail: Next's floor, a dynamic page that reads no database (/watchlist
// without a cookie: its empty state, layout and metadata), asked as the probe asks a page (16 connections).
// The floor moves with the machine from hour to hour; a cold market page's share of it compares runs made on
// different days or machines better than its req/s alone. Prints only; asserts nothing.
import { runLoad } from "./load.mjs";
import { f0 } from "./report.mjs";

const CONNECTIONS = 16;

/** Measures each app's floor; `medians` are the probe's figures per app, for the cold page's share. */
export async function floor(apps, medians, { seconds }) {
  for (const app of apps) {
    const s = await runLoad(app.origin, [{ method: "GET", path: "/watchlist" }], { connections: CONNECTIONS, seconds });
    const cold = medians?.[app.name]?.["page.cold"]?.rps;
    const share = cold !== undefined && s.rps > 0 ? `; cold market page ${f0(cold)} req/s = ${f0((100 * cold) / s.rps)}% of the floor` : "";
    console.log(`floor ${app.name}: /watchlist ${f0(s.rps)} req/s, p99 ${s.p99} ms, ${s.failed} failed (${CONNECTIONS} connections, ${seconds} s)${share}`);
  }
}
