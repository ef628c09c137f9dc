// How the export job's process is started (./scheduler.ts, and scripts/bench-exports.ts measuring it): a
// Node process running a TypeScript file under Linux's SCHED_IDLE policy (`chrt --idle 0`), so that it only
// gets a core that nothing else wants; its threads (DuckDB's, libuv's) inherit the policy. Nice 10 was not
// enough on 2 cores: the reads' p99 grew by 25-71 % while a day was written (docs/deploy.md "Exports").
// The COPY's backend in PostgreSQL keeps its priority and is paced by the pipe: while DuckDB does not read,
// the pipe fills and the COPY blocks. Where chrt is missing or refused, the process runs at nice 19.
import { type ChildProcess, execFileSync, spawn, type SpawnOptions } from "node:child_process";
import os from "node:os";

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
