// The interleaved run: verify, warm up, then rounds in which every target has one slot of the same load in
// turn (A B C A B C …), so that the machine's drift falls on all of them alike. Prints each slot as it ends
// and the tables at the end, and writes them to the output folder.
import os from "node:os";
import { cpuBetween, formatCpu, snapshot } from "./cpu.mjs";
import { drainer } from "./drain.mjs";
import { loadSlot } from "./load.mjs";
import { compareMarkdown, f0, f1, ratioPairs, ratios, stamp, summarize, writeOutput } from "./report.mjs";
import { verify } from "./verify.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs the comparison. `o`: connections, duration, rounds, warmup, pause (seconds), rotate, verify, label, out,
 * databaseUrl (when given, each slot starts only after the statements of the one before it ended: src/drain.mjs).
 * `watched`: [{name, pid}] whose CPU is reported. Resolves with the process exit code: 0, 2 when the
 * targets disagree, 3 when a slot had failed requests.
 */
export async function compare(targets, mixName, mix, watched, o) {
  const started = new Date();
  const load = { connections: o.connections, seconds: o.duration, spread: Boolean(mix.spread) };
  console.log(
    `mix ${mixName}: ${mix.about}; ${mix.cases.length} requests${mix.spread ? ", handed out in turn across connections" : ", cycled per connection"}`,
  );
  console.log(`targets: ${targets.map((t) => `${t.name}=${t.origin}`).join("  ")}`);
  console.log(
    `load: autocannon, ${o.connections} connections, ${o.duration} s x ${o.rounds} rounds per target, warm-up ${o.warmup} s; ` +
      `${os.cpus().length} CPUs shared by the load generator, the servers and PostgreSQL; node ${process.version}`,
  );

  if (o.verify) {
    const { problems, summary } = await verify(targets, mix.cases);
    if (problems.length) {
      for (const p of problems.slice(0, 20)) console.error(p);
      console.error(`verification FAILED: ${problems.length} problem(s); --no-verify measures anyway`);
      return 2;
    }
    console.log(summary);
  }

  const drain = o.databaseUrl ? drainer(o.databaseUrl) : null;
  /** The pause after a slot of `t`, then the wait for its statements still running. */
  const between = async (t) => {
    await drain?.mark();
    await sleep(o.pause * 1000);
    const d = await drain?.drained();
    if (d && d.waitedMs >= 1000)
      console.log(`  (${t.name}'s statements ran ${f1(d.waitedMs / 1000)} s past the pause${d.left ? `; ${d.left} still running, measured anyway` : ""})`);
  };

  for (const t of o.warmup > 0 ? targets : []) {
    const s = await loadSlot(t, mix.cases, { ...load, seconds: o.warmup });
    console.log(`warm-up ${t.name}: ${f0(s.rps)} req/s`);
    await between(t);
  }

  const slots = [];
  for (let round = 1; round <= o.rounds; round++) {
    const order = o.rotate ? targets.map((_, i) => targets[(i + round - 1) % targets.length]) : targets;
    for (const t of order) {
      const before = snapshot();
      const s = await loadSlot(t, mix.cases, load);
      const cpu = cpuBetween(before, snapshot(), watched);
      slots.push({ round, target: t.name, ...s, cpu });
      console.log(
        `round ${round} ${t.name.padEnd(12)} ${f0(s.rps).padStart(6)} req/s  p50 ${f1(s.p50).padStart(6)} ms  p99 ${f1(s.p99).padStart(6)} ms  ` +
          `cpu: ${formatCpu(cpu)}${s.failed ? `  !! ${s.failed} failed` : ""}`,
      );
      await between(t);
    }
  }
  await drain?.end();

  const summary = summarize(slots, targets);
  const ratioRows = ratios(slots, summary, ratioPairs(targets), o.rounds);
  const setup =
    `${o.connections} connections, ${o.duration} s x ${o.rounds} rounds, interleaved ${o.rotate ? "(order rotating each round)" : `(${targets.map((t) => t.name).join(" ")} …)`}, ` +
    `mix ${mixName} (${mix.cases.length} requests); ${os.cpus().length} CPUs shared by the load generator, the servers and PostgreSQL; node ${process.version}`;
  const heading = `bench:compare ${mixName} ${started.toISOString()}${o.label ? ` (${o.label})` : ""}`;
  const markdown = compareMarkdown({ heading, setup, slots, summary, ratioRows });
  console.log(`\n${markdown}`);
  const file = writeOutput(o.out, `compare-${mixName}-${stamp(started)}`, markdown, {
    started: started.toISOString(),
    label: o.label,
    mix: mixName,
    cases: mix.cases.length,
    options: { connections: o.connections, duration: o.duration, rounds: o.rounds, warmup: o.warmup, rotate: o.rotate },
    targets: targets.map((t) => ({ name: t.name, role: t.role, origin: t.origin })),
    slots,
    summary,
    ratios: ratioRows,
    node: process.version,
    cpus: os.cpus().length,
  });
  console.log(`written ${file}.{md,json}`);
  return summary.some((s) => s.failed) ? 3 : 0;
}
