// The figures of a run as tables: each slot, each target's median over the rounds, and the ratios that
// carry the result. Absolute req/s move with the machine from one minute to the next; a ratio pairs
// slots seconds apart, so the median of the per-round ratios is the figure to compare between runs.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatCpu } from "./cpu.mjs";

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const fixed = (digits) => (x) => (x == null || Number.isNaN(x) ? "-" : x.toFixed(digits));
export const f0 = fixed(0);
export const f1 = fixed(1);
export const f2 = fixed(2);

/** A Markdown table; numeric columns right-aligned. */
export function table([head, ...rows]) {
  const width = head.map((_, i) => Math.max(...[head, ...rows].map((r) => String(r[i]).length)));
  const numeric = head.map((_, i) => rows.length > 0 && rows.every((r) => /^[-\d.]+$/.test(String(r[i]))));
  const line = (r) => `| ${r.map((c, i) => (numeric[i] ? String(c).padStart(width[i]) : String(c).padEnd(width[i]))).join(" | ")} |`;
  const rule = `|${width.map((w, i) => (numeric[i] ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [line(head), rule, ...rows.map(line)].join("\n");
}

/** Each target's median over the rounds. */
export function summarize(slots, targets) {
  return targets.map(({ name }) => {
    const mine = slots.filter((s) => s.target === name);
    return {
      target: name,
      rps: median(mine.map((s) => s.rps)),
      rpsMin: Math.min(...mine.map((s) => s.rps)),
      rpsMax: Math.max(...mine.map((s) => s.rps)),
      p50: median(mine.map((s) => s.p50)),
      p99: median(mine.map((s) => s.p99)),
      mibps: median(mine.map((s) => s.mibps)),
      failed: mine.reduce((n, s) => n + s.failed, 0),
      cpu: Object.fromEntries(Object.keys(mine[0].cpu).map((k) => [k, median(mine.map((s) => s.cpu[k]))])),
    };
  });
}

/**
 * The pairs worth a ratio: every app against bare and PostGraphile, every later app against the first
 * (`after/before` when named so), and the A/A control against bare. Without an app: PostGraphile/bare.
 */
export function ratioPairs(targets) {
  const names = new Set(targets.map((t) => t.name));
  const apps = targets.filter((t) => t.role === "app").map((t) => t.name);
  const pairs = [];
  for (const app of apps) for (const ref of ["bare", "postgraphile"]) if (names.has(ref)) pairs.push([app, ref]);
  for (const app of apps.slice(1)) pairs.push([app, apps[0]]);
  if (apps.length === 0 && names.has("postgraphile") && names.has("bare")) pairs.push(["postgraphile", "bare"]);
  if (names.has("bare-again")) pairs.push(["bare-again", "bare"]);
  return pairs;
}

export function ratios(slots, summary, pairs, rounds) {
  const by = new Map(summary.map((s) => [s.target, s]));
  const slot = (name, round) => slots.find((s) => s.target === name && s.round === round);
  return pairs.map(([a, b]) => {
    const perRound = Array.from({ length: rounds }, (_, i) => slot(a, i + 1).rps / slot(b, i + 1).rps);
    return {
      pair: `${a}/${b}`,
      ofMedians: by.get(a).rps / by.get(b).rps,
      perRound: median(perRound),
      perRoundMin: Math.min(...perRound),
      perRoundMax: Math.max(...perRound),
      p50: by.get(a).p50 / by.get(b).p50,
      p99: by.get(a).p99 / by.get(b).p99,
    };
  });
}

/** The run as Markdown: per round, summary, ratios. */
export function compareMarkdown({ heading, setup, slots, summary, ratioRows }) {
  const perRound = [["round", "target", "req/s", "p50 ms", "p99 ms", "failed", "CPU % (100 = one core)"]].concat(
    slots.map((s) => [s.round, s.target, f0(s.rps), f1(s.p50), f1(s.p99), s.failed, formatCpu(s.cpu)]),
  );
  const medians = [["target", "req/s (median)", "min..max", "p50 ms", "p99 ms", "MiB/s", "failed", "CPU %"]].concat(
    summary.map((s) => [s.target, f0(s.rps), `${f0(s.rpsMin)}..${f0(s.rpsMax)}`, f1(s.p50), f1(s.p99), f1(s.mibps), s.failed, formatCpu(s.cpu)]),
  );
  const ratioTable = [["ratio", "req/s per round (median)", "min..max", "req/s of medians", "p50", "p99"]].concat(
    ratioRows.map((r) => [r.pair, f2(r.perRound), `${f2(r.perRoundMin)}..${f2(r.perRoundMax)}`, f2(r.ofMedians), f2(r.p50), f2(r.p99)]),
  );
  return [
    `# ${heading}`,
    "",
    setup,
    "",
    "## Per round",
    "",
    table(perRound),
    "",
    "## Median of the rounds",
    "",
    table(medians),
    "",
    "## Ratios (req/s: above 1 the first is faster; latency: below 1 the first is faster)",
    "",
    ratioRows.length ? table(ratioTable) : "(one target: no ratio)",
    "",
  ].join("\n");
}

/** Writes `<out>/<stem>.md` and `.json`; returns the stem's path. */
export function writeOutput(out, stem, markdown, data) {
  mkdirSync(out, { recursive: true });
  const file = path.join(out, stem);
  writeFileSync(`${file}.md`, markdown);
  writeFileSync(`${file}.json`, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

export const stamp = (date) => date.toISOString().replace(/[:.]/g, "-");
