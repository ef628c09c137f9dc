// npm run simulate [-- --rate 5] [--market slug ...] – keeps native active markets trading against
// DATABASE_URL or the embedded database, until Ctrl-C. Every tick signals through the NOTIFY triggers.
import { parseArgs } from "node:util";
import { config } from "../lib/config";
import { closeDb, db } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { startSimulator } from "../lib/simulator/simulator";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: String(config().SIMULATE_RATE) },
    market: { type: "string", multiple: true },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log("usage: npm run simulate -- [--rate <ticks per second>] [--market <slug>]...");
  process.exit(0);
}
const rate = Number(values.rate);
if (!(rate > 0 && rate <= 1000)) {
  console.error(`--rate must be a number of ticks per second in (0, 1000], got ${values.rate}`);
  process.exit(2);
}

const log = (m: string) => console.log(`[simulate] ${m}`);
const database = await resolveDatabase({ log });
await migrate(db(), log);
const stop = startSimulator(db(), { log, ratePerSecond: rate, slugs: values.market });

const shutdown = async () => {
  await stop();
  await closeDb();
  await database.stop();
  process.exit(0);
};
process.on("SIGINT", () => void shutdown());
process.on("SIGTERM", () => void shutdown());
