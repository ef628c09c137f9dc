// npm run bench:positions [-- --seconds 15 --rounds 6 --writers 1,4]
// The cost of numbering every announced change at its commit (migration 0021, docs/api.md "Positions"):
// the simulator's order writes (lib/simulator/simulator.ts, simulateTick: place, cancel or cross, one
// transaction each) on the seeded database of DATABASE_URL or the embedded cluster in EMBEDDED_PG_DIR, by
// `writers` concurrent sessions, with positions on and off (SET markets.positions = off on the writers'
// sessions: each change is announced at once, unnumbered and unrecorded). After a warm-up in both modes,
// they alternate round by round (on, off, off, on, …) so that a drift of the machine weighs on both; one
// LISTEN connection hears every NOTIFY, as a server's change stream would. Prints order statements and ticks
// per second per mode, the writers' backend CPU per tick, and the on/off ratio. Target (docs/performance.md,
// 2 cores): positions cost ≤ 10 %. Prints only; never asserts.
import fs from "node:fs";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { closeDb, db } from "../lib/db/client";
import { resolveDatabase } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { simulateTick, simulatorUsers, type TickResult } from "../lib/simulator/simulator";

const { values: args } = parseArgs({
  options: { seconds: { type: "string" }, rounds: { type: "string" }, writers: { type: "string" } },
});
const SECONDS = Number(args.seconds ?? 15);
const ROUNDS = Number(args.rounds ?? 6);
const WRITERS = (args.writers ?? "1,4").split(",").map(Number);
if (!(SECONDS > 0) || !(ROUNDS >= 2) || WRITERS.some((w) => !(Number.isInteger(w) && w >= 1))) {
  console.error("usage: npm run bench:positions -- [--seconds <s > 0>] [--rounds <≥ 2>] [--writers <n,n,…>]");
  process.exit(2);
}
type Mode = "on" | "off";
/** The order and trade statements each kind of tick writes (orders insert; orders update; orders update + insert, trades insert). */
const ORDER_STATEMENTS: Record<TickResult, number> = { placed: 1, cancelled: 1, traded: 3, skipped: 0 };

