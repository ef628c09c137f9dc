// npm run bench:compare – the entry: reads the command line (src/options.mjs), starts the reference servers
// the run needs on the app's database, runs the comparison (src/compare.mjs) or the detail probe
// (src/detail.mjs, then src/floor.mjs), prints the apps' cache memory, and stops what it started.
// `node bench/run.mjs --help` lists the options; bench/README.md says how to read the output.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compare } from "./src/compare.mjs";
import { detail } from "./src/detail.mjs";
import { floor } from "./src/floor.mjs";
import { mixes } from "./src/mixes.mjs";
import { readOptions, USAGE } from "./src/options.mjs";
import { startReference } from "./src/servers.mjs";
import { printStats } from "./src/stats.mjs";
import { graphqlTarget, restTarget } from "./src/targets.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));

function fail(message, code = 2) {
  console.error(`bench: ${message}`);
  process.exit(code);
}

let o;
try {
  o = readOptions(process.argv.slice(2));
} catch (err) {
  fail(`${err.message}\n\n${USAGE}`);
}
if (o.help) {
  console.log(USAGE);
  process.exit(0);
}
o.out = path.resolve(o.out ?? path.join(HERE, "output"));

const all = mixes();
const mix = all[o.mix];
if (!mix) fail(`--mix must be one of ${Object.keys(all).join(", ")}`);

// The targets measured: --only names them ("app" stands for every app under test when none is named so);
// without it, every app and both references, less those the mix leaves out.
const appNames = new Set(o.apps.map((a) => a.name));
const only = o.only && new Set(o.only.flatMap((n) => (n === "app" && !appNames.has("app") ? [...appNames] : [n])));
for (const name of only ?? []) if (!appNames.has(name) && name !== "bare" && name !== "postgraphile") fail(`--only ${name}: no such target`);
const apps = o.apps.filter((a) => !only || only.has(a.name)).map((a) => restTarget(a.name, a.url, "app"));
const wants = (ref) => !o.detail && (only ? only.has(ref) : !mix.without?.[ref]);
if (!o.detail && !only)
  for (const [ref, why] of Object.entries(mix.without ?? {})) console.log(`${ref} left out of the ${o.mix} mix: ${why} (--only names it)`);
const databaseUrl = process.env.DATABASE_URL;
if ((o.detail || wants("bare") || wants("postgraphile")) && !databaseUrl) fail("set DATABASE_URL to the database the app reads");
if (o.detail && apps.length === 0) fail("--detail asks apps only: name at least one in --only");
const measured = apps.length + Number(wants("bare")) + Number(wants("postgraphile")) + Number(wants("bare") && o.control);
if (!o.detail && measured < 2) fail("a comparison needs at least two targets (--only)");

const references = [];
const stopAll = () => Promise.all(references.map((r) => r.stop()));
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    stopAll().then(() => process.exit(130));
  });
}

let code = 1;
try {
  if (o.detail) {
    const medians = await detail(apps, databaseUrl, {
      seconds: o.duration,
      rounds: o.rounds,
      pause: o.pause,
      out: o.out,
      label: o.label,
      probe: o.probe,
      coldFrom: o.coldFrom,
    });
    await printStats(apps);
    console.log("the machine's pace in the same minutes: Next's floor");
    await floor(apps, medians, { seconds: o.duration });
    code = 0;
  } else {
    const started = await Promise.all(
      [
        wants("postgraphile") && startReference("postgraphile", { port: o.postgraphilePort, databaseUrl }),
        wants("bare") && startReference("bare", { port: o.barePort, databaseUrl }),
      ].filter(Boolean),
    );
    references.push(...started);
    // Interleaving order within a round: the apps, then PostGraphile, then bare (and its A/A twin).
    const targets = [...apps];
    const pgl = started.find((r) => r.name === "postgraphile");
    const bare = started.find((r) => r.name === "bare");
    if (pgl) targets.push(graphqlTarget("postgraphile", pgl.origin));
    if (bare) targets.push(restTarget("bare", bare.origin, "bare"));
    if (bare && o.control) targets.push(restTarget("bare-again", bare.origin, "control"));
    const watched = [...o.pids, ...started.map((r) => ({ name: r.name, pid: r.pid }))];
    code = await compare(targets, o.mix, mix, watched, { ...o, databaseUrl });
    await printStats(apps);
  }
} catch (err) {
  console.error(`bench: ${err.stack ?? err}`);
} finally {
  await stopAll();
}
process.exit(code);
