// A production-like topology on one machine, from real parts: the database (a PostgreSQL primary and
// a streaming replica, ./postgres-pair.ts), N app instances (server.ts, production build, ./instances.ts)
// reading from the replica, and HAProxy in front (./haproxy.ts). Used by `npm run cluster` and by the
// cluster tests, which also stop and start its parts.
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startAutoFailover } from "./auto-failover";
import { startHaproxy } from "./haproxy";
import { type AppInstance, appInstance } from "./instances";
import { type ClusterDatabase, startPostgresPair } from "./postgres-pair";
import { processGroup, stopChild } from "./processes";

export type { AppInstance } from "./instances";
export { haproxyConfig } from "./haproxy";

export interface ClusterOptions {
  /** Data directories and logs (`primary/`, `replica/`, `haproxy.cfg`, `*.log`). */
  dir: string;
  /** HAProxy's port. */
  port: number;
  instances?: number;
  /** Runs the simulator in the first instance. */
  simulate?: boolean;
  /** Size of the demo data seeded into an empty primary (the demo's own defaults when absent). */
  seed?: { markets?: number; tradesPerOutcome?: number };
  /** The database is a pg_auto_failover formation (./auto-failover.ts) instead of the primary/replica pair. */
  failover?: boolean;
  /** Environment for every app instance on top of the cluster's own (e.g. DATABASE_REPLICA_CONSISTENCY). */
  env?: Record<string, string>;
  log?: (m: string) => void;
}

export interface Cluster {
  baseURL: string;
  primaryUrl: string;
  replicaUrl: string;
  instances: AppInstance[];
  database: ClusterDatabase;
  replica: ClusterDatabase["replica"];
  stop: () => Promise<void>;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { dir, port } = options;
  const log = options.log ?? ((m: string) => console.log(`[cluster] ${m}`));
  const group = processGroup();
  const track = (p: ChildProcess) => group.track(p);
  fs.mkdirSync(dir, { recursive: true });

  try {
    const database = await (options.failover ? startAutoFailover : startPostgresPair)({ dir, seed: options.seed, track, log });

    if (!fs.existsSync(path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
      log("no production build: running next build");
      const r = spawnSync("npx", ["next", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
      if (r.status !== 0) throw new Error("next build failed");
    }
    const instances: AppInstance[] = [];
    for (let i = 1; i <= (options.instances ?? 2); i++) {
      instances.push(
        await appInstance({
          dir,
          name: `app${i}`,
          primaryUrl: database.primaryUrl,
          replicaUrls: database.replicaUrls,
          simulate: Boolean(options.simulate && i === 1),
          env: options.env,
          track,
          log,
        }),
      );
    }
    await Promise.all(instances.map((i) => i.start()));
    log(`app instances: ${instances.map((i) => `${i.name} ${i.baseURL}`).join(", ")} (logs in ${path.relative(process.cwd(), dir)}/app*.log)`);

    const haproxy = await startHaproxy({ dir, port, servers: instances.map((i) => ({ name: i.name, port: Number(new URL(i.baseURL).port) })), track });

    return {
      baseURL: `http://127.0.0.1:${port}`,
      primaryUrl: database.primaryUrl,
      replicaUrl: database.replicaUrls[0],
      instances,
      database,
      replica: database.replica,
      stop: async () => {
        await stopChild(haproxy, "SIGTERM");
        await Promise.all(instances.map((i) => i.stop()));
        await database.stop();
        group.release();
      },
    };
  } catch (err) {
    await group.stopAll();
    throw err;
  }
}
