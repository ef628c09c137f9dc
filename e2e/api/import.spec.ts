// npm run db:import against the test database, as a user runs it: one transaction per file (a bad
// file writes nothing), validation errors that name the JSON path, and idempotent re-imports.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { importFile } from "@/lib/import/import";
import { expect, test, testRun } from "../fixtures";

const SAMPLE = fs.readFileSync(path.join("e2e", "fixtures", "import-sample.json"), "utf8");
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The sample file with every id, slug and username fresh, markets LOCKED (out of every list). */
function freshSample(change: (d: any) => void = () => {}) {
  const ids = new Map<string, string>();
  const d = JSON.parse(SAMPLE.replace(UUID, (id) => ids.get(id) ?? (ids.set(id, randomUUID()), ids.get(id)!)));
  const tag = randomUUID().slice(0, 8);
  for (const u of d.users) u.username = `${u.username}_${tag}`.slice(0, 64);
  for (const m of d.markets) Object.assign(m, { slug: `${m.slug}-${tag}`, status: "LOCKED" });
  // One trade inside the last 24 h, so that the rolling volume has something to count.
  d.trades[0].executed_at = new Date(Date.now() - 3600e3).toISOString();
  change(d);
  const file = path.join(os.tmpdir(), `import-${tag}.json`);
  fs.writeFileSync(file, JSON.stringify(d));
  return { file, data: d, marketIds: d.markets.map((m: { id: string }) => m.id) as string[], userIds: d.users.map((u: { id: string }) => u.id) as string[] };
}

