// Starts the export job (docs/api.md "Exports"): every EXPORT_CHECK_MS, unless a pass is still running, a
// child process runs one pass (./worker.ts) at a lower CPU priority than the server, so that reads stay as
// fast while it writes. Never on a request's path; a failed pass is logged and the next one tries again.
import "server-only";
import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { config } from "@/lib/config";

export interface ExportJobOptions {
  everyMs?: number;
  log?: (message: string) => void;
}

/** nice 10: the server's requests (nice 0) get the cores first while a pass runs. */
const PASS_PRIORITY = 10;

export function startExportJob(options: ExportJobOptions = {}): () => Promise<void> {
  const everyMs = options.everyMs ?? config().EXPORT_CHECK_MS;
  const log = options.log ?? ((m: string) => console.log(`[exports] ${m}`));
  const worker = path.join(import.meta.dirname, "worker.ts");
  let child: ChildProcess | null = null;
  let finished: Promise<void> = Promise.resolve();
  let stopped = false;
  const pass = () => {
    if (child || stopped) return;
    const started = Date.now();
    const c = spawn(process.execPath, ["--import", "tsx", worker], { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    child = c;
    try {
      if (c.pid) os.setPriority(c.pid, PASS_PRIORITY);
    } catch {}
    let err = "";
    c.stderr!.on("data", (d) => (err = (err + d).slice(-2000)));
    let out = "";
    c.stdout!.on("data", (d) => {
      out += d;
      for (let i = out.indexOf("\n"); i >= 0; i = out.indexOf("\n")) {
        const line = out.slice(0, i);
        out = out.slice(i + 1);
        try {
          const m = JSON.parse(line) as { message?: string; done?: number; maxRssMb?: number };
          if (m.message) log(m.message);
          else if (m.done) log(`pass wrote ${m.done} file(s) in ${Date.now() - started} ms (peak RSS ${m.maxRssMb} MB)`);
        } catch {
          log(line);
        }
      }
    });
    finished = new Promise((resolve) =>
      c.once("exit", (code, signal) => {
        child = null;
        if (code !== 0 && !stopped) log(`pass failed (${signal ?? `exit ${code}`}): ${err.trim().split("\n").slice(-3).join(" | ")}`);
        resolve();
      }),
    );
  };
  pass();
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    child?.kill("SIGTERM");
    await finished;
  };
}
