// The daily Parquet exports (docs/api.md "Exports") against a server of their own that runs the export job
// over the test database: each file, read with an independent reader (hyparquet), holds exactly what the
// API lists for that day; a back-dated import writes its day again; files are served per RFC 9110.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetMetadata, parquetReadObjects, parquetSchema } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import postgres from "postgres";
import { lowerBackendPriority } from "@/lib/os/priority";
import { importFile } from "@/lib/import/import";
import { encodeTradeCursor } from "@/lib/markets/trade-cursor";
import { type Instance, startInstance } from "../support/instance";
import { expect, test, testRun } from "../fixtures";

type Row = Record<string, any>;

/**
 * fetch, asked once more when the connection it reused was closed under it (the server's keep-alive timeout
 * can meet a request sent after a long comparison): every request here is an idempotent GET or HEAD.
 */
async function get(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}
interface Entry {
  dataset: string;
  day: string;
  status: "complete" | "partial";
  rows: number;
  bytes: number;
  sha256: string;
  url: string;
  written_at: string;
}

const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "exports-spec-"));
let server: Instance;

/** Microseconds as the API writes an instant with microseconds (book changes' `at`). */
const isoMicros = (us: bigint) => `${new Date(Number(us / 1000n)).toISOString().slice(0, 19)}.${String(us % 1_000_000n).padStart(6, "0")}Z`;
/** Read as stored: instants as microseconds, UUIDs as text (absent: null). */
const parsers = {
  timestampFromMicroseconds: (us: bigint) => us,
  uuidFromBytes: (b: Uint8Array | undefined) => {
    if (!b) return null;
    const h = Buffer.from(b).toString("hex");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  },
};

async function readParquet(url: string): Promise<{ rows: Row[]; schema: Record<string, string> }> {
  const res = await get(`${server.baseURL}${url}`);
  expect(res.status).toBe(200);
  const file = await res.arrayBuffer();
  const metadata = parquetMetadata(file, { parsers });
  const schema = Object.fromEntries(
    parquetSchema(metadata).children.map((c) => {
      const e = c.element;
      const t = e.logical_type?.type ?? e.converted_type ?? e.type;
      return [e.name, t === "DECIMAL" ? `DECIMAL(${e.precision},${e.scale})` : String(t)];
    }),
  );
  const rows = (await parquetReadObjects({ file, metadata, compressors, parsers })) as Row[];
  return { rows, schema };
}

async function index(query = ""): Promise<Entry[]> {
  const res = await get(`${server.baseURL}/v1/exports${query}`);
  expect(res.status).toBe(200);
  return (await res.json()).exports;
}

async function entryOf(dataset: string, day: string, until: (e: Entry) => boolean | Promise<boolean> = () => true): Promise<Entry> {
  let found: Entry | undefined;
  await expect
    .poll(
      async () => {
        found = (await index(`?dataset=${dataset}&from=${day}&to=${day}`))[0];
        return found !== undefined && (await until(found));
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(true);
  return found!;
}

function groupBy(rows: Row[], key: string): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) {
    const list = out.get(r[key]);
    if (list) list.push(r);
    else out.set(r[key], [r]);
  }
  return out;
}

/** Decimals: the file's exact DECIMAL read as a double by hyparquet, the API's string: equal for values of at most 15 digits. */
const sameDecimal = (file: number, api: string | number) => expect(file).toBe(Number(api));

test.describe.configure({ mode: "serial" });
test.setTimeout(240_000);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startInstance({ DATABASE_URL: testRun().databaseUrl, EXPORT_JOB: "on", EXPORT_DIR: dir, EXPORT_CHECK_MS: "1000", EXPORT_SINCE: yesterday });
});

