import fs from "node:fs";
import { resolveDatabase } from "../lib/db/embedded";
import { spawnAtIdlePriority } from "../lib/exports/launch";
import { pauseWhileBusy } from "../lib/exports/pause";
const base = await resolveDatabase({ log: () => {} });
const u = new URL(process.env.DATABASE_URL!);
u.pathname = "/markets_bench_exports";
for (const paused of [process.argv[2] === "both" ? false : true, true]) {
  const child = spawnAtIdlePriority("scripts/bench-exports.ts", ["--child", u.toString()], { stdio: ["ignore", "pipe", "inherit"] });
  const p = pauseWhileBusy(child.pid!);
  if (paused) p.started();
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  const samples: number[] = [];
  const t = setInterval(() => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (m) samples.push(Math.round(Number(m[1]) / 1024));
    } catch {}
  }, 50);
  await new Promise((r) => child.once("exit", r));
  clearInterval(t);
  p.close();
  const r = JSON.parse(out.trim().split("\n").pop()!);
  console.log(paused ? "paused" : "free", "ms", Math.round(r.ms), "before", Math.round(r.rssBefore / 2 ** 20), "peak", Math.round(r.peak / 2 ** 20), "growth", Math.round((r.peak - r.rssBefore) / 2 ** 20));
  console.log(samples.filter((_, i) => i % 10 === 0).join(" "));
}
await base.stop();
