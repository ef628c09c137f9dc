// Starts the export job (docs/api.md "Exports"): every EXPORT_CHECK_MS, unless a pass is still running, the
// server asks which files are due (./job.ts planPass: a few index lookups on its own pool and EXPORT_DIR's
// index) and only when one is, starts a process that runs the pass (./worker.ts, at idle priority:
// ./launch.ts). That process costs about 140 MB (Node, tsx, DuckDB), which a check that finds nothing due
// need not pay. Never on a request's path; a failed check or pass is logged and the next one tries again.
// While a pass runs, its process is stopped whenever the server is answering requests (./pause.ts).
import "server-only";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import type { RequestActivity } from "@/lib/http/request-activity";
import { planPass } from "./job";
import { spawnAtIdlePriority } from "./launch";
import { pauseWhileBusy } from "./pause";

export interface ExportJobOptions {
  everyMs?: number;
  log?: (message: string) => void;
  /** How many files are due now (default: ./job.ts planPass on the server's pool and EXPORT_DIR). */
  due?: () => Promise<number>;
  /** Starts a pass (default: ./worker.ts in a process of its own at idle priority). */
  startPass?: () => ChildProcess;
  /** The server's requests: a pass's process is stopped while any is in flight (./pause.ts). */
  requests?: RequestActivity;
}

function filesDue(): Promise<number> {
  const c = config();
  return planPass({
    sql: db(),
    dir: path.resolve(c.EXPORT_DIR),
    partialEveryMs: c.EXPORT_PARTIAL_MINUTES * 60_000,
    retentionDays: c.BOOK_LOG_RETENTION_DAYS,
    since: c.EXPORT_SINCE,
  }).then(({ plan }) => plan.length);
}

const startWorker = () => spawnAtIdlePriority(path.join(import.meta.dirname, "worker.ts"), [], { env: process.env, stdio: ["ignore", "pipe", "pipe"] });

export function startExportJob(options: ExportJobOptions = {}): () => Promise<void> {
  const everyMs = options.everyMs ?? config().EXPORT_CHECK_MS;
  const log = options.log ?? ((m: string) => console.log(`[exports] ${m}`));
  const due = options.due ?? filesDue;
  const startPass = options.startPass ?? startWorker;
  let child: ChildProcess | null = null;
  let checking: Promise<void> | null = null;
  let finished: Promise<void> = Promise.resolve();
  /** Ends the stops of the running pass's process (./pause.ts). */
  let letGo = () => {};
  let stopped = false;

  const run = () => {
    const started = Date.now();
    const c = startPass();
    child = c;
    const pauser = c.pid && options.requests ? pauseWhileBusy(c.pid) : null;
    const unsubscribe = pauser ? options.requests!.subscribe(pauser) : () => {};
    letGo = () => {
      unsubscribe();
      pauser?.close();
    };
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
        letGo();
        if (code !== 0 && !stopped) log(`pass failed (${signal ?? `exit ${code}`}): ${err.trim().split("\n").slice(-3).join(" | ")}`);
        resolve();
      }),
    );
  };

  const check = () => {
    if (child || checking || stopped) return;
    checking = due()
      .then((files) => {
        if (files > 0 && !stopped) run();
      })
      .catch((err) => {
        if (!stopped) log(`could not tell which files are due: ${err instanceof Error ? err.message : err}`);
      })
      .finally(() => (checking = null));
  };
  check();
  const timer = setInterval(check, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await checking;
    // A stopped process is let go on first, or the SIGTERM would wait for it.
    letGo();
    child?.kill("SIGTERM");
    await finished;
  };
}
