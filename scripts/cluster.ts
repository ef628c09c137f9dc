// npm run cluster [-- --simulate] [-- --failover]: PostgreSQL primary + streaming replica (with --failover
// a pg_auto_failover formation, docs/deploy.md "Failover (pg_auto_failover)"), two app instances and
// HAProxy in front on CLUSTER_PORT (default 8080), data in .data/cluster. Ctrl-C stops it all.
import path from "node:path";
import { parseArgs } from "node:util";
import { startCluster } from "./cluster/topology";

const { values } = parseArgs({ options: { simulate: { type: "boolean", default: false }, failover: { type: "boolean", default: false } } });
const log = (m: string) => console.log(`[cluster] ${m}`);

const cluster = await startCluster({
  dir: process.env.CLUSTER_DIR || path.join(process.cwd(), ".data", "cluster"),
  port: Number(process.env.CLUSTER_PORT ?? 8080),
  simulate: values.simulate || process.env.SIMULATE === "1",
  failover: values.failover,
  log,
});
console.log(`cluster ready: ${cluster.baseURL}`);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping HAProxy, the app instances, the replica and the primary`);
  await cluster.stop();
  log("stopped");
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
