// The command line of bench/run.mjs (npm run bench:compare -- …): what it accepts, its defaults, its help.
import { parseArgs } from "node:util";
import { PROBE_SLOTS } from "./detail.mjs";

export const USAGE = `npm run bench:compare -- [options]        (or: node bench/run.mjs [options])

The app's GET /v1/markets beside bare node+SQL and PostGraphile 5 on the same database, in one
interleaved run; or, with --detail, cold and hot reads of single markets and pages.

  --mix NAME            catvol (default), default, deep, search, wide (bench/README.md "Mixes")
  --app [NAME=]URL      an app under test; repeat to compare builds in one run, e.g.
                        --app before=http://127.0.0.1:3001 --app after=http://127.0.0.1:3000
                        (default: app=$APP_URL, else app=http://127.0.0.1:3000)
  --only LIST           the targets to measure, e.g. app,bare ("app" stands for every app under test);
                        default: every app, PostGraphile (not for deep and search) and bare
  --rounds N            rounds of one slot per target (default 5; --detail: $DETAIL_ROUNDS or 2)
  --duration S          seconds per slot (default 10; --detail: $DETAIL_SECONDS or 10)
  --connections N       autocannon connections (default 32; --detail always 16)
  --warmup S            seconds of unrecorded load per target first (default 3)
  --pause S             seconds between slots (default 1)
  --rotate              shift the targets' order by one each round
  --control             measure bare twice per round: bare-again/bare is the run's A/A noise
  --no-verify           measure without first checking that the targets answer alike
  --pid NAME=PID        report the CPU of that process and its descendants (repeatable; $APP_PID
                        counts as the first app's)
  --detail              the cold/hot probe of market, book, history, market page and list pages,
                        then Next's floor (/watchlist); asks only the apps
  --probe LIST          with --detail, only these of its slots, e.g. page.cold,page.hot (endpoints
                        market, orderbook, history, page, list; modes cold, hot)
  --cold-from N         with --detail, the key its cold walk starts from (default: a random one, printed)
  --label TEXT          a note in the output's heading
  --out DIR             where the tables go (default bench/output)
  --bare-port N         port of the bare target (default 4001)
  --postgraphile-port N port of the PostGraphile target (default 4002)
  --help                this text

Environment: DATABASE_URL (the database the app reads: required for bare, PostGraphile and --detail),
APP_URL, APP_PID, DETAIL_SECONDS, DETAIL_ROUNDS, BENCH_DEEP_OFFSET (20000), BENCH_WIDE_MAX_OFFSET (4000),
BENCH_WIDE_SEED (7). Start the app with RATE_LIMIT=off.`;

const RESERVED = new Set(["bare", "postgraphile", "bare-again"]);

/** `[NAME=]URL` → {name, url}. */
export function appArg(value) {
  const m = /^([A-Za-z][\w-]*)=(.+)$/.exec(value);
  const [name, url] = m ? [m[1], m[2]] : ["app", value];
  if (!/^https?:\/\//.test(url)) throw new Error(`--app ${value}: expected [NAME=]http://host:port`);
  if (RESERVED.has(name)) throw new Error(`--app ${value}: ${name} names a reference target`);
  return { name, url };
}

const number = (name, value, fallback, min) => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number >= ${min}, got "${value}"`);
  return n;
};

/** The parsed command line with every default resolved. */
export function readOptions(argv, env = process.env) {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    options: {
      mix: { type: "string", default: "catvol" },
      app: { type: "string", multiple: true, default: [] },
      only: { type: "string" },
      rounds: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string" },
      warmup: { type: "string" },
      pause: { type: "string" },
      rotate: { type: "boolean", default: false },
      control: { type: "boolean", default: false },
      "no-verify": { type: "boolean", default: false },
      pid: { type: "string", multiple: true, default: [] },
      detail: { type: "boolean", default: false },
      probe: { type: "string" },
      "cold-from": { type: "string" },
      label: { type: "string", default: "" },
      out: { type: "string" },
      "bare-port": { type: "string" },
      "postgraphile-port": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  const apps = (v.app.length ? v.app : [env.APP_URL || "http://127.0.0.1:3000"]).map(appArg);
  if (new Set(apps.map((a) => a.name)).size !== apps.length) throw new Error("--app: each app needs a name of its own (NAME=URL)");
  const pids = v.pid.map((p) => {
    const m = /^([\w-]+)=(\d+)$/.exec(p);
    if (!m) throw new Error(`--pid ${p}: expected NAME=PID`);
    return { name: m[1], pid: Number(m[2]) };
  });
  const probe = v.probe ? v.probe.split(",").map((s) => s.trim()) : null;
  if (probe && !v.detail) throw new Error("--probe chooses slots of --detail: add --detail");
  for (const slot of probe ?? []) {
    if (!PROBE_SLOTS.includes(slot)) throw new Error(`--probe ${slot}: expected one of ${PROBE_SLOTS.join(", ")}`);
  }
  if (env.APP_PID && !pids.some((p) => p.name === apps[0].name)) pids.unshift({ name: apps[0].name, pid: Number(env.APP_PID) });
  return {
    help: v.help,
    mix: v.mix,
    apps,
    only: v.only ? v.only.split(",").map((s) => s.trim()) : null,
    detail: v.detail,
    probe,
    coldFrom: v["cold-from"] === undefined ? undefined : number("cold-from", v["cold-from"], 0, 0),
    rounds: number("rounds", v.rounds ?? (v.detail ? env.DETAIL_ROUNDS : undefined), v.detail ? 2 : 5, 1),
    duration: number("duration", v.duration ?? (v.detail ? env.DETAIL_SECONDS : undefined), 10, 1),
    connections: number("connections", v.connections, 32, 1),
    warmup: number("warmup", v.warmup, 3, 0),
    pause: number("pause", v.pause, 1, 0),
    rotate: v.rotate,
    control: v.control,
    verify: !v["no-verify"],
    pids,
    label: v.label,
    out: v.out,
    barePort: number("bare-port", v["bare-port"], 4001, 1),
    postgraphilePort: number("postgraphile-port", v["postgraphile-port"], 4002, 1),
  };
}
