import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { canDieWithParent, canRunIdle } from "../os/prefixes";
import { spawnAtIdlePriority } from "./launch";

/** /proc/<pid>/stat after the parenthesised command: [state, parent, process group, session, …]. */
const statOf = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");

describe('the export job\'s process (docs/deploy.md "Exports")', () => {
  it.runIf(process.platform === "linux")("runs at idle priority in a session of its own, whose autogroup is at nice 19", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "launch-"));
    const script = path.join(dir, "wait.ts");
    fs.writeFileSync(script, "setTimeout(() => {}, 30_000);\n");
    // Checked as soon as it is started (the spawn returns once chrt is executed, chrt sets the policy): at idle
    // priority on a busy machine, Node's own start may take long.
    const child = spawnAtIdlePriority(script, [], { stdio: "ignore" });
    try {
      const pid = child.pid!;
      const stat = statOf(pid);
      expect(Number(stat[3])).toBe(pid);
      expect(Number(stat[3])).not.toBe(Number(statOf(process.pid)[3]));
      // policy: the 41st field of /proc/<pid>/stat, the 39th after the command; SCHED_IDLE is 5
      await expect.poll(() => Number(statOf(pid)[38]), { timeout: 10_000 }).toBe(canRunIdle() ? 5 : 0);
      if (fs.existsSync(`/proc/${pid}/autogroup`)) expect(fs.readFileSync(`/proc/${pid}/autogroup`, "utf8")).toMatch(/ nice 19\n?$/);
    } finally {
      child.kill("SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(process.platform === "linux" && canDieWithParent())(
    "dies with its parent, even while it is stopped (./pause.ts)",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "launch-"));
      fs.writeFileSync(path.join(dir, "wait.ts"), "setTimeout(() => {}, 60_000);\n");
      // A parent that starts the job's process, says its pid and waits.
      fs.writeFileSync(
        path.join(dir, "parent.ts"),
        `import { spawnAtIdlePriority } from ${JSON.stringify(path.resolve("lib/exports/launch.ts"))};
const c = spawnAtIdlePriority(${JSON.stringify(path.join(dir, "wait.ts"))}, [], { stdio: "ignore" });
console.log(c.pid);
setTimeout(() => {}, 60_000);\n`,
      );
      const parent = spawn(process.execPath, ["--import", "tsx", path.join(dir, "parent.ts")], { stdio: ["ignore", "pipe", "inherit"] });
      try {
        const pid = await new Promise<number>((resolve) => parent.stdout!.once("data", (d) => resolve(Number(String(d).trim()))));
        // Stopped once it runs the script: setpriv asks for the signal before it executes what it starts, so a
        // process stopped earlier (still setpriv, on a busy machine) might never have asked.
        await expect.poll(() => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0], { timeout: 10_000 }).toBe(process.execPath);
        process.kill(pid, "SIGSTOP");
        await expect.poll(() => statOf(pid)[0]).toBe("T");
        parent.kill("SIGKILL");
        // Gone, or a zombie until its new parent reaps it.
        await expect.poll(() => (fs.existsSync(`/proc/${pid}`) ? statOf(pid)[0] : "gone"), { timeout: 10_000 }).toMatch(/^(gone|Z)$/);
      } finally {
        parent.kill("SIGKILL");
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    20_000,
  );
});
