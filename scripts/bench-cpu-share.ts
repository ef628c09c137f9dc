// npm run bench:cpu-share -- [--seconds 60] [--app <pid>]
// Where this machine's CPU goes, by kind of process, over --seconds (Linux: /proc, sampled each second): the
// PostgreSQL processes of DATABASE_URL's server by their kind (pg_stat_activity's backend_type, and a client's
// application_name: the ingest's sessions are `markets-ingest`), the app (--app), and every other process by
// its command line. For what an ingest takes from the reads beside it (docs/performance.md "Reads while the
// ingest flows"). Prints only; asserts nothing.
import fs from "node:fs";
import { parseArgs } from "node:util";
import postgres from "postgres";

const { values: args } = parseArgs({ options: { seconds: { type: "string", default: "60" }, app: { type: "string" } } });
const seconds = Number(args.seconds);
const url = process.env.DATABASE_URL;
if (!(seconds > 0) || !url || (args.app !== undefined && !/^\d+$/.test(args.app))) {
  console.error("usage: DATABASE_URL=postgres://… npm run bench:cpu-share -- [--seconds 60] [--app <pid>]");
  process.exit(2);
}
/** Clock ticks a second (USER_HZ: 100 on every Linux architecture Node runs on). */
const HZ = 100;

const sql = postgres(url, { max: 1, onnotice: () => {} });
/** PostgreSQL's processes as the server names them, read again each second (a backend comes and goes, and its pid may be reused). */
const kinds = new Map<string, string>();
async function readKinds() {
  const rows = await sql<{ pid: number; backend_type: string; application_name: string }[]>`
    SELECT pid, backend_type, application_name FROM pg_stat_activity`;
  kinds.clear();
  for (const r of rows)
    kinds.set(String(r.pid), r.backend_type === "client backend" ? `PostgreSQL session: ${r.application_name || "(unnamed)"}` : `PostgreSQL ${r.backend_type}`);
}

const lastTicks = new Map<string, number>();
const ticksByKind = new Map<string, number>();
function sample(count: boolean) {
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    let cmd: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {
      continue; // gone meanwhile
    }
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(f[11]) + Number(f[12]);
    const before = lastTicks.get(pid);
    lastTicks.set(pid, ticks);
    if (!count || before === undefined || ticks <= before) continue;
    const kind =
      pid === args.app
        ? "the app"
        : (kinds.get(pid) ??
          (cmd.startsWith("postgres: ")
            ? `PostgreSQL ${cmd.slice(10).split(" ")[0]}`
            : cmd.slice(0, 70) || `[${stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))}] (the kernel's)`));
    ticksByKind.set(kind, (ticksByKind.get(kind) ?? 0) + ticks - before);
  }
}

try {
  await readKinds();
} catch (err) {
  console.error(`bench:cpu-share: cannot read pg_stat_activity at DATABASE_URL: ${(err as Error).message}`);
  process.exit(1);
}
sample(false);
for (let i = 0; i < seconds; i++) {
  await new Promise((r) => setTimeout(r, 1000));
  sample(true);
  await readKinds();
}
await sql.end();
const total = [...ticksByKind.values()].reduce((a, b) => a + b, 0);
console.log(`CPU over ${seconds} s, by kind of process (cores: CPU seconds a second)`);
for (const [kind, ticks] of [...ticksByKind].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`${(ticks / HZ / seconds).toFixed(2).padStart(6)}  ${kind}`);
}
console.log(`${(total / HZ / seconds).toFixed(2).padStart(6)}  in all`);
