// How the export job's process is started (./scheduler.ts, and scripts/bench-exports.ts measuring it): a
// Node process running a TypeScript file under Linux's SCHED_IDLE policy (`chrt --idle 0`), so that it only
// gets a core that nothing else wants; its threads (DuckDB's, libuv's) inherit the policy. Nice 10 was not
// enough on 2 cores: the reads' p99 grew by 25-71 % while a day was written (docs/deploy.md "Exports").
// The COPY's backend in PostgreSQL is paced by the pipe (while DuckDB does not read, the pipe fills and the
// COPY blocks) and, when the database runs on this machine, lowered to nice 19 as well (lowerBackendPriority):
// at its own priority it took a core from the reads whenever DuckDB was reading. Where chrt is missing or
// refused, the process runs at nice 19.
import { type ChildProcess, execFileSync, spawn, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type postgres from "postgres";

/** The priority of the fallback: the lowest nice. */
const FALLBACK_NICE = 19;

let idlePolicy: boolean | undefined;

/** Whether `chrt --idle 0` can start a process here (checked once: util-linux installed, the policy allowed). */
export function canRunIdle(): boolean {
  if (idlePolicy === undefined) {
    try {
      execFileSync("chrt", ["--idle", "0", "true"], { stdio: "ignore" });
      idlePolicy = true;
    } catch {
      idlePolicy = false;
    }
  }
  return idlePolicy;
}

/** Starts `node --import tsx <script> …args` at the job's priority: SCHED_IDLE, or nice 19 without it. */
export function spawnAtIdlePriority(script: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const node = [process.execPath, "--import", "tsx", script, ...args];
  if (canRunIdle()) return spawn("chrt", ["--idle", "0", ...node], options);
  const child = spawn(node[0], node.slice(1), options);
  try {
    if (child.pid) os.setPriority(child.pid, FALLBACK_NICE);
  } catch {}
  return child;
}

/**
 * Lowers the PostgreSQL backend of `sql` (one connection) to nice 19 when it is a process of this machine:
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
    return true;
  } catch {
    return false;
  }
}
