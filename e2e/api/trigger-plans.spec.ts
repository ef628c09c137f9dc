// The announcing triggers' join of a statement's old and new rows (migration 0029), read off the plan
// PostgreSQL runs (auto_explain, sent to this session as a notice): a session whose first updates touched
// one market each must not announce a later update of hundreds with a nested loop over the two row sets;
// and the outcomes' announcements read each market by key, not by a scan of every market (migration 0030);
// none of them is compiled by JIT, and no session of the database compiles by default (migration 0031).
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { connect } from "@/lib/db/client";
import { expect, test, testRun } from "../fixtures";
import { uniqueSlug } from "../support/markets";

/** `statement` in a session whose first statements touched one row each (`one`), explained (auto_explain notices). */
async function explained(
  first: string[],
  one: (session: postgres.Sql, id: string) => Promise<unknown>,
  statement: (tx: postgres.TransactionSql) => Promise<unknown>,
) {
  const notices: string[] = [];
  const session = postgres(testRun().databaseUrl, { max: 1, onnotice: (n) => notices.push(String(n.message)) });
  try {
    // The plan PL/pgSQL keeps is made here, for statements of one row.
    for (const id of first) await one(session, id);
    await session.begin(async (tx) => {
      await tx`LOAD 'auto_explain'`;
      await tx`SET LOCAL auto_explain.log_min_duration = 0`;
      await tx`SET LOCAL auto_explain.log_nested_statements = on`;
      await tx`SET LOCAL auto_explain.log_analyze = on`;
      await tx`SET LOCAL auto_explain.log_level = notice`;
      await tx`SET LOCAL auto_explain.log_settings = on`;
      // As a session of a database that has JIT on would be (migration 0031 turns it off for the database).
      await tx`SET LOCAL jit = on`;
      await statement(tx);
    });
    return notices;
  } finally {
    await session.end();
  }
}

/** 300 bare LOCKED markets (no list shows them), one statement: their ids. */
async function lockedMarkets(sql: postgres.Sql, name: string) {
  const prefix = uniqueSlug(name);
  const ids = Array.from({ length: 300 }, () => randomUUID());
  await sql`
    INSERT INTO markets (id, slug, question, description, category, sub_category, type, status, trading_starts_at,
      trading_ends_at, platform_fee, spread, image_url)
    SELECT id, ${prefix} || '-' || ord, 'Planned?', '', 'OTHER', ${prefix}, 'BINARY', 'LOCKED', now(), now(), 0.02, 1, '/x.svg'
      FROM unnest(${ids}::uuid[]) WITH ORDINALITY AS x (id, ord)`;
  return ids;
}

test("the markets' announcements join old and new rows by hash, whatever the session's first statements were (migration 0029)", async ({ sql }) => {
  const ids = await lockedMarkets(sql, "plans");
  try {
    const notices = await explained(
      ids.slice(0, 8),
      (one, id) => one`UPDATE markets SET total_liquidity = total_liquidity + 1 WHERE id = ${id}`,
      (tx) => tx`UPDATE markets SET total_liquidity = total_liquidity + 1 WHERE id = ANY(${ids}::uuid[])`,
    );
    const plan = notices.find((n) => n.includes("FROM new_rows n") && n.includes("JOIN old_rows o ON o.id = n.id"));
    expect(plan, "the announcements' statement was explained").toBeDefined();
    expect(plan).toContain("Hash Join");
    expect(plan).not.toContain("Rows Removed by Join Filter");
    expect(plan, "never compiled, whatever the session's jit (migration 0031)").toMatch(/Settings: .*jit = 'off'/);
  } finally {
    await sql`DELETE FROM markets WHERE id = ANY(${ids}::uuid[])`;
  }
});

test("the outcomes' announcements join old and new rows by hash and read each market by key (migrations 0029 and 0030)", async ({ sql }) => {
  const ids = await lockedMarkets(sql, "plans-oc");
  const outcomes = ids.map(() => randomUUID());
  await sql`
    INSERT INTO outcomes (id, market_id, name, side, index, probability)
    SELECT o, m, 'Yes', 'YES', 0, 50 FROM unnest(${outcomes}::uuid[], ${ids}::uuid[]) AS x (o, m)`;
  try {
    const notices = await explained(
      outcomes.slice(0, 8),
      (one, id) => one`UPDATE outcomes SET probability = probability + 1 WHERE id = ${id}`,
      (tx) => tx`UPDATE outcomes SET probability = probability + 1 WHERE id = ANY(${outcomes}::uuid[])`,
    );
    const plans = notices.filter((n) => n.includes("FROM new_rows n JOIN old_rows o ON o.id = n.id") && n.includes("market_group(m)"));
    expect(plans.length, "both announcements' statements were explained").toBe(2);
    for (const plan of plans) {
      expect(plan).toContain("Hash Join");
      expect(plan).not.toContain("Rows Removed by Join Filter");
      expect(plan).toContain("Index Scan using markets_pkey");
      expect(plan).not.toContain("Seq Scan on markets");
      expect(plan, "never compiled, whatever the session's jit (migration 0031)").toMatch(/Settings: .*jit = 'off'/);
    }
  } finally {
    await sql`DELETE FROM markets WHERE id = ANY(${ids}::uuid[])`;
  }
});

test("a new session of the database has JIT off (migration 0031), and so has every session of the service's own (lib/db/client.ts), whoever owns the database", async () => {
  const jitOf = async (session: postgres.Sql) => {
    try {
      return (await session<{ setting: string; source: string }[]>`SELECT setting, source FROM pg_settings WHERE name = 'jit'`)[0];
    } finally {
      await session.end();
    }
  };
  expect(await jitOf(postgres(testRun().databaseUrl, { max: 1, onnotice: () => {} }))).toEqual({ setting: "off", source: "database" });
  // Its own startup parameter, which holds where the migration could not set the database's (a role that does not own it).
  expect(await jitOf(connect(testRun().databaseUrl, { max: 1 }))).toEqual({ setting: "off", source: "client" });
  expect(await jitOf(connect(testRun().databaseUrl, { max: 1, connection: { statement_timeout: 1000 } }))).toEqual({ setting: "off", source: "client" });
});
