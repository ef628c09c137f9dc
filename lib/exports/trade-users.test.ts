import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Duck, openDuck } from "./duck";
import { type DayUser, loadDayUsers } from "./trade-users";
import { parquetCopy } from "./writer";

interface Trade {
  id: string;
  price: string;
  shares: string;
  maker: string | null;
  taker: string | null;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trade-users-"));
const MARKET = randomUUID();
const OUTCOME = randomUUID();
let duck: Duck;
let n = 0;

beforeAll(async () => {
  duck = await openDuck(dir);
});
afterAll(() => {
  duck.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function* batchesOf(users: DayUser[], size = 100): AsyncIterable<DayUser[]> {
  for (let i = 0; i < users.length; i += size) yield users.slice(i, i + size);
}

/** The trades as PostgreSQL's COPY (FORMAT csv) writes the dataset's query, one second apart. */
const csvOf = (trades: Trade[]) =>
  trades
    .map((t, i) => {
      const at = new Date(Date.parse("2026-11-27T00:00:00Z") + i * 1000).toISOString().replace("T", " ").replace("Z", "+00");
      return `${t.id},${MARKET},${OUTCOME},${t.price},${t.shares},${at},${t.maker ?? ""},${t.taker ?? ""}\n`;
    })
    .join("");

/** Writes `trades` as the day's Parquet file and reads it back; `pipe`: the CSV fed through a named pipe, as the job feeds it. */
async function roundTrip(users: DayUser[], trades: Trade[], { pipe = false } = {}) {
  await loadDayUsers(duck.connection, batchesOf(users));
  const base = path.join(dir, `t${++n}`);
  if (pipe) execFileSync("mkfifo", [`${base}.csv`]);
  const fed = fs.promises.writeFile(`${base}.csv`, csvOf(trades));
  if (!pipe) await fed;
  await duck.connection.run(parquetCopy("trades", `${base}.csv`, `${base}.parquet`));
  await fed;
  const read = await duck.connection.runAndReadAll(
    `SELECT id::VARCHAR AS id, notional::VARCHAR AS notional, maker_id::VARCHAR AS maker_id, maker_username, taker_id::VARCHAR AS taker_id, taker_username FROM '${base}.parquet'`,
  );
  return read.getRowObjectsJS() as Record<string, string | null>[];
}

/** round(price × shares, 6), half away from zero, in integers: price has 3 decimals and shares 6. */
function notionalOf(price: string, shares: string): string {
  const micro = (s: string, scale: number) => BigInt(s.replace(".", "").padEnd(s.split(".")[0].length + scale, "0"));
  const p = micro(price.includes(".") ? price : `${price}.`, 3);
  const [whole, frac = ""] = shares.split(".");
  const s = BigInt(whole + frac.padEnd(6, "0"));
  const product = p * s; // scale 9
  const rounded = (product + 500n) / 1000n; // scale 6, every value positive
  const text = rounded.toString().padStart(7, "0");
  return `${text.slice(0, -6)}.${text.slice(-6)}`;
}

describe('trades file – users named in DuckDB (docs/api.md "Exports")', () => {
  it("names each maker and taker from the day's users, in the tape's order, null where the trade names none", async () => {
    const users = Array.from({ length: 300 }, (_, i) => ({ id: randomUUID(), username: `trader, "${i}"` }));
    const pick = (i: number, every: number) => (i % every === 0 ? null : users[(i * 7919) % users.length].id);
    // Several of DuckDB's 2,048-row chunks, with the nulls a join would move to the end of each.
    const trades = Array.from({ length: 10_000 }, (_, i) => ({ id: randomUUID(), price: "0.5", shares: "1", maker: pick(i, 5), taker: pick(i + 1, 7) }));
    const rows = await roundTrip(users, trades, { pipe: true });
    const nameOf = new Map(users.map((u) => [u.id, u.username]));
    expect(rows.map((r) => r.id)).toEqual(trades.map((t) => t.id));
    expect(rows.map((r) => [r.maker_id, r.maker_username, r.taker_id, r.taker_username])).toEqual(
      trades.map((t) => [t.maker, t.maker && nameOf.get(t.maker), t.taker, t.taker && nameOf.get(t.taker)]),
    );
  });

  it("writes the notional as PostgreSQL's round(price * shares, 6): half away from zero, exact up to 10^12 shares, in 64 bits and past them", async () => {
    const cases: [string, string][] = [
      ["0.5", "0.000001"],
      ["0.5", "0.000003"],
      ["0.125", "0.000004"],
      ["0.001", "0.000499"],
      ["0.001", "0.0005"],
      // Either side of 10^8 shares, where the product leaves 64 bits for 128.
      ["0.999", "99999999.999999"],
      ["0.5", "99999999.999999"],
      ["0.5", "100000000.000001"],
      ["0.999", "100000000"],
      ["0.999", "999999999999.999999"],
      ["1", "999999999999.999999"],
      ["0.333", "12.34"],
      ["0.01", "2000"],
    ];
    const trades = cases.map(([price, shares]) => ({ id: randomUUID(), price, shares, maker: null, taker: null }));
    const rows = await roundTrip([], trades);
    expect(rows.map((r) => r.notional)).toEqual(cases.map(([p, s]) => notionalOf(p, s)));
    expect(notionalOf("0.5", "0.000001")).toBe("0.000001");
  });

  it("fails the file when a trade names a user who is not among the day's users", async () => {
    const known = { id: randomUUID(), username: "known" };
    const trades = [{ id: randomUUID(), price: "0.5", shares: "1", maker: known.id, taker: randomUUID() }];
    await expect(roundTrip([known], trades)).rejects.toThrow(/Conversion|Could not convert/);
  });
});