test.afterAll(async ({}, testInfo) => {
  // What the server and its job said, when something here failed.
  if (testInfo.errors.length || process.env.EXPORTS_SPEC_LOG) console.log(server?.output().slice(-6000));
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test.describe("GET /v1/exports", () => {
  test("the index lists a closed day as complete and today as partial, with rows, bytes, sha256 and url", async () => {
    const closed = await entryOf("trades", yesterday);
    expect(closed).toMatchObject({ status: "complete", url: `/v1/exports/trades/${yesterday}.parquet` });
    expect(closed.sha256).toMatch(/^[0-9a-f]{64}$/);
    const partial = await entryOf("markets", today);
    expect(partial.status).toBe("partial");
  });

  test("the camelCase variant, an ETag and 304", async () => {
    const res = await get(`${server.baseURL}/v1/exports?dataset=trades`, { headers: { Accept: "application/vnd.markets.camel+json" } });
    const body = await res.json();
    expect(body.exports[0]).toHaveProperty("writtenAt");
    const etag = res.headers.get("etag")!;
    const again = await get(`${server.baseURL}/v1/exports?dataset=trades`, {
      headers: { Accept: "application/vnd.markets.camel+json", "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
  });

  for (const [query, message] of [
    ["?foo=1", "property foo should not exist"],
    ["?dataset=orders", "dataset must be one of trades, book_changes, candles_1m, markets"],
    ["?from=2026-02-30", "from must be a day, YYYY-MM-DD"],
    ["?from=2026-02-02&to=2026-02-01", "from must not be after to"],
  ]) {
    test(`rejects ${query} with 400`, async () => {
      const res = await get(`${server.baseURL}/v1/exports${query}`);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(message);
    });
  }
});

test.describe("the files hold what the API lists", () => {
  test("trades: a day's file equals GET /v1/markets/{id}/trades for that day, every field", async ({ sql }) => {
    const start = Date.parse(`${yesterday}T00:00:00Z`);
    let n = -1;
    const dayCount = async () =>
      (
        await sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM trades WHERE executed_at >= ${new Date(start)} AND executed_at < ${new Date(start + 86_400_000)}`
      )[0].n;
    // Specs running beside this one may import trades into that day: the job writes the day again (a
    // back-dated import marks it), at idle priority, so wait for the file that holds the day as it is now.
    const entry = await entryOf("trades", yesterday, async (e) => e.rows === (n = await dayCount()));
    const { rows, schema } = await readParquet(entry.url);
    expect(schema).toMatchObject({ price: "DECIMAL(4,3)", shares: "DECIMAL(18,6)", notional: "DECIMAL(18,6)", executed_at: "TIMESTAMP", id: "UUID" });
    expect(rows.length).toBe(n);
    expect(rows.length).toBe(entry.rows);
    // The markets with most trades that day, and one with few: their whole day through the API.
    const byMarket = groupBy(rows, "market_id");
    const markets = [...byMarket.keys()].sort((a, b) => byMarket.get(b)!.length - byMarket.get(a)!.length);
    for (const marketId of [...markets.slice(0, 4), markets[markets.length - 1]]) {
      const listed: Row[] = [];
      let before: string | null = encodeTradeCursor({ us: BigInt(start + 86_400_000) * 1000n, id: "00000000-0000-0000-0000-000000000000" });
      while (before) {
        const page = await (await get(`${server.baseURL}/v1/markets/${marketId}/trades?limit=100&before=${before}`)).json();
        const inDay = page.trades.filter((t: Row) => Date.parse(t.executed_at) >= start);
        listed.push(...inDay);
        before = inDay.length === page.trades.length ? page.next_cursor : null;
      }
      const file = byMarket.get(marketId)!.toReversed();
      expect(file.map((r) => r.id)).toEqual(listed.map((t) => t.id));
      file.forEach((r, i) => {
        const t = listed[i];
        expect(r.outcome_id).toBe(t.outcome_id);
        sameDecimal(r.price, t.price);
        sameDecimal(r.shares, t.shares);
        sameDecimal(r.notional, t.notional);
        expect(new Date(Number(r.executed_at / 1000n)).toISOString()).toBe(t.executed_at);
        expect(r.maker_id === null ? null : { id: r.maker_id, username: r.maker_username }).toEqual(t.maker);
        expect(r.taker_id === null ? null : { id: r.taker_id, username: r.taker_username }).toEqual(t.taker);
      });
    }
  });

  test("book_changes: the file equals GET …/orderbook/changes for its versions", async () => {
    const entry = await entryOf("book_changes", today);
    const { rows, schema } = await readParquet(entry.url);
    expect(schema).toMatchObject({ version: "INT_64", at: "TIMESTAMP", replace: "BOOLEAN" });
    expect(rows.length).toBeGreaterThan(0);
    const byOutcome = groupBy(rows, "outcome_id");
    const outcomes = [...byOutcome.keys()].sort((a, b) => byOutcome.get(b)!.length - byOutcome.get(a)!.length).slice(0, 5);
    for (const outcomeId of outcomes) {
      const file = byOutcome.get(outcomeId)!.sort((a, b) => Number(a.version - b.version));
      const marketId = file[0].market_id;
      const res = await get(
        `${server.baseURL}/v1/markets/${marketId}/orderbook/changes?outcomeId=${outcomeId}&fromVersion=${file[0].version}&limit=${file.length}`,
      );
      const { changes } = await res.json();
      expect(changes.length).toBe(file.length);
      file.forEach((r, i) => {
        const c = changes[i];
        expect(Number(r.version)).toBe(c.version);
        expect(isoMicros(r.at)).toBe(c.at);
        expect(r.replace).toBe(c.replace);
        for (const side of ["bids", "asks"] as const) {
          expect(r[side].length).toBe(c[side].length);
          r[side].forEach((l: Row, j: number) => {
            sameDecimal(l.price, c[side][j].price);
            sameDecimal(l.shares, c[side][j].shares);
          });
        }
      });
    }
  });

  test("markets: the snapshot equals GET /v1/markets for the markets unchanged since it was written", async () => {
    const entry = await entryOf("markets", today);
    const { rows } = await readParquet(entry.url);
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    const list = await (await get(`${server.baseURL}/v1/markets?limit=100`)).json();
    const written = Date.parse((await index(`?dataset=markets&from=${today}`))[0].written_at);
    const unchanged = list.markets.filter((m: Row) => Date.parse(m.updated_at) < written - 1000);
    expect(unchanged.length).toBeGreaterThan(10);
    const iso = (us: bigint | null) => (us === null || us === undefined ? null : new Date(Number(us / 1000n)).toISOString());
    for (const m of unchanged) {
      const r = byId.get(m.id)!;
      expect(r).toBeDefined();
      for (const key of [
        "slug",
        "question",
        "description",
        "category",
        "sub_category",
        "type",
        "status",
        "resolved_by",
        "resolution_source",
        "resolution_note",
      ])
        expect(r[key] ?? null, key).toEqual(m[key]);
      for (const key of ["spread", "comments_count", "views", "verified", "featured", "image_url", "video_url", "external_source", "winning_outcome_id"])
        expect(r[key] ?? null, key).toEqual(m[key]);
      for (const key of ["trading_starts_at", "trading_ends_at", "resolution_date", "resolved_at", "settled_at", "created_at", "updated_at"])
        expect(iso(r[key]), key).toEqual(m[key]);
      sameDecimal(r.platform_fee, m.platform_fee);
      sameDecimal(r.total_volume, m.total_volume);
      expect(r.tags).toEqual(m.tags);
      expect(r.outcomes.map((o: Row) => o.id)).toEqual(m.outcomes.map((o: Row) => o.id));
      r.outcomes.forEach((o: Row, i: number) => {
        const a = m.outcomes[i];
        sameDecimal(o.probability, a.probability);
        for (const key of ["name", "side", "index", "description", "image_url", "color", "question_id", "condition_id", "position_id", "payout_wei"])
          expect(o[key] ?? null, key).toEqual(a[key]);
        expect(iso(o.created_at)).toBe(a.created_at);
      });
    }
  });
});

test.describe("a back-dated import", () => {
  test("writes its day's trades file again, with the imported trade", async ({ sql }) => {
    const before = await entryOf("trades", yesterday);
    const [market] = await sql<{ id: string; outcome_id: string }[]>`
      SELECT m.id, o.id AS outcome_id FROM markets m JOIN outcomes o ON o.market_id = m.id WHERE m.status = 'ACTIVE' ORDER BY m.id LIMIT 1`;
    const trade = {
      id: randomUUID(),
      market_id: market.id,
      outcome_id: market.outcome_id,
      price: "0.420",
      shares: "12.345678",
      maker_user_id: null,
      taker_user_id: null,
      executed_at: `${yesterday}T12:34:56.789Z`,
    };
    await importFile(sql, { trades: [trade] } as never);
    const after = await entryOf("trades", yesterday, (e) => e.sha256 !== before.sha256);
    expect(after.rows).toBe(before.rows + 1);
    const { rows } = await readParquet(after.url);
    const row = rows.find((r) => r.id === trade.id)!;
    sameDecimal(row.shares, trade.shares);
    // The old name is gone, the day's URL serves the new bytes.
    const res = await get(`${server.baseURL}${after.url}`, { method: "HEAD" });
    expect(res.headers.get("etag")).toBe(`"${after.sha256}"`);
  });
});

test.describe("GET /v1/exports/{dataset}/{day}.parquet (RFC 9110)", () => {
  test("a closed day: strong ETag, immutable, whole file equals its sha256", async () => {
    const e = await entryOf("candles_1m", yesterday);
    const res = await get(`${server.baseURL}${e.url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("etag")).toBe(`"${e.sha256}"`);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(e.bytes);
    expect(createHash("sha256").update(body).digest("hex")).toBe(e.sha256);
  });

  test("today's file is partial and cached briefly", async () => {
    const e = await entryOf("trades", today);
    const res = await get(`${server.baseURL}${e.url}`, { method: "HEAD" });
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("export-status")).toBe("partial");
  });

  test("HEAD answers the headers of GET without a body", async () => {
    const e = await entryOf("trades", yesterday);
    const res = await get(`${server.baseURL}${e.url}`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(e.bytes));
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  test("Range: 206 with Content-Range, suffix ranges, 416 past the end, If-Range, If-None-Match", async () => {
    const e = await entryOf("trades", yesterday);
    const whole = Buffer.from(await (await get(`${server.baseURL}${e.url}`)).arrayBuffer());
    const url = `${server.baseURL}${e.url}`;
    const part = await get(url, { headers: { Range: "bytes=4-103" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 4-103/${e.bytes}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(4, 104))).toBe(true);
    const tail = await get(url, { headers: { Range: "bytes=-8" } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).toString("latin1")).toBe(whole.subarray(e.bytes - 8).toString("latin1"));
    const past = await get(url, { headers: { Range: `bytes=${e.bytes}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${e.bytes}`);
    const stale = await get(url, { headers: { Range: "bytes=0-9", "If-Range": '"not-it"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(e.bytes);
    const current = await get(url, { headers: { Range: "bytes=0-9", "If-Range": `"${e.sha256}"` } });
    expect(current.status).toBe(206);
    expect((await current.arrayBuffer()).byteLength).toBe(10);
    const cached = await get(url, { headers: { "If-None-Match": `"${e.sha256}"` } });
    expect(cached.status).toBe(304);
  });

  test("bad names: 404 for an unknown dataset or day, 400 for a malformed day, in the API's error body", async () => {
    const unknown = await get(`${server.baseURL}/v1/exports/orders/${yesterday}.parquet`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ statusCode: 404, error: "Not Found" });
    expect((await get(`${server.baseURL}/v1/exports/trades/1999-01-01.parquet`)).status).toBe(404);
    const bad = await get(`${server.baseURL}/v1/exports/trades/yesterday.parquet`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toEqual(["day must be a UTC day: YYYY-MM-DD.parquet"]);
  });

  test("a file being written is never served: only whole files the index names, each matching its ETag", async () => {
    // Something the job would be writing (under .tmp, or not yet in the index) is not reachable by any URL.
    fs.mkdirSync(path.join(dir, ".tmp"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".tmp", `trades-1999-01-02-1-1.parquet`), "PAR1 half");
    fs.mkdirSync(path.join(dir, "trades"), { recursive: true });
    fs.writeFileSync(path.join(dir, "trades", "1999-01-02.0000000000000000.parquet"), "PAR1 half");
    expect((await get(`${server.baseURL}/v1/exports/trades/1999-01-02.parquet`)).status).toBe(404);
    for (const e of await index()) {
      const res = await get(`${server.baseURL}${e.url}`);
      const body = Buffer.from(await res.arrayBuffer());
      expect(`"${createHash("sha256").update(body).digest("hex")}"`).toBe(res.headers.get("etag"));
    }
  });
});

test('the job\'s COPY runs in a backend lowered to nice 19, its autogroup too, when the database is on this machine (docs/deploy.md "Exports")', async () => {
  const sql = postgres(testRun().databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [{ pid }] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    // /proc/<pid>/stat: nice is the 19th field, the 17th after the parenthesised command
    const nice = () => Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[16]);
    expect(nice()).toBe(0);
    expect(await lowerBackendPriority(sql)).toBe(true);
    expect(nice()).toBe(19);
    // a backend leads a session of its own: its autogroup, which weighs against the other sessions, is lowered too
    const autogroup = `/proc/${pid}/autogroup`;
    if (fs.existsSync(autogroup)) expect(fs.readFileSync(autogroup, "utf8")).toMatch(/ nice 19\n?$/);
    // the session goes on working
    expect((await sql`SELECT 1 AS one`)[0].one).toBe(1);
  } finally {
    await sql.end();
  }
});
