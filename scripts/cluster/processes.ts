// The processes of the cluster (PostgreSQL, the app instances, HAProxy): where their binaries are, how
// they start with their output in a log file, how a start is waited for and how they are stopped.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { sleep } from "../../lib/dev/tools";

export type OsUser = { uid: number; gid: number };

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
export function haproxyBin(): string {
  return process.env.HAPROXY_BIN || (fs.existsSync("/usr/sbin/haproxy") ? "/usr/sbin/haproxy" : "haproxy");
}

/** PostgreSQL refuses to run as root: as root, its processes run as the `postgres` OS user. */
export function postgresUser(): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

export function ownedDir(dir: string, owner: OsUser | undefined) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  fs.chmodSync(dir, 0o700);
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, proc?: ChildProcess, logFile?: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc && proc.exitCode !== null) break;
    if (await check().catch(() => false)) return;
    await sleep(200);
  }
  const tail = logFile && fs.existsSync(logFile) ? `\n${fs.readFileSync(logFile, "utf8").slice(-3000)}` : "";
  throw new Error(`${what} did not come up${proc?.exitCode != null ? ` (exited ${proc.exitCode})` : ""}${tail}`);
}

/** A child whose stdout and stderr go to `logFile`. */
export function child(cmd: string, args: string[], logFile: string, opts: { env?: NodeJS.ProcessEnv; user?: OsUser; cwd?: string } = {}) {
  const out = fs.openSync(logFile, "a");
  const proc = spawn(cmd, args, { stdio: ["ignore", out, out], env: opts.env ?? process.env, cwd: opts.cwd, ...opts.user });
  fs.closeSync(out);
  return proc;
}

export function exited(proc: ChildProcess) {
  return proc.exitCode !== null || proc.signalCode !== null;
}

/** Sends `signal` and waits for the exit; SIGKILL after `graceMs`. */
export async function stopChild(proc: ChildProcess | undefined, signal: NodeJS.Signals, graceMs = 15_000) {
  if (!proc || exited(proc)) return;
  const done = new Promise((r) => proc.once("exit", r));
  proc.kill(signal);
  const killer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
  await done;
  clearTimeout(killer);
}

/** The database at `url` answers a query. */
export async function answers(url: string) {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
    return true;
  } finally {
    await sql.end({ timeout: 0 });
  }
}

/**
 * The processes one cluster started: `track` adds one, and a crash of this process (or a failed start)
 * leaves none behind.
 */
export function processGroup() {
  const procs: ChildProcess[] = [];
  const killAll = () => {
    for (const p of procs) if (!exited(p)) p.kill("SIGKILL");
  };
  process.once("exit", killAll);
  return {
    track: (p: ChildProcess) => (procs.push(p), p),
    /** Whatever did start stops cleanly, the last started first. */
    stopAll: async () => {
      for (const p of [...procs].reverse()) await stopChild(p, "SIGINT");
      process.off("exit", killAll);
    },
    release: () => process.off("exit", killAll),
  };
}
