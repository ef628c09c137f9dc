// The cluster's database with automatic failover (`npm run cluster -- --failover`, docs/deploy.md
// "Failover (pg_auto_failover)"): a pg_auto_failover monitor and two data nodes kept by `pg_autoctl run`
// (Debian's pg-auto-failover-cli and postgresql-15-auto-failover), on free ports, created anew under
// `dir/failover/` at each start. When the primary is lost, the monitor promotes the standby; clients
// follow through a multi-host URL. Trust authentication on 127.0.0.1 only, and no SSL: loopback traffic.
import { type ChildProcess, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { freePort, sleep } from "../../lib/dev/tools";
import { type ClusterDatabase, DATABASE, type DatabaseNode, type DatabaseOptions, PASSWORD, prepareDatabase } from "./postgres-pair";
import { answers, child, exited, ownedDir, postgresBinDir, postgresUser, stopChild, waitFor } from "./processes";

/**
 * The monitor's failover clock (pg_auto_failover's "Configuring pg_auto_failover"): a node that has not
 * reported for 3 s and fails a health check (1 s apart, 1 s timeout, one retry) is unhealthy; a primary
 * that does not acknowledge its demotion is presumed gone after 5 s. The defaults (20 s and 30 s) fail
 * over in about a minute; these settings measured 9–12 s from a SIGKILL to the first write on the new primary.
 */
const MONITOR_SETTINGS = {
  "pgautofailover.health_check_period": 1000,
  "pgautofailover.health_check_timeout": 1000,
  "pgautofailover.health_check_max_retries": 1,
  "pgautofailover.health_check_retry_delay": 500,
  "pgautofailover.node_considered_unhealthy_timeout": 3000,
  "pgautofailover.primary_demote_timeout": 5000,
  shared_buffers: "'32MB'",
};
/** A primary that reaches neither the monitor nor its standby stops itself after this many seconds: sooner than the monitor promotes the standby (3 + 5 s). */
const NETWORK_PARTITION_TIMEOUT_S = 4;

export interface FailoverNode extends DatabaseNode {
  name: string;
}

export interface FailoverDatabase extends ClusterDatabase {
  nodes: FailoverNode[];
  /** The monitor's database (pgautofailover.node, pgautofailover.event), as the postgres user. */
  monitorUrl: string;
  /** The node the monitor has as primary now. */
  writerName: () => Promise<string>;
  /** SIGKILLs the primary's PostgreSQL and its keeper, which nothing restarts: the machine is lost for good. */
  loseWriter: () => Promise<string>;
}

/** Every process below `pid`, from `ps` (pg_autoctl runs its services and PostgreSQL as its children). */
function processTree(pid: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number));
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [p, pp] of rows) if (pp === tree[i]) tree.push(p);
  return tree;
}

