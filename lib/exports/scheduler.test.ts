import { type ChildProcess, spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { requestActivity } from "@/lib/http/request-activity";
import { startExportJob } from "./scheduler";

/** The state letter of /proc/<pid>/stat (T while stopped). */
const stateOf = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[0];

/** A pass's process as far as the scheduler reads it: `exit` ends it. */
function fakePass() {
  const c = Object.assign(new EventEmitter(), { stdout: new EventEmitter(), stderr: new EventEmitter(), kill: () => c.emit("exit", null, "SIGTERM") });
  return { process: c as unknown as ChildProcess, exit: (code = 0) => c.emit("exit", code, null) };
}

function job(due: () => Promise<number>) {
  const passes: ReturnType<typeof fakePass>[] = [];
  const logs: string[] = [];
  const stop = startExportJob({
    everyMs: 1000,
    log: (m) => logs.push(m),
    due,
    startPass: () => {
      const p = fakePass();
      passes.push(p);
      return p.process;
    },
  });
  return { passes, logs, stop };
}

describe("export job – a pass's process is started only when a file is due", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("checks every everyMs and starts no process while nothing is due", async () => {
    const due = vi.fn(async () => 0);
    const { passes, stop } = job(due);
    await vi.advanceTimersByTimeAsync(3500);
    expect(due).toHaveBeenCalledTimes(4);
    expect(passes).toHaveLength(0);
    await stop();
  });

  it("starts one pass when files are due, and checks again only once it ended", async () => {
    let files = 2;
    const due = vi.fn(async () => files);
    const { passes, stop } = job(due);
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(due).toHaveBeenCalledTimes(1); // a pass is running: no check, no second process
    files = 0;
    passes[0].exit();
    await vi.advanceTimersByTimeAsync(1000);
    expect(due).toHaveBeenCalledTimes(2);
    expect(passes).toHaveLength(1);
    await stop();
  });

  it("logs a check that failed and tries again at the next one", async () => {
    const due = vi.fn().mockRejectedValueOnce(new Error("connection refused")).mockResolvedValue(1);
    const { passes, logs, stop } = job(due);
    await vi.advanceTimersByTimeAsync(0);
    expect(logs).toEqual(["could not tell which files are due: connection refused"]);
    expect(passes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(passes).toHaveLength(1);
    await stop();
  });

  it("stops a running pass when the server stops", async () => {
    const { passes, logs, stop } = job(async () => 1);
    await vi.advanceTimersByTimeAsync(0);
    const killed = vi.spyOn(passes[0].process, "kill");
    await stop();
    expect(killed).toHaveBeenCalledWith("SIGTERM");
    expect(logs).toEqual([]);
  });
});

describe.runIf(process.platform === "linux")("export job – a pass's process is stopped while the server answers requests (./pause.ts)", () => {
  it("stops it for a request in flight, lets it go on once answered, and ends it when stopped while it is stopped", async () => {
    const requests = requestActivity();
    let pass = null as ChildProcess | null;
    const stop = startExportJob({
      everyMs: 60_000,
      log: () => {},
      due: async () => 1,
      startPass: () => (pass = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: ["ignore", "pipe", "pipe"] })),
      requests,
    });
    let answer = () => {};
    const server = http.createServer((req, res) => {
      requests.track(req, res);
      answer = () => res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await expect.poll(() => pass?.pid).toBeTruthy();
      const pid = pass!.pid!;
      const reply = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/markets`).then((r) => r.text());
      await expect.poll(() => stateOf(pid)).toBe("T");
      answer();
      expect(await reply).toBe("ok");
      await expect.poll(() => stateOf(pid)).not.toBe("T");

      // Stopped again, then the server stops: the process is let go on and ends.
      const second = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/markets`).then((r) => r.text());
      await expect.poll(() => stateOf(pid)).toBe("T");
      await stop();
      expect(pass!.signalCode).toBe("SIGTERM");
      answer();
      await second;
    } finally {
      pass?.kill("SIGKILL");
      server.close();
    }
  });
});
