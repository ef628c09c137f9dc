import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { pauseWhileBusy } from "./pause";

/** The state letter of /proc/<pid>/stat: T while stopped, "gone" once it exited. */
const stateOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[0];
  } catch {
    return "gone";
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let child: ChildProcess | null = null;
function waiting(): number {
  child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  return child.pid!;
}
afterEach(() => {
  child?.kill("SIGCONT");
  child?.kill("SIGKILL");
  child = null;
});

describe.runIf(process.platform === "linux")('the export job stops while requests are in flight (docs/deploy.md "Exports")', () => {
  it("is stopped from the first request to the last one's end, and goes on once none came for quietMs", async () => {
    const pid = waiting();
    const p = pauseWhileBusy(pid, { maxPauseMs: 10_000, runMs: 100, quietMs: 50 });
    p.started();
    p.started();
    await expect.poll(() => stateOf(pid)).toBe("T");
    p.finished();
    await sleep(100);
    expect(stateOf(pid)).toBe("T");
    p.finished();
    // Within the quiet time a new request keeps it stopped.
    await sleep(10);
    p.started();
    await sleep(100);
    expect(stateOf(pid)).toBe("T");
    p.finished();
    await expect.poll(() => stateOf(pid), { timeout: 2000 }).not.toBe("T");
    expect(p.stats().pauses).toBe(1);
    expect(p.stats().pausedMs).toBeGreaterThanOrEqual(250);
    p.close();
  });

  it("never stops a process that does not run Node yet (launch.ts's setpriv, before it asked for its parent-death signal)", async () => {
    // A process of another program stands for the prefix: a pause waits until the process runs Node.
    child = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = child.pid!;
    const p = pauseWhileBusy(pid, { maxPauseMs: 10_000, runMs: 100, quietMs: 50 });
    p.started();
    p.started();
    await sleep(200);
    expect(stateOf(pid)).not.toBe("T");
    expect(p.stats().pauses).toBe(0);
    p.finished();
    p.finished();
    p.close();
  });

  it("under requests that never stop, runs runMs after each maxPauseMs", async () => {
    const pid = waiting();
    const p = pauseWhileBusy(pid, { maxPauseMs: 300, runMs: 200, quietMs: 2 });
    p.started();
    await expect.poll(() => stateOf(pid)).toBe("T");
    const seen: string[] = [];
    const started = performance.now();
    while (performance.now() - started < 1400) {
      seen.push(stateOf(pid));
      await sleep(20);
    }
    p.finished();
    p.close();
    // Stopped, then let go for a while, then stopped again: the time it ran is about runMs / (maxPauseMs + runMs).
    const running = seen.filter((s) => s !== "T").length / seen.length;
    expect(seen[0]).toBe("T");
    expect(running).toBeGreaterThan(0.2);
    expect(running).toBeLessThan(0.6);
    expect(p.stats().pauses).toBeGreaterThanOrEqual(2);
    expect(stateOf(pid)).not.toBe("T");
  });

  it("lets the process go on when closed while it is stopped, and does not throw once it is gone", async () => {
    const pid = waiting();
    const p = pauseWhileBusy(pid);
    p.started();
    await expect.poll(() => stateOf(pid)).toBe("T");
    p.close();
    await expect.poll(() => stateOf(pid)).not.toBe("T");
    p.started();
    await sleep(50);
    expect(stateOf(pid)).not.toBe("T");

    const q = pauseWhileBusy(pid);
    child!.kill("SIGKILL");
    await expect.poll(() => child!.exitCode !== null || child!.signalCode !== null).toBe(true);
    expect(() => {
      q.started();
      q.finished();
      q.close();
    }).not.toThrow();
  });
});