export async function startAutoFailover(options: DatabaseOptions): Promise<FailoverDatabase> {
  const { track, log } = options;
  const root = path.join(options.dir, "failover");
  const bin = postgresBinDir();
  const pgUser = postgresUser();
  fs.rmSync(root, { recursive: true, force: true });
  ownedDir(root, pgUser);
  // pg_autoctl keeps its configuration and state under the XDG directories: inside `root`, not in the user's home.
  const xdg = Object.fromEntries(["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"].map((k) => [k, path.join(root, k.split("_")[1].toLowerCase())]));
  for (const d of Object.values(xdg)) ownedDir(d, pgUser);
  const env = { ...process.env, ...xdg, PATH: `${bin}:${process.env.PATH}`, PGCONNECT_TIMEOUT: "2" };
  const autoctl = (args: string[]) => execFileSync("pg_autoctl", args, { env, ...pgUser, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const adminUrl = (port: number, db = "postgres") => `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${db}`;

  // ---------------------------------------------------------------- monitor
  const monitorPort = await freePort();
  const monitorDir = path.join(root, "monitor");
  log(`creating the pg_auto_failover monitor in ${path.relative(process.cwd(), monitorDir)}`);
  const monitorArgs = ["--pgdata", monitorDir, "--pgport", String(monitorPort), "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl"];
  autoctl(["create", "monitor", ...monitorArgs, "--pgctl", path.join(bin, "pg_ctl")]);
  autoctl(["config", "set", "--pgdata", monitorDir, "postgresql.listen_addresses", "127.0.0.1"]);
  const settings = Object.entries(MONITOR_SETTINGS).map(([k, v]) => `${k} = ${v}`);
  fs.appendFileSync(path.join(monitorDir, "postgresql.conf"), `\n${settings.join("\n")}\n`);
  const run = (name: string, pgdata: string) =>
    track(child("pg_autoctl", ["run", "--pgdata", pgdata], path.join(options.dir, `${name}.log`), { env, user: pgUser }));
  const monitor = run("monitor", monitorDir);
  await waitFor(
    "the pg_auto_failover monitor",
    () => answers(adminUrl(monitorPort, "pg_auto_failover")),
    60_000,
    monitor,
    path.join(options.dir, "monitor.log"),
  );
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  const monitorSql = postgres(adminUrl(monitorPort, "pg_auto_failover"), { max: 1, onnotice: () => {} });
  const states = async () =>
    new Map(
      (await monitorSql<{ name: string; state: string }[]>`SELECT nodename AS name, reportedstate::text AS state FROM pgautofailover.node`).map((r) => [
        r.name,
        r.state,
      ]),
    );

  // ---------------------------------------------------------------- data nodes
  type Node = FailoverNode & { port: number; pgdata: string; keeper?: ChildProcess };
  const nodes: Node[] = [];
  const createNode = async (name: string) => {
    const port = await freePort();
    const pgdata = path.join(root, name);
    const args = ["create", "postgres", "--pgdata", pgdata, "--pgport", String(port), "--listen", "127.0.0.1", "--pghost", "127.0.0.1"];
    args.push("--hostname", "127.0.0.1", "--name", name, "--dbname", DATABASE, "--monitor", monitorUrl, "--auth", "trust", "--no-ssl");
    args.push("--pgctl", path.join(bin, "pg_ctl"), "--run");
    const node: Node = {
      name,
      port,
      pgdata,
      url: adminUrl(port, DATABASE),
      running: () => Boolean(node.keeper && !exited(node.keeper)),
      // SIGINT: pg_autoctl's fast shutdown of its services and PostgreSQL; the monitor sees the node leave.
      stop: async () => stopChild(node.keeper, "SIGINT"),
      start: async () => {
        if (node.running()) return;
        node.keeper = run(name, pgdata);
        await waitFor(name, () => answers(adminUrl(port)), 60_000, node.keeper, path.join(options.dir, `${name}.log`));
      },
    };
    node.keeper = track(child("pg_autoctl", args, path.join(options.dir, `${name}.log`), { env, user: pgUser }));
    nodes.push(node);
    return node;
  };
  const settle = async (want: Record<string, string>, timeoutMs: number, during?: () => Promise<void>) =>
    waitFor(
      `pg_auto_failover states ${JSON.stringify(want)}`,
      async () => {
        await during?.();
        const now = await states();
        return Object.entries(want).every(([n, s]) => now.get(n) === s);
      },
      timeoutMs,
    );
  const reduceTimeouts = async (node: Node) => {
    // Only once the keeper's node-active service reports to the monitor: it is started (exec'd) after the
    // state the settle waits for, and a reload that reached it before it handled SIGHUP killed it, and its
    // restarts failed until pg_autoctl gave up and stopped PostgreSQL under the migrations.
    const [{ since }] = await monitorSql<{ since: Date }[]>`SELECT now() AS since`;
    await waitFor(
      `${node.name}'s keeper reporting to the monitor`,
      async () => (await monitorSql`SELECT 1 FROM pgautofailover.node WHERE nodename = ${node.name} AND reporttime > ${since}`).length > 0,
      30_000,
      node.keeper,
      path.join(options.dir, `${node.name}.log`),
    );
    autoctl(["config", "set", "--pgdata", node.pgdata, "timeout.network_partition_timeout", String(NETWORK_PARTITION_TIMEOUT_S)]);
    autoctl(["reload", "--pgdata", node.pgdata]);
  };

  try {
    const first = await createNode("node1");
    await settle({ node1: "single" }, 120_000);
    await reduceTimeouts(first);
    log(`node1: ${first.url} (alone: seeded before its standby is made, so the seed is not replicated synchronously)`);
    await prepareDatabase(adminUrl(first.port), first.url, options);

    const second = await createNode("node2");
    // pg_basebackup waits for a spread checkpoint (minutes at checkpoint_timeout 5min): ask for one at once.
    const checkpoint = async () => {
      const c = postgres(adminUrl(first.port), { max: 1, onnotice: () => {} });
      try {
        const waiting = await c`SELECT 1 FROM pg_stat_progress_basebackup WHERE phase = 'waiting for checkpoint to finish'`;
        if (waiting.length) await c`CHECKPOINT`;
      } finally {
        await c.end();
      }
    };
    await settle({ node1: "primary", node2: "secondary" }, 300_000, checkpoint);
    await reduceTimeouts(second);
    log(`node2: ${second.url} (synchronous standby of node1; monitor ${adminUrl(monitorPort, "pg_auto_failover")})`);
  } catch (err) {
    await monitorSql.end({ timeout: 0 });
    throw err;
  }

  const writerName = async () => {
    const [row] = await monitorSql<{ name: string }[]>`
      SELECT nodename AS name FROM pgautofailover.node WHERE goalstate IN ('single', 'wait_primary', 'primary', 'join_primary') ORDER BY nodeid LIMIT 1`;
    if (!row) throw new Error("the monitor has no primary");
    return row.name;
  };
  const [a, b] = nodes;
  return {
    // postgres.js (3.4) checks only default_transaction_read_only for "read-write", which a hot standby
    // leaves off, so it would settle on the standby; "primary" checks in_hot_standby. While pg_auto_failover
    // fences a promoted node (stop_replication) it sets default_transaction_read_only, so writes there fail
    // until the old primary is presumed gone, and then succeed on the same connection.
    primaryUrl: `postgres://postgres:${PASSWORD}@127.0.0.1:${a.port},127.0.0.1:${b.port}/${DATABASE}?target_session_attrs=primary`,
    // Both nodes: the one that is primary answers pg_last_wal_replay_lsn() NULL, which serves any position.
    replicaUrls: nodes.map((n) => n.url),
    nodes,
    monitorUrl: adminUrl(monitorPort, "pg_auto_failover"),
    primary: a,
    replica: Object.assign(b, {
      setApplyDelay: async () => {
        throw new Error("recovery_min_apply_delay is not set in failover mode: pg_auto_failover writes the standby's recovery settings");
      },
    }),
    writerName,
    loseWriter: async () => {
      const name = await writerName();
      const node = nodes.find((n) => n.name === name)!;
      const pids = new Set(node.keeper && !exited(node.keeper) ? processTree(node.keeper.pid!) : []);
      const pidFile = path.join(node.pgdata, "postmaster.pid");
      if (fs.existsSync(pidFile)) pids.add(Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]));
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {} // already gone
      }
      while (node.keeper && !exited(node.keeper)) await sleep(20);
      node.start = async () => {
        throw new Error(`${name} was lost for good`);
      };
      return name;
    },
    stop: async () => {
      await monitorSql.end({ timeout: 0 });
      for (const n of nodes) await stopChild(n.keeper, "SIGINT");
      await stopChild(monitor, "SIGINT");
    },
  };
}
