// Stops the export job's process while requests are being answered, and lets it go on between them (docs/deploy.md
// "Exports"). At idle priority the job only takes a core that nothing else wants, yet each time a request's
// work wakes up beside it the request runs on caches the export has just filled with its own rows: on 2 cores
// the reads' p99 grew by 17-25 % while a day was written. A stopped process (SIGSTOP) costs the requests nothing;
// its COPY's backend stops too once the socket's buffers are full.
//
// Under requests that never pause the job would never finish, so a pause lasts at most `maxPauseMs`; then the job
// runs `runMs` whatever comes (a share of runMs / (maxPauseMs + runMs) of the time: the reads that meet it are
// that share of all, too few to move their p99). A process stopped by a parent that dies is killed with it
// (./launch.ts: --pdeathsig), so it never holds its connection and snapshot for ever: it is stopped only once
// it runs Node, when setpriv has asked for that signal.

import fs from "node:fs";

export interface PauseOptions {
  /** The longest a pause lasts while requests keep coming (ms). */
  maxPauseMs: number;
  /** How long the job then runs before it may be stopped again (ms). */
  runMs: number;
  /** How long no request may be in flight before the job goes on (ms): requests that follow each other closely do not wake it for each gap. */
  quietMs: number;
}

export const PAUSE_DEFAULTS: PauseOptions = { maxPauseMs: 500, runMs: 100, quietMs: 2 };

/** The requests' side: each request in flight is one `started()` and, once answered or dropped, one `finished()`. */
export interface RequestListener {
  started(): void;
  finished(): void;
}

export interface Pauser extends RequestListener {
  /** Lets the process go on for good (the pass ended, or the server stops). */
  close(): void;
  /** How long the process was stopped in all (ms), and how many times. */
  stats(): { pausedMs: number; pauses: number };
}

export function pauseWhileBusy(pid: number, options: Partial<PauseOptions> = {}): Pauser {
  const { maxPauseMs, runMs, quietMs } = { ...PAUSE_DEFAULTS, ...options };
  let inFlight = 0;
  let state: "running" | "paused" | "forced" | "closed" = "running";
  let pausedAt = 0;
  let pausedMs = 0;
  let pauses = 0;
  let timer: NodeJS.Timeout | undefined;

  /**
   * Whether the process runs Node yet (its /proc/<pid>/cmdline). Before, it is one of launch.ts's prefixes:
   * setpriv asks for its parent-death signal only as it executes what follows, so a process stopped while
   * it was still setpriv would outlive a parent that died, stopped for good. Where /proc is missing: yes.
   */
  let node = false;
  const runsNode = () => {
    try {
      node ||= fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === process.execPath;
    } catch (err) {
      node ||= (err as NodeJS.ErrnoException).code === "ENOENT" && !fs.existsSync("/proc/self");
    }
    return node;
  };
  const signal = (name: "SIGSTOP" | "SIGCONT") => {
    try {
      process.kill(pid, name);
      return true;
    } catch {
      // The process is gone: nothing left to pause.
      state = "closed";
      clearTimeout(timer);
      return false;
    }
  };
  const goOn = (next: "running" | "forced") => {
    clearTimeout(timer);
    pausedMs += performance.now() - pausedAt;
    if (!signal("SIGCONT")) return;
    state = next;
    if (next === "forced")
      timer = setTimeout(() => {
        state = "running";
        if (inFlight > 0) pause();
      }, runMs);
  };
  const pause = () => {
    if (!runsNode()) return; // the next request tries again
    if (!signal("SIGSTOP")) return;
    state = "paused";
    pausedAt = performance.now();
    pauses++;
    timer = setTimeout(() => goOn("forced"), maxPauseMs);
  };

  return {
    started() {
      inFlight++;
      if (state === "running") pause();
      else if (state === "paused" && inFlight === 1) {
        // A request came within the quiet time: the pause goes on, within the same limit.
        clearTimeout(timer);
        timer = setTimeout(() => goOn("forced"), Math.max(0, maxPauseMs - (performance.now() - pausedAt)));
      }
    },
    finished() {
      inFlight = Math.max(0, inFlight - 1);
      if (inFlight === 0 && state === "paused") {
        clearTimeout(timer);
        const left = maxPauseMs - (performance.now() - pausedAt);
        timer = setTimeout(() => goOn(left <= quietMs ? "forced" : "running"), Math.min(quietMs, Math.max(0, left)));
      }
    },
    close() {
      if (state === "paused") goOn("running");
      clearTimeout(timer);
      state = "closed";
    },
    stats: () => ({ pausedMs: Math.round(pausedMs + (state === "paused" ? performance.now() - pausedAt : 0)), pauses }),
  };
}
