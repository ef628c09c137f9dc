// Before any load, every target is asked the mix's cases once and must do the same work:
// - the same market ids in the same order and the same total as the reference (bare when measured, else
//   the first target), for every target;
// - the same body, key for key and in the same key order, for every target that speaks the app's REST shape
//   (each named app and bare): two builds under comparison answer alike, and bare builds the app's exact JSON.
// A large mix (wide) is checked on an even sample of its cases, so that verifying does not warm the app's
// caches for the run. Nothing here is timed.

/** Cases verified at most: every case of a small mix, an even sample of a larger one. */
const SAMPLE = 64;

function sampleOf(cases) {
  if (cases.length <= SAMPLE) return cases.map((_, i) => i);
  return Array.from({ length: SAMPLE }, (_, k) => Math.floor((k * cases.length) / SAMPLE));
}

async function ask(target, c) {
  const r = target.request(c);
  const res = await fetch(target.origin + r.path, { method: r.method, headers: r.headers, body: r.body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${target.name}: ${r.method} ${r.path.slice(0, 160)} answered ${res.status}: ${text.slice(0, 300)}`);
  const json = JSON.parse(text);
  return { bytes: Buffer.byteLength(text), text, json, ...target.read(json) };
}

/** Where two parsed JSON values first differ (a path and both values), or null when they are the same. */
export function firstDifference(a, b, path = "$") {
  if (Object.is(a, b)) return null;
  const show = (v) => JSON.stringify(v)?.slice(0, 80);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) !== Array.isArray(b)) {
    return `${path}: ${show(a)} vs ${show(b)}`;
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) return `${path}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join() !== kb.join()) return `${path}: keys ${ka.join(",")} vs ${kb.join(",")}`;
  for (const k of ka) {
    const d = firstDifference(a[k], b[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

const sameIds = (a, b) => a.length === b.length && a.every((id, i) => String(id) === String(b[i]));

/** Checks the targets against each other; returns the problems found (none: they agree) and a summary line. */
export async function verify(targets, cases) {
  const reference = targets.find((t) => t.role === "bare") ?? targets[0];
  const rest = targets.filter((t) => t.shape === "rest");
  const bytes = new Map(targets.map((t) => [t.name, 0]));
  const problems = [];
  const indices = sampleOf(cases);
  let withRows = 0;
  const bytesDiffer = new Set(); // REST targets whose bodies parse alike but differ in bytes (spacing, number notation)
  for (const i of indices) {
    const c = cases[i];
    const got = new Map();
    for (const t of targets) {
      const answer = await ask(t, c);
      got.set(t.name, answer);
      bytes.set(t.name, bytes.get(t.name) + answer.bytes);
    }
    const want = got.get(reference.name);
    if (want.ids.length > 0) withRows++;
    for (const t of targets) {
      if (t === reference) continue;
      const g = got.get(t.name);
      if (!sameIds(g.ids, want.ids) || Number(g.total) !== Number(want.total)) {
        const at = g.ids.findIndex((id, k) => String(id) !== String(want.ids[k]));
        problems.push(
          `case ${i} ${JSON.stringify(c)}: ${t.name} answered ${g.ids.length} markets (total ${g.total}), ${reference.name} ${want.ids.length} (total ${want.total})` +
            `${at >= 0 ? `, first different id at #${at}` : ""}`,
        );
      }
    }
    for (const t of rest.slice(1)) {
      const d = firstDifference(got.get(rest[0].name).json, got.get(t.name).json);
      if (d) problems.push(`case ${i} ${JSON.stringify(c)}: ${t.name}'s body differs from ${rest[0].name}'s at ${d}`);
      else if (got.get(t.name).text !== got.get(rest[0].name).text) bytesDiffer.add(t.name);
    }
  }
  if (withRows === 0) {
    problems.push(`${reference.name} answered no markets for any case: the database is too small for this mix (BENCH_DEEP_OFFSET, BENCH_WIDE_MAX_OFFSET)`);
  }
  const average = [...bytes].map(([name, b]) => `${name} ${(b / indices.length / 1024).toFixed(1)} KiB`).join(", ");
  const alike = bytesDiffer.size ? ` (same JSON; bytes differ on ${[...bytesDiffer].join(", ")})` : " byte for byte";
  const bodies = rest.length > 1 ? `; bodies identical on ${rest.map((t) => t.name).join(", ")}${alike}` : "";
  const summary =
    `verified ${indices.length} of ${cases.length} cases: same ids, order and total on ${targets.map((t) => t.name).join(", ")} ` +
    `(reference ${reference.name})${bodies}; average body ${average}`;
  return { problems, summary };
}
