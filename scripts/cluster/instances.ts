// The app instances of the cluster: server.ts on the production build, each on its own port, reading
// from the replicas and writing nothing.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort } from "../../lib/dev/tools";
import { child, exited, stopChild, waitFor } from "./processes";

export interface AppInstance {
  /** HAProxy's server name, and the value of its SRV cookie. */
  name: string;
  baseURL: string;
  running: () => boolean;
  /** SIGKILL: the instance dies without closing anything, as in a crash. */
  kill: () => Promise<void>;
  start: () => Promise<void>;
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
}

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
  const instance: AppInstance = {
    name,
    baseURL: `http://127.0.0.1:${appPort}`,
    running: () => Boolean(proc && !exited(proc)),
    start: async () => {
      fs.appendFileSync(logFile, `--- start ${new Date().toISOString()}\n`);
      proc = options.track(child(process.execPath, ["--max-semi-space-size=64", "--import", "tsx", "server.ts"], logFile, { env }));
      await waitFor(name, async () => (await fetch(`${instance.baseURL}/readyz`)).ok, 180_000, proc, logFile);
    },
    stop: () => stopChild(proc, "SIGTERM", 30_000),
    kill: () => stopChild(proc, "SIGKILL"),
  };
  return instance;
}
