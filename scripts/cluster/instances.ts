// The app instances of the cluster: server.ts on the production build, each on its own port, reading
// from the replicas and writing nothing.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort, sleep } from "../../lib/dev/tools";
import { child, exited, stopChild, waitFor } from "./processes";

export interface AppInstance {
  /** HAProxy's server name, and the value of its SRV cookie. */
  name: string;
  baseURL: string;
  running: () => boolean;
  /** SIGKILL: the instance dies without closing anything, as in a crash (and is restarted, as after one). */
  kill: () => Promise<void>;
  /** Starts it, or waits for the restart under way; resolves once its /readyz answers 200. */
  start: () => Promise<void>;
  /** How many times it was restarted after it died. */
  restarts: () => number;
  /** SIGTERM: the instance drains (docs/operations.md "Shutdown") and exits. */
  stop: () => Promise<void>;
}

export interface InstanceOptions {
  dir: string;
  name: string;
  primaryUrl: string;
  replicaUrls: string[];
  simulate: boolean;
  env?: Record<string, string>;
  track: (p: ChildProcess) => ChildProcess;
  log: (m: string) => void;
}

/** A restart after a crash waits this long, doubled while the instance keeps dying within a minute of its start, to at most 30 s. */
const RESTART_DELAY_MS = 1000;

export async function appInstance(options: InstanceOptions): Promise<AppInstance> {
  const { dir, name } = options;
  const appPort = await freePort();
  const logFile = path.join(dir, `${name}.log`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(appPort),
    HOST: "127.0.0.1",
    DATABASE_URL: options.primaryUrl,
    DATABASE_REPLICA_URLS: options.replicaUrls.join(","),
    SKIP_SEED: "1", // seeded by the cluster, once
    EXPORT_JOB: process.env.EXPORT_JOB ?? "off", // one writer per EXPORT_DIR (docs/deploy.md "Exports"); off unless asked
    SIMULATE: options.simulate ? "1" : "0",
    INSTANCE_NAME: name, // Socket.IO session ids start with it: HAProxy routes a session by its sid
    WARM_UP_PAGES: process.env.WARM_UP_PAGES ?? "0", // its tests restart instances often; a deploy keeps the default
    ...options.env,
  };
  let proc: ChildProcess | undefined;
  // Supervision: an instance that exits without being asked to is started again (as systemd's
  // Restart=always does in production, docs/deploy.md "Running an instance").
  let wanted = false;
  let starting: Promise<void> | undefined;
  let startedAt = 0;
  let delayMs = RESTART_DELAY_MS;
  let restarts = 0;
  const launch = () => {
    fs.appendFileSync(logFile, `--- start ${new Date().toISOString()}\n`);
    startedAt = Date.now();
    const p = options.track(child(process.execPath, ["--max-semi-space-size=64", "--import", "tsx", "server.ts"], logFile, { env }));
    proc = p;
    p.once("exit", (code, signal) => {
      if (!wanted || proc !== p) return;
      const quick = Date.now() - startedAt < 60_000;
      const wait = quick ? delayMs : RESTART_DELAY_MS;
      delayMs = Math.min(wait * 2, 30_000);
      options.log(`${name} exited (${signal ?? `code ${code}`}): restarting in ${wait} ms`);
      restarts++;
      starting = (async () => {
        await sleep(wait);
        if (wanted) await ready(launch());
      })().finally(() => (starting = undefined));
      starting.catch((err) => options.log(`${name} did not come back: ${(err as Error).message}`));
    });
    return p;
  };
  const ready = (p: ChildProcess) => waitFor(name, async () => (await fetch(`${instance.baseURL}/readyz`)).ok, 180_000, p, logFile);
  const instance: AppInstance = {
    name,
    baseURL: `http://127.0.0.1:${appPort}`,
    running: () => Boolean(proc && !exited(proc)),
    start: async () => {
      wanted = true;
      if (starting) return starting;
      if (proc && !exited(proc)) return ready(proc);
      starting = ready(launch()).finally(() => (starting = undefined));
      return starting;
    },
    stop: async () => {
      wanted = false;
      await stopChild(proc, "SIGTERM", 30_000);
    },
    kill: () => stopChild(proc, "SIGKILL"),
    restarts: () => restarts,
  };
  return instance;
}
