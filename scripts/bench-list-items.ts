// npm run bench:list-items [-- --items 20000 --rounds 5]
// What a list item costs the main thread when it is loaded and when a page shows it (lib/cache/json-shapes.ts,
// docs/performance.md "List items as packed bytes"): reads --items ACTIVE markets of DATABASE_URL as list
// items, the statement an instance reads them with, then per round prints the microseconds per item of
// JSON.stringify (the floor: every packing starts from the item's JSON), of packJson, and of unpacking
// them twenty at a time into a page's pieces. Prints only; never asserts.
import { parseArgs } from "node:util";
import postgres from "postgres";
import { packJson, unpackJsonInto } from "../lib/cache/json-shapes";
import { listedRowSql, listItemOf } from "../lib/markets/sql/fragments";

const { values: args } = parseArgs({ options: { items: { type: "string" }, rounds: { type: "string" } } });
if (!process.env.DATABASE_URL) throw new Error("set DATABASE_URL to the database to read");
const N = Number(args.items ?? 20000);
const ROUNDS = Number(args.rounds ?? 5);
const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
try {
  const rows = await sql`SELECT ${listedRowSql(sql as never)} FROM markets m WHERE m.status = 'ACTIVE' ORDER BY m.id LIMIT ${N}`;
  const items = rows.map((r) => listItemOf(r as never));
  const bytes = items.reduce((n, i) => n + Buffer.byteLength(JSON.stringify(i)), 0);
  console.log(`${items.length} list items, ${Math.round(bytes / items.length)} bytes of JSON each on average`);
  const perItem = (f: () => void) => {
    const t = process.hrtime.bigint();
    f();
    return (Number(process.hrtime.bigint() - t) / 1e3 / items.length).toFixed(1);
  };
  for (let r = 1; r <= ROUNDS; r++) {
    const floor = perItem(() => {
      for (const i of items) JSON.stringify(i);
    });
    let packed: Buffer[] = [];
    const pack = perItem(() => {
      packed = items.map((i) => packJson(i));
    });
    const unpack = perItem(() => {
      for (let k = 0; k < packed.length; k += 20) {
        const pieces: string[] = [];
        for (const p of packed.slice(k, k + 20)) unpackJsonInto(p, pieces);
        pieces.join("");
      }
    });
    const kept = packed.reduce((n, p) => n + p.length, 0) / bytes;
    console.log(
      `round ${r}: JSON.stringify ${floor} µs/item; packJson ${pack} µs/item (kept ${(kept * 100).toFixed(0)} % of the JSON); unpacked into pages of 20 ${unpack} µs/item`,
    );
  }
} finally {
  await sql.end({ timeout: 5 });
}
