// The embedded cluster's settings (docs/deploy.md "PostgreSQL settings"), on a real cluster of its own.
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { clusterSettings, startEmbeddedPostgres, writeClusterSettings } from "./embedded";

const GB = 2 ** 30;
// Under .data, as the other clusters of the tests: the cluster's own user must reach it (a mkdtemp is root's alone).
const dir = path.join(process.cwd(), ".data", "embedded-settings-test");
fs.rmSync(dir, { recursive: true, force: true });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the embedded cluster's settings", () => {
  it("a quarter of the memory for shared buffers, between 128 MB and 4 GB; checkpoints 16 GB or 30 min apart", () => {
    expect(clusterSettings(24 * GB)).toEqual({ shared_buffers: "4096MB", max_wal_size: "16GB", checkpoint_timeout: "30min" });
    expect(clusterSettings(8 * GB).shared_buffers).toBe("2048MB");
    expect(clusterSettings(GB / 4).shared_buffers).toBe("128MB");
  });

  it("are written into postgresql.conf once, and ALTER SYSTEM still overrides them", async () => {
    const pgDir = path.join(dir, "pg");
    let db = await startEmbeddedPostgres({ dir: pgDir, database: "postgres", log: () => {} });
    const want = clusterSettings();
    const read = async () => {
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      const [r] = await sql<{ sb: string; wal: string; cp: string }[]>`
        SELECT pg_size_bytes(current_setting('shared_buffers'))::text AS sb, current_setting('max_wal_size') AS wal,
               current_setting('checkpoint_timeout') AS cp`;
      return { r, sql };
    };
    try {
      let { r, sql } = await read();
      expect(r).toEqual({ sb: String(pg(want.shared_buffers)), wal: "16GB", cp: "30min" });
      await sql`ALTER SYSTEM SET max_wal_size = '2GB'`;
      await sql.end();
      // A second start (and a second write, which finds its block) keeps the block once and the override.
      writeClusterSettings(pgDir);
      await db.stop();
      db = await startEmbeddedPostgres({ dir: pgDir, database: "postgres", log: () => {} });
      ({ r, sql } = await read());
      expect(r.wal).toBe("2GB");
      expect(r.sb).toBe(String(pg(want.shared_buffers)));
      await sql.end();
      const conf = fs.readFileSync(path.join(pgDir, "postgresql.conf"), "utf8");
      expect(conf.match(/the embedded cluster's settings/g)).toHaveLength(1);
    } finally {
      await db.stop();
    }
  }, 120_000);
});

/** "2048MB" → bytes. */
function pg(size: string) {
  return Number(size.replace("MB", "")) * 2 ** 20;
}
