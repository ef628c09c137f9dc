// How the export job's process is started (./scheduler.ts, and scripts/bench-exports.ts measuring it): a
// Node process running a TypeScript file under Linux's SCHED_IDLE policy (`chrt --idle 0`), so that it only
// gets a core that nothing else wants; its threads (DuckDB's, libuv's) inherit the policy. Nice 10 was not
// enough on 2 cores: the reads' p99 grew by 25-71 % while a day was written (docs/deploy.md "Exports").
// The COPY's backend in PostgreSQL is paced by the pipe (while DuckDB does not read, the pipe fills and the
// COPY blocks) and, when the database runs on this machine, lowered to nice 19 as well (lowerBackendPriority):
// at its own priority it took a core from the reads whenever DuckDB was reading. Where chrt is missing or
// refused, the process runs at nice 19.
//
// Linux's autogroups (kernel.sched_autogroup_enabled, on by default in most distributions): the scheduler shares
// the CPU between sessions first, and a nice or a policy only counts within a session. A PostgreSQL backend leads
// a session of its own (it calls setsid), so its nice 19 weighed nothing against the sessions of the requests; the
// job's process sat in the server's session and, whenever the server waited for the database, its session took a
// full share beside the backends'. So both are sessions of their own with an autogroup nice of 19 (lowerAutogroup).
//
// The process dies with its parent (`setpriv --pdeathsig KILL`, util-linux): the server stops it while requests are
// in flight (./pause.ts), and a stopped process whose parent died would otherwise wait for ever, holding its
// connection and the snapshot of its COPY.
import { type ChildProcess, execFileSync, spawn, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type postgres from "postgres";

/** The priority of the fallback: the lowest nice. */
const FALLBACK_NICE = 19;

/** The prefixes a process is started under (util-linux), each checked once: whether it can start `true` here. */
const PREFIXES = {
  /** Linux's idle policy (refused in some containers). */
  idle: ["chrt", "--idle", "0"],
  /** Killed when its parent dies. */
  dieWithParent: ["setpriv", "--pdeathsig", "KILL"],
} as const;
const works = new Map<keyof typeof PREFIXES, boolean>();

function prefixWorks(name: keyof typeof PREFIXES): boolean {
  let ok = works.get(name);
  if (ok === undefined) {
    const [command, ...args] = PREFIXES[name];
    try {
      execFileSync(command, [...args, "true"], { stdio: "ignore" });
      ok = true;
    } catch {
      ok = false;
    }
    works.set(name, ok);
  }
  return ok;
}

/** Whether `chrt --idle 0` can start a process here (util-linux installed, the policy allowed). */
export const canRunIdle = () => prefixWorks("idle");

/** Whether `setpriv --pdeathsig KILL` can start a process here. */
export const canDieWithParent = () => prefixWorks("dieWithParent");

/**
 * Lowers the autogroup of `pid` to nice 19 when `pid` leads its own session, whose autogroup is then its alone (a
 * PostgreSQL backend, the job's process). Needs the right to write /proc/<pid>/autogroup (root, or the same user);
 * returns whether it was lowered (false without autogroups in the kernel).
 */
export function lowerAutogroup(pid: number): boolean {
  try {
    // /proc/<pid>/stat after the parenthesised command: state, parent, process group, session
    const session = Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[3]);
    if (session !== pid) return false;
    fs.writeFileSync(`/proc/${pid}/autogroup`, String(FALLBACK_NICE));
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `node --import tsx <script> …args` at the job's priority: SCHED_IDLE, or nice 19 without it, in a session
 * of its own whose autogroup is at nice 19. Not in the parent's process group: a signal to that group (Ctrl-C) does
 * not reach it, so the parent stops it itself; it is killed when its parent dies (setpriv), and where setpriv is
 * missing the script exits when it sees its parent gone (./worker.ts).
 */
export function spawnAtIdlePriority(script: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const idle = canRunIdle();
  const command = [...(canDieWithParent() ? PREFIXES.dieWithParent : []), ...(idle ? PREFIXES.idle : []), process.execPath, "--import", "tsx", script, ...args];
  const child = spawn(command[0], command.slice(1), { ...options, detached: true });
  if (!child.pid) return child;
  if (!idle) {
    try {
      os.setPriority(child.pid, FALLBACK_NICE);
    } catch {}
  }
  lowerAutogroup(child.pid);
  return child;
}

/**
 * Lowers the PostgreSQL backend of `sql` (one connection) to nice 19, and its autogroup with it (lowerAutogroup),
 * when it is a process of this machine:
 * the server's data directory holds a postmaster.pid naming the backend's parent. A database elsewhere keeps
 * its priorities (docs/deploy.md "Exports": run the job against a replica there). Needs the right to read
 * data_directory (a superuser or pg_read_all_settings) and to renice the backend (root, or the same user);
 * returns whether it was lowered.
 */
export async function lowerBackendPriority(sql: postgres.Sql): Promise<boolean> {
  try {
    const [{ pid, dir }] = await sql<{ pid: number; dir: string }[]>`SELECT pg_backend_pid() AS pid, current_setting('data_directory') AS dir`;
    const postmaster = Number(fs.readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
    // /proc/<pid>/stat: the parent pid is the second field after the parenthesised command
    const parent = Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
    if (!postmaster || parent !== postmaster) return false;
    os.setPriority(pid, FALLBACK_NICE);
    lowerAutogroup(pid);
    return true;
  } catch {
    return false;
  }
}
