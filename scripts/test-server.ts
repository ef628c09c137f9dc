// The server Playwright tests run against: a throwaway database (on the embedded cluster in
// .data/pg-test, or on the server of DATABASE_URL), migrated, seeded with the demo data and the
// e2e fixtures, then the app itself. Writes .data/test-run.json so tests can reach the same database.
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { resetConfig } from "../lib/config";
import { connect } from "../lib/db/client";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";

export const RUN_FILE = path.join(process.cwd(), ".data", "test-run.json");
const port = Number(process.env.TEST_PORT ?? 3210);
const database = `markets_test_${Date.now()}`;
const log = (m: string) => console.log(`[test-server] ${m}`);

async function createDatabase(): Promise<string> {
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    adminUrl = (await startEmbeddedPostgres({ dir: path.join(process.cwd(), ".data", "pg-test"), database: "postgres", log })).url;
  }
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    // Leftovers of earlier runs (a killed run cannot drop its own database).
    for (const { datname } of await admin`SELECT datname FROM pg_database WHERE datname LIKE 'markets_test_%'`) {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
    }
    await admin.unsafe(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const databaseUrl = await createDatabase();
log(`database ${database}`);
const sql = connect(databaseUrl, { max: 4 });
await migrate(sql, log);
const { seedDatabase } = await import("../lib/seed/seed");
await seedDatabase(sql, { log });
const { importFile } = await import("../lib/import/import");
for (const file of fs
  .readdirSync("e2e/fixtures")
  .filter((f) => /^import-sample.*\.json$/.test(f))
  .sort()) {
  await importFile(sql, JSON.parse(fs.readFileSync(path.join("e2e/fixtures", file), "utf8")));
  log(`imported ${file}`);
}
await sql.end();

fs.mkdirSync(path.dirname(RUN_FILE), { recursive: true });
fs.writeFileSync(RUN_FILE, JSON.stringify({ databaseUrl, baseURL: `http://127.0.0.1:${port}`, database }, null, 2));
process.env.DATABASE_URL = databaseUrl;
process.env.PORT = String(port);
process.env.HOST ??= "127.0.0.1";
process.env.SKIP_SEED = "1";
process.env.WARM_UP_PAGES ??= "0"; // a test starts many servers; e2e/api/server.spec.ts tests the warm-up
process.env.LOG_REQUESTS ??= "0";
// Specs fire thousands of /v1 requests from one address; the rate limit has its own spec (e2e/api/rate-limit.spec.ts).
process.env.RATE_LIMIT ??= "off";
// The export job writes every day of the seed; e2e/api/exports.spec.ts starts an instance of its own that runs it.
process.env.EXPORT_JOB ??= "off";
process.env.CACHE_CHECK_JSON ??= "on";
if (process.env.TEST_DEV === "1") process.argv.push("--dev");
// connect() above read the configuration before these were set: server.ts must read it again.
resetConfig();
await import("../server");