function dbImport(...files: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/db-import.ts", ...files], {
      env: { ...process.env, DATABASE_URL: testRun().databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A digest of every row the file's markets own, table by table. */
async function digest(sql: import("postgres").Sql, marketIds: string[]) {
  const [row] = await sql`
    SELECT (SELECT md5(string_agg(m::text, '|' ORDER BY m.id)) FROM markets m WHERE m.id = ANY(${marketIds}::uuid[])) AS markets,
           (SELECT md5(string_agg(o::text, '|' ORDER BY o.id)) FROM outcomes o WHERE o.market_id = ANY(${marketIds}::uuid[])) AS outcomes,
           (SELECT md5(string_agg(o::text, '|' ORDER BY o.id)) FROM orders o WHERE o.market_id = ANY(${marketIds}::uuid[])) AS orders,
           (SELECT md5(string_agg(t::text, '|' ORDER BY t.id)) FROM trades t WHERE t.market_id = ANY(${marketIds}::uuid[])) AS trades,
           (SELECT md5(string_agg(b::text, '|' ORDER BY b.outcome_id)) FROM external_books b
              JOIN outcomes o ON o.id = b.outcome_id WHERE o.market_id = ANY(${marketIds}::uuid[])) AS books`;
  return row;
}

test.describe("npm run db:import", () => {
  test.setTimeout(120_000);

  test("a file with a bad value exits 1, names the JSON path, and writes nothing", async ({ sql }) => {
    const f = freshSample((d) => (d.markets[1].outcomes[1].side = "MAYBE"));
    const r = await dbImport(f.file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("markets[1].outcomes[1].side: expected YES or NO");
    expect(r.stderr).toContain("nothing was written");
    const [n] = await sql`
      SELECT (SELECT count(*)::int FROM markets WHERE id = ANY(${f.marketIds}::uuid[])) AS markets,
             (SELECT count(*)::int FROM users WHERE id = ANY(${f.userIds}::uuid[])) AS users`;
    expect(n).toEqual({ markets: 0, users: 0 });
  });

  test("a file the database rejects is rolled back whole: no user, market or trade of it stays", async ({ sql }) => {
    // Valid by the file's own rules, but its second market takes a slug another market already
    // has: the database refuses it after the file's users are written, which must be undone.
    const f = freshSample();
    const good = await dbImport(f.file);
    expect(good.code, good.stderr).toBe(0);
    const g = freshSample((d) => (d.markets[1].slug = f.data.markets[1].slug));
    const r = await dbImport(g.file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('database rejected the file while writing markets: duplicate key value violates unique constraint "markets_slug_key"');
    expect(r.stderr).toContain("nothing was written");
    const [n] = await sql`
      SELECT (SELECT count(*)::int FROM markets WHERE id = ANY(${g.marketIds}::uuid[])) AS markets,
             (SELECT count(*)::int FROM users WHERE id = ANY(${g.userIds}::uuid[])) AS users,
             (SELECT count(*)::int FROM trades WHERE market_id = ANY(${g.marketIds}::uuid[])) AS trades`;
    expect(n).toEqual({ markets: 0, users: 0, trades: 0 });
  });

  test("importing the same file twice leaves every row identical; derived values and the 24 h volume are set", async ({ sql }) => {
    const f = freshSample();
    const first = await dbImport(f.file);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/imported users=2 markets=2 .* trades=5/);
    const before = await digest(sql, f.marketIds);
    expect(Object.values(before).every((v) => typeof v === "string")).toBe(true);
    const second = await dbImport(f.file);
    expect(second.code, second.stderr).toBe(0);
    expect(await digest(sql, f.marketIds)).toEqual(before);

    const t = f.data.trades[0];
    const [m] = await sql`SELECT volume_24h::text AS v FROM markets WHERE id = ${t.market_id}`;
    expect(Number(m.v)).toBeCloseTo(Number(t.price) * Number(t.shares), 9);
    const [{ drift }] = await sql`
      SELECT count(*)::int AS drift FROM markets m
       WHERE m.id = ANY(${f.marketIds}::uuid[])
         AND (m.comments_count, m.total_liquidity) IS DISTINCT FROM (
               (SELECT count(*) FROM comments c WHERE c.market_id = m.id),
               CASE WHEN m.external_source IS NULL
                 THEN (SELECT coalesce(sum(price * (shares - filled_shares)), 0) FROM orders o
                        WHERE o.market_id = m.id AND o.type = 'LIMIT' AND o.status IN ('OPEN', 'PARTIALLY_FILLED'))
                 ELSE (SELECT coalesce(sum((l->>'price')::numeric * (l->>'shares')::numeric), 0)
                         FROM outcomes oc JOIN external_books b ON b.outcome_id = oc.id, jsonb_array_elements(b.bids || b.asks) l
                        WHERE oc.market_id = m.id) END)`;
    expect(drift).toBe(0);
  });

  test("two overlapping files imported at the same time – both succeed, one after the other, each file whole", async () => {
    const a = freshSample();
    const tag = randomUUID().slice(0, 8);
    // Thousands of shared users widen the window in which both transactions hold row locks.
    const bulk = Array.from({ length: 3000 }, (_, i) => ({ id: randomUUID(), username: `bulk_${tag}_${i}`, profile_image_url: null }));
    a.data.users.push(...bulk);
    // File B: the same rows with other values, in the opposite order, so each would lock what the other needs next.
    const b = structuredClone(a.data);
    for (const u of b.users) u.username = `${u.username}_b`.slice(0, 64);
    for (const m of b.markets) m.question = `${m.question} (B)`;
    b.users.reverse();
    b.markets.reverse();
    const one = postgres(testRun().databaseUrl, { max: 1, onnotice: () => {} });
    const two = postgres(testRun().databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const results = await Promise.allSettled([importFile(one, a.data, { batchSize: 500 }), importFile(two, b, { batchSize: 500 })]);
      for (const r of results) expect(r.status, r.status === "rejected" ? String(r.reason) : "").toBe("fulfilled");
      // Whichever committed last wrote every row of its file: no mix of the two.
      const markets = await one`SELECT question FROM markets WHERE id = ANY(${a.marketIds}::uuid[])`;
      const users = await one`SELECT username FROM users WHERE id = ANY(${a.data.users.map((u: { id: string }) => u.id)}::uuid[])`;
      expect(users.length).toBe(a.data.users.length);
      const fromB = markets.filter((m) => m.question.endsWith("(B)")).length + users.filter((u) => u.username.endsWith("_b")).length;
      expect([0, markets.length + users.length]).toContain(fromB);
    } finally {
      await Promise.all([one.end(), two.end()]);
    }
  });
});
