// npm run chaos [-- --fault primary-stopped --outage-s 30 --markets 200]: starts a cluster of its own
// (scripts/cluster/topology.ts, data in .data/chaos), runs the faults under steady read load through
// HAProxy and prints what clients got (the table of docs/deploy.md "Faults").
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../lib/dev/tools";
import { type Fault, type FaultReport, FAULT_ENV, faultTable, FAULTS, runFault } from "./cluster/faults";
import { startCluster } from "./cluster/topology";

const { values } = parseArgs({
  options: {
    fault: { type: "string", multiple: true },
    "outage-s": { type: "string", default: "30" },
    markets: { type: "string", default: "200" },
    connections: { type: "string", default: "16" },
    keep: { type: "boolean", default: false },
  },
});
const faults = (values.fault ?? [...FAULTS]) as Fault[];
for (const f of faults) if (!FAULTS.includes(f)) throw new Error(`unknown fault ${f}: one of ${FAULTS.join(", ")}`);
const log = (m: string) => console.log(`[chaos] ${m}`);
const dir = process.env.CLUSTER_DIR || path.join(process.cwd(), ".data", "chaos");

const cluster = await startCluster({ dir, port: await freePort(), seed: { markets: Number(values.markets), tradesPerOutcome: 40 }, env: FAULT_ENV, log });
const reports: FaultReport[] = [];
try {
  for (const fault of faults) {
    log(`${fault}: under load`);
    const report = await runFault(cluster, fault, { outageMs: Number(values["outage-s"]) * 1000, connections: Number(values.connections), log });
    reports.push(report);
    console.log(faultTable([report]));
    for (const e of report.examples) log(`  ${e}`);
  }
} finally {
  await cluster.stop();
  if (!values.keep && !process.env.CLUSTER_DIR) fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`\nfaults through HAProxy, ${values.connections} connections of steady reads:\n${faultTable(reports)}`);
process.exit(reports.every((r) => r.met) ? 0 : 1);
