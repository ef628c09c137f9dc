// How the export job's process is started (./scheduler.ts, and scripts/bench-exports.ts measuring it): a
// Node process running a TypeScript file under Linux's SCHED_IDLE policy (`chrt --idle 0`), so that it only
// gets a core that nothing else wants; its threads (DuckDB's, libuv's) inherit the policy. Nice 10 was not
// enough on 2 cores: the reads' p99 grew by 25-71 % while a day was written (docs/deploy.md "Exports").
// The COPY's backend in PostgreSQL is paced by the pipe (while DuckDB does not read, the pipe fills and the
// COPY blocks) and, when the database runs on this machine, lowered to nice 19 as well (lowerBackendPriority):
// at its own priority it took a core from the reads whenever DuckDB was reading. Where chrt is missing or
// refused, the process runs at nice 19.
//
// Both the process and the backend are lowered with their autogroups (lib/os/priority.ts): a nice alone counts
// only within a session.
//
// The process dies with its parent (`setpriv --pdeathsig KILL`, util-linux): the server stops it while requests are
// in flight (./pause.ts), and a stopped process whose parent died would otherwise wait for ever, holding its
// connection and the snapshot of its COPY.
import { type ChildProcess, spawn, type SpawnOptions } from "node:child_process";
import os from "node:os";
import { canDieWithParent, canRunIdle, PREFIXES } from "../os/prefixes";
import { LOWEST_NICE, lowerAutogroup } from "../os/priority";

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
      os.setPriority(child.pid, LOWEST_NICE);
    } catch {}
  }
  lowerAutogroup(child.pid);
  return child;
}
