// The binary COPY encoder against a real PostgreSQL: what the server reads back is what the text of
// the same values would have given, for every type the encoder writes.
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BinaryCopy, uuidBytes } from "./copy-binary";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded";

const CLUSTER = path.join(process.cwd(), ".data", "copy-binary-test-pg");
let cluster: EmbeddedDatabase;
let sql: postgres.Sql;

beforeAll(async () => {
  cluster = await startEmbeddedPostgres({ dir: CLUSTER, database: "copy_binary_test", log: () => {} });
  sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
}, 120_000);
afterAll(async () => {
  await sql?.end();
  await cluster?.stop();
}, 60_000);

/**
 * Copies the rows `write` writes (calling `row` after each) into a fresh temp table of `columns`, in
 * small buffers, and reads them back: each column as text, or as `select` says.
 */
async function roundTrip(columns: string, write: (c: BinaryCopy, row: () => void) => void, select?: string): Promise<Record<string, string | null>[]> {
  return sql.begin(async (tx) => {
    await tx.unsafe(`CREATE TEMP TABLE t (${columns}) ON COMMIT DROP`);
    const c = new BinaryCopy(8192);
    const buffers: Buffer[] = [];
    write(c, () => {
      if (c.ready) buffers.push(c.take());
    });
    buffers.push(c.end());
    await pipeline(Readable.from(buffers), await tx`COPY t FROM STDIN (FORMAT binary)`.writable());
    const names = (await tx<{ n: string }[]>`SELECT attname AS n FROM pg_attribute WHERE attrelid = 't'::regclass AND attnum > 0 ORDER BY attnum`).map(
      (r) => r.n,
    );
    return tx.unsafe(`SELECT ${select ?? names.map((n) => `${n}::text AS ${n}`).join(", ")} FROM t ORDER BY t.i`);
  }) as Promise<Record<string, string | null>[]>;
}

describe("BinaryCopy", () => {
  it("writes numerics of any scale and display scale exactly, into constrained and unconstrained columns", async () => {
    const cases: [number, number, number][] = [
      [0, 3, 3],
      [5, 3, 3],
      [512, 3, 3],
      [995, 3, 3],
      [1000, 3, 3],
      [1234, 2, 6],
      [250_000, 2, 6],
      [1, 5, 9],
      [631_808, 5, 9],
      [100_000_000, 5, 9],
      [7_500_000_000_000_00, 5, 9], // 7.5e14 in 1e-5: a market of millions of trades
      [2 ** 53 - 1, 0, 0],
      [10_000, 0, 0],
      [123_456_789, 4, 4],
      [90_000_000, 8, 8],
    ];
    const rows = await roundTrip("i int, v numeric, p numeric(30,6)", (c) => {
      cases.forEach(([n, scale, dscale], i) => {
        c.row(3).int4(i).numeric(n, scale, dscale).numeric(n, scale, dscale);
      });
    });
    expect(rows).toHaveLength(cases.length);
    const text = (n: number, scale: number, dscale: number) => {
      const s = BigInt(n)
        .toString()
        .padStart(scale + 1, "0");
      const whole = s.slice(0, s.length - scale);
      const frac = (s.slice(s.length - scale) + "0".repeat(dscale)).slice(0, dscale);
      return dscale ? `${whole}.${frac}` : whole;
    };
    expect(rows).toEqual(cases.map(([n, scale, dscale], i) => ({ i: String(i), v: text(n, scale, dscale), p: text(n, scale, 6) })));
  });

  it("writes timestamps to the millisecond, before and after PostgreSQL's epoch", async () => {
    const times = [0, 946_684_800_000, 946_684_799_999, 1_764_547_200_123, Date.UTC(2026, 10, 30, 23, 59, 59, 999)];
    const rows = await roundTrip(
      "i int, at timestamptz",
      (c) => {
        times.forEach((ms, i) => {
          c.row(2).int4(i).timestamptz(ms);
        });
      },
      "i, (extract(epoch FROM at) * 1000)::bigint::text AS ms",
    );
    expect(rows.map((r) => Number(r.ms))).toEqual(times);
  });

  it("writes uuids whole or from 10 bytes and a 48-bit tail, nulls, and many buffers in one COPY", async () => {
    const id = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0ff";
    const head = Buffer.from("0f1e2d3c4b5a49788695", "hex");
    let buffers = 1;
    const rows = await roundTrip("i int, a uuid, b uuid, n int", (c, row) => {
      c.row(4)
        .int4(0)
        .uuid(uuidBytes(id))
        .uuidWith(head, 2 ** 48 - 1)
        .null();
      for (let i = 1; i <= 2000; i++) {
        c.row(4).int4(i).uuid(uuidBytes(id)).uuidWith(head, i).int4(-i);
        if (c.ready) buffers++;
        row();
      }
    });
    expect(buffers).toBeGreaterThan(5);
    expect(rows).toHaveLength(2001);
    const byI = new Map(rows.map((r) => [Number(r.i), r]));
    expect(byI.get(0)).toEqual({ i: "0", a: id, b: "0f1e2d3c-4b5a-4978-8695-ffffffffffff", n: null });
    expect(byI.get(1999)).toEqual({ i: "1999", a: id, b: `0f1e2d3c-4b5a-4978-8695-${(1999).toString(16).padStart(12, "0")}`, n: "-1999" });
  });
});
