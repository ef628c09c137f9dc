// npm run measure:reads [-- --runs 15 --only TEXT]
// Times the list and market reads of lib/markets/sql/ straight against the database (no HTTP,
// no cache), one at a time, and prints median and max per case: the SQL side of the hot reads on a
// large dataset, e.g. EMBEDDED_PG_DIR=/work/data/pg100k or DATABASE_URL. Prints only; never asserts.
import { parseArgs } from "node:util";
import { closeDb, db } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { sampleTimes } from "../lib/dev/tools";
import { listMarkets } from "../lib/markets/sql/lists";
import { getMarket } from "../lib/markets/sql/market";
import { sweepTrending } from "../lib/markets/trending-sweeper";
import { marketListQuery } from "../lib/markets/schemas";

const { values: args } = parseArgs({ options: { runs: { type: "string" }, only: { type: "string" } } });
const runs = Number(args.runs ?? 15);

const list = (qs: string) => () => listMarkets(marketListQuery.parse(Object.fromEntries(new URLSearchParams(qs))));

const database = await resolveDatabase({ log: (m) => console.error(m) });
try {
  const sql = db();
  // What every app instance does once a minute: without it, TRENDING subtracts all that aged since the load.
  await sweepTrending(sql);
  // The market with the most trades: the top-traders aggregate at its largest.
  const [busy] = await sql<{ slug: string; trades: number }[]>`
    SELECT m.slug, t.n::int AS trades FROM (SELECT market_id, count(*) AS n FROM trades GROUP BY 1 ORDER BY 2 DESC LIMIT 1) t
      JOIN markets m ON m.id = t.market_id`;
  const cases: [string, () => Promise<unknown>][] = [
    ["list default (ACTIVE, CREATED DESC)", list("")],
    ["list RESOLVED", list("status=RESOLVED")],
    ["list CRYPTO by VOLUME, offset 100", list("category=CRYPTO&sortBy=VOLUME&offset=100")],
    ...["CREATED", "VOLUME", "LIQUIDITY", "ENDING", "TRENDING"].map(
      (s) => [`list offset 20000 by ${s}`, list(`sortBy=${s}&offset=20000`)] as [string, () => Promise<unknown>],
    ),
    ["list CRYPTO offset 5000 by VOLUME", list("category=CRYPTO&sortBy=VOLUME&offset=5000")],
    ...["will", "e", "rate", "bitcoin", "zzqx"].map((w) => [`list q=${w}`, list(`q=${w}`)] as [string, () => Promise<unknown>]),
    ["list q=will by TRENDING", list("q=will&sortBy=TRENDING")],
    ["list q=rate offset 2000", list("q=rate&offset=2000")],
    [`market by slug (${busy?.trades ?? 0} trades)`, () => getMarket({ slug: busy.slug })],
  ];
  console.log(`${runs} runs per case, after one warm-up run; milliseconds`);
  console.log(`${"case".padEnd(44)} ${"median".padStart(8)} ${"max".padStart(8)}`);
  for (const [name, run] of cases) {
    if (args.only && !name.includes(args.only)) continue;
    const [times] = await sampleTimes([run], { runs });
    console.log(`${name.padEnd(44)} ${times[Math.floor(times.length / 2)].toFixed(1).padStart(8)} ${times[times.length - 1].toFixed(1).padStart(8)}`);
  }
} finally {
  await closeDb();
  await database.stop();
}