const database = await resolveDatabase({ log: (m) => console.error(m) });
const sql = db();
await migrate(sql);
const users = await simulatorUsers(sql);
const markets = (await sql<{ id: string }[]>`SELECT id FROM markets WHERE status = 'ACTIVE' AND external_source IS NULL`).map((r) => r.id);
if (!markets.length) {
  console.error("no native ACTIVE market to trade: seed the database first (npm run db:seed)");
  process.exit(1);
}
const [{ n: marketCount }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM markets`;
const [{ n: tradeCount }] = await sql<{ n: number }[]>`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'trades'`;

// A listener, as every instance's change stream is: it counts what it hears, and whether it carried a position.
const heard = { on: 0, off: 0 };
const listener = postgres(database.url, { max: 1, onnotice: () => {} });
await listener.listen("market_events", (payload) => {
  heard[payload.includes('"p":') ? "on" : "off"]++;
});

/** One session per writer, so that SET markets.positions holds for everything it writes. */
const sessions = await Promise.all(
  Array.from({ length: Math.max(...WRITERS) }, async () => postgres(database.url, { max: 1, onnotice: () => {}, connection: { statement_timeout: 0 } })),
);
const backends = await Promise.all(sessions.map(async (s) => (await s<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0].pid));

/**
 * CPU time of the writers' backends, ms, when the database runs on this machine (null otherwise): what the
 * numbering costs the server, less sensitive than the rates to what else the machine runs.
 */
function backendCpuMs(pids: number[]): number | null {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // /proc/<pid>/stat: utime and stime are fields 14 and 15, after the parenthesised command
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  }
  return (ticks * 1000) / 100; // USER_HZ
}

interface Round {
  writers: number;
  mode: Mode;
  seconds: number;
  ticks: number;
  statements: number;
  failed: number;
  cpuMs: number | null;
}

async function round(writers: number, mode: Mode, seconds = SECONDS): Promise<Round> {
  const active = sessions.slice(0, writers);
  await Promise.all(active.map((s) => s.unsafe(`SET markets.positions = ${mode}`)));
  const until = Date.now() + seconds * 1000;
  let ticks = 0;
  let statements = 0;
  let failed = 0;
  const pids = backends.slice(0, writers);
  const cpu0 = backendCpuMs(pids);
  const t0 = performance.now();
  await Promise.all(
    active.map(async (s) => {
      while (Date.now() < until) {
        const market = markets[Math.floor(Math.random() * markets.length)];
        try {
          const result = await simulateTick(s, market, users);
          if (result !== "skipped") ticks++;
          statements += ORDER_STATEMENTS[result];
        } catch {
          failed++;
        }
      }
    }),
  );
  const cpu1 = backendCpuMs(pids);
  const cpuMs = cpu0 === null || cpu1 === null ? null : cpu1 - cpu0;
  return { writers, mode, seconds: (performance.now() - t0) / 1000, ticks, statements, failed, cpuMs };
}

console.log(
  `bench:positions – ${marketCount} markets (${markets.length} native ACTIVE traded), ~${Math.round(tradeCount)} trades; ` +
    `${ROUNDS} rounds of ${SECONDS} s per writer count, modes alternating`,
);
const rounds: Round[] = [];
for (const writers of WRITERS) {
  // Unmeasured: every session plans its statements and the caches fill, in both modes, before the first round.
  for (const mode of ["on", "off"] as const) await round(writers, mode, Math.max(3, SECONDS / 3));
  for (let r = 0; r < ROUNDS; r++) {
    // on off | off on | on off …: each mode goes first as often as second
    const order: Mode[] = r % 2 === 0 ? ["on", "off"] : ["off", "on"];
    for (const mode of order) {
      const result = await round(writers, mode);
      rounds.push(result);
      console.error(
        `  ${writers} writer(s), positions ${mode.padEnd(3)}: ${(result.statements / result.seconds).toFixed(0)} order statements/s, ${(result.ticks / result.seconds).toFixed(0)} ticks/s${result.failed ? `, ${result.failed} failed` : ""}`,
      );
    }
  }
}

const rate = (rs: Round[], key: "ticks" | "statements") => rs.reduce((a, r) => a + r[key], 0) / rs.reduce((a, r) => a + r.seconds, 0);
/** Server CPU ms per tick over rounds, or null when it could not be read. */
const cpuPerTick = (rs: Round[]) => (rs.every((r) => r.cpuMs !== null) ? rs.reduce((a, r) => a + r.cpuMs!, 0) / rs.reduce((a, r) => a + r.ticks, 0) : null);
console.log("\nwriters | positions | order statements/s | ticks/s | server CPU ms/tick | rounds (order statements/s)");
console.log("---|---|---|---|---|---");
const ratios: string[] = [];
for (const writers of WRITERS) {
  const of = (mode: Mode) => rounds.filter((r) => r.writers === writers && r.mode === mode);
  for (const mode of ["on", "off"] as const) {
    const rs = of(mode);
    console.log(
      `${writers} | ${mode} | ${rate(rs, "statements").toFixed(0)} | ${rate(rs, "ticks").toFixed(0)} | ${cpuPerTick(rs)?.toFixed(2) ?? "–"} | ${rs.map((r) => (r.statements / r.seconds).toFixed(0)).join(", ")}`,
    );
  }
  const ratio = rate(of("on"), "statements") / rate(of("off"), "statements");
  const cpuOn = cpuPerTick(of("on"));
  const cpuOff = cpuPerTick(of("off"));
  const cpu = cpuOn !== null && cpuOff ? `, server CPU per tick ${((cpuOn / cpuOff - 1) * 100).toFixed(1)} % more` : "";
  ratios.push(`${writers} writer(s): on/off ${ratio.toFixed(3)} (cost ${((1 - ratio) * 100).toFixed(1)} %${cpu})`);
}
console.log(`\n${ratios.join("\n")}`);
const failed = rounds.reduce((a, r) => a + r.failed, 0);
console.log(`NOTIFYs heard: ${heard.on} with a position, ${heard.off} without${failed ? `; ${failed} ticks failed` : ""}`);

await Promise.all(sessions.map((s) => s.end()));
await listener.end();
await closeDb();
await database.stop();
