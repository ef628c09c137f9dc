// Work that shares a machine with the reads lowered below them: the export job (lib/exports/launch.ts) and
// the ingest (lib/ingest/yield.ts), their processes and, when the database runs on this machine, their
// PostgreSQL backends, to nice 19.
//
// Linux's autogroups (kernel.sched_autogroup_enabled, on by default in most distributions): the scheduler shares
// the CPU between sessions first, and a nice or a policy only counts within a session. A PostgreSQL backend leads
// a session of its own (it calls setsid), so its nice 19 alone weighs nothing against the sessions of the
// requests: its autogroup is lowered with it (lowerAutogroup).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type postgres from "postgres";

/** The lowest priority: nice 19. */
export const LOWEST_NICE = 19;

/**
 * Lowers the autogroup of `pid` to nice 19 when `pid` leads its own session, whose autogroup is then its alone (a
 * PostgreSQL backend, the export job's process). Needs the right to write /proc/<pid>/autogroup (root, or the same
 * user); returns whether it was lowered (false without autogroups in the kernel).
 */
export function lowerAutogroup(pid: number): boolean {
  try {
    if (sessionOf(pid) !== pid) return false;
    fs.writeFileSync(`/proc/${pid}/autogroup`, String(LOWEST_NICE));
    return true;
  } catch {
    return false;
  }
}

/** The session `pid` belongs to (the pid of its leader), or undefined where /proc cannot say. */
export function sessionOf(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat after the parenthesised command: state, parent, process group, session
    return Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[3]);
  } catch {
    return undefined;
  }
}

/** Nice 19 for `pid`, and for its autogroup when it leads its session; whether its nice was set. */
export function lowerProcess(pid: number): boolean {
  try {
    os.setPriority(pid, LOWEST_NICE);
  } catch {
    return false;
  }
  lowerAutogroup(pid);
  return true;
}

/**
 * Lowers the PostgreSQL backends `pids` (by default the one of `sql`'s session) to nice 19, and their autogroups
 * with them, when they are processes of this machine: the server's data directory holds a postmaster.pid naming
 * their parent. A database elsewhere keeps its priorities. Needs the right to read data_directory (a superuser or
 * pg_read_all_settings) and to renice the backends (root, or the same user). Returns the pids lowered; throws
 * when the database cannot say where its data directory is.
 */
export async function lowerBackends(sql: postgres.Sql, pids?: readonly number[]): Promise<number[]> {
  const [{ own, dir }] = await sql<{ own: number; dir: string }[]>`SELECT pg_backend_pid() AS own, current_setting('data_directory') AS dir`;
  let postmaster = 0;
  try {
    postmaster = Number(fs.readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return []; // not this machine's
  }
  const lowered: number[] = [];
  for (const pid of pids ?? [own]) {
    try {
      // /proc/<pid>/stat: the parent pid is the second field after the parenthesised command
      const parent = Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      if (postmaster && parent === postmaster && lowerProcess(pid)) lowered.push(pid);
    } catch {} // gone meanwhile, or another machine's pid
  }
  return lowered;
}

/** Lowers the PostgreSQL backend of `sql` (one connection) as lowerBackends does; whether it was lowered. */
export async function lowerBackendPriority(sql: postgres.Sql): Promise<boolean> {
  return (await lowerBackends(sql).catch(() => [])).length > 0;
}
