// npm run db:seed [-- --markets N --trades-per-outcome N --seed N --users N --heavy-trades N --reset --insert]
// npm run db:seed -- --profile venues [--markets N --seed N --users N --reset]
// Loads a deterministic dataset (the demo, or the venues profile: docs/development.md#data-sets) into
// DATABASE_URL or the embedded database.
import { parseArgs } from "node:util";
import cliProgress from "cli-progress";
import { closeDb, db } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { HEAVY_MAX_TRADES } from "../lib/seed/heavy";
import { seedDatabase } from "../lib/seed/seed";
import { seedVenues } from "../lib/seed/venues-seed";

const { values: args } = parseArgs({
  options: {
    profile: { type: "string", default: "demo" },
    markets: { type: "string" },
    "trades-per-outcome": { type: "string" },
    seed: { type: "string" },
    users: { type: "string" },
    "heavy-trades": { type: "string" },
    reset: { type: "boolean", default: false },
    insert: { type: "boolean", default: false },
  },
});

function int(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    console.error(`--${name} must be an integer >= ${min}, got "${value}"`);
    process.exit(2);
  }
  return Number(value);
}

const options = {
  markets: int("markets", args.markets, 1),
  tradesPerOutcome: int("trades-per-outcome", args["trades-per-outcome"], 0),
  seed: int("seed", args.seed, 0),
  users: int("users", args.users, 2),
  heavyTrades: int("heavy-trades", args["heavy-trades"], 0),
  copy: args.insert ? false : undefined,
};

const PROFILES = ["demo", "venues"];
if (!PROFILES.includes(args.profile)) {
  console.error(`--profile must be one of ${PROFILES.join(", ")}, got "${args.profile}"`);
  process.exit(2);
}
const venues = args.profile === "venues";
if (venues && (options.tradesPerOutcome !== undefined || options.heavyTrades !== undefined || args.insert)) {
  console.error("--profile venues draws its own trade counts and loads with COPY: --trades-per-outcome, --heavy-trades and --insert do not apply");
  process.exit(2);
}

if ((options.heavyTrades ?? 0) > HEAVY_MAX_TRADES) {
  console.error(`--heavy-trades must be at most ${HEAVY_MAX_TRADES}`);
  process.exit(2);
}

const database = await resolveDatabase();
let exitCode = 0;
try {
  const sql = db();
  await migrate(sql, (m) => console.log(m));
  const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM markets`;
  const [{ u }] = await sql<{ u: number }[]>`SELECT count(*)::int AS u FROM users`;
  if ((n > 0 || u > 0) && !args.reset) {
    console.error(`The database already holds ${n} markets and ${u} users; refusing to seed into it. Re-run with --reset to empty it first.`);
    exitCode = 1;
  } else {
    if (args.reset) console.log("--reset: emptying all data tables in the seeding transaction");
    const bar = new cliProgress.SingleBar(
      {
        format: "seeding [{bar}] {percentage}% | {value}/{total} markets | {rows} rows | {duration_formatted}",
        stream: process.stderr,
        hideCursor: true,
        noTTYOutput: true,
        notTTYSchedule: 10_000,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    const summary = await (venues ? seedVenues : seedDatabase)(sql, {
      ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
      reset: args.reset,
      log: (m) => {
        if (started) bar.stop(), (started = false);
        console.log(m);
      },
      onProgress: (p) => {
        const payload = { rows: p.rows.toLocaleString("en-US") };
        if (!started) bar.start(p.total, p.done, payload), (started = true);
        else bar.update(p.done, payload);
      },
    });
    const { ms, ...rest } = summary;
    const counts = Object.fromEntries(Object.entries(rest).filter(([, v]) => typeof v === "number"));
    console.log(
      Object.entries(counts)
        .map(([t, c]) => `${t}=${c}`)
        .join(" ") + ` (${(ms / 1000).toFixed(1)} s)`,
    );
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  exitCode = 1;
} finally {
  await closeDb();
  await database.stop();
}
process.exit(exitCode);
