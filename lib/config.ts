// The one place that reads the environment: every variable the server, the route handlers and the jobs
// use, declared once (name, type, default, bounds, what it does), validated with zod, and parsed once per
// process. server.ts validates it before anything else and exits naming the first bad variable; every
// other module asks `config()`. README's "Configuration" section is generated from VARIABLES
// (npm run docs:config). Test and benchmark scripts read their own variables (TEST_PORT, BENCH_* …):
// they are listed in SCRIPT_VARIABLES for the README only.
import "server-only";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { dropShared, shared } from "@/lib/process-state";

interface Variable<T> {
  /** zod schema of the raw value (undefined when unset or empty). */
  schema: z.ZodType<T>;
  /** What a valid value is, in words: "integer 1–1000". */
  type: string;
  /** The default, as the README shows it. */
  fallback: string;
  description: string;
}

const FLAG_VALUES: Record<string, boolean> = { "1": true, true: true, on: true, yes: true, "0": false, false: false, off: false, no: false };

function int(description: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): Variable<number> {
  return {
    schema: z.coerce.number().int().min(min).max(max).default(fallback),
    type: max === Number.MAX_SAFE_INTEGER ? `integer ≥ ${min}` : `integer ${min}–${max}`,
    fallback: String(fallback),
    description,
  };
}

function ms(description: string, fallback: number, min = 0): Variable<number> {
  return { ...int(description, fallback, min), type: `milliseconds ≥ ${min}` };
}

/** Any number above `min` (or at least 0 when `min` is "≥ 0"). */
function num(description: string, fallback: number, bound: "> 0" | "≥ 0"): Variable<number> {
  const n = bound === "> 0" ? z.coerce.number().positive() : z.coerce.number().nonnegative();
  return {
    schema: n.default(fallback),
    type: `number ${bound}`,
    fallback: String(fallback),
    description,
  };
}

/** A number whose default depends on another variable: undefined when unset, the consumer derives it. */
function optionalInt(description: string, fallback: string, min: number): Variable<number | undefined> {
  return {
    schema: z.coerce.number().int().min(min).optional(),
    type: `integer ≥ ${min}`,
    fallback,
    description,
  };
}

function flag(description: string, fallback: boolean): Variable<boolean> {
  return {
    schema: z
      .string()
      .optional()
      .refine((v) => v === undefined || v.toLowerCase() in FLAG_VALUES)
      .transform((v) => (v === undefined ? fallback : FLAG_VALUES[v.toLowerCase()])),
    type: "on/off (or 1/0, true/false, yes/no)",
    fallback: fallback ? "on" : "off",
    description,
  };
}

function text(description: string, fallback: string, shown = fallback): Variable<string> {
  return { schema: z.string().default(fallback), type: "text", fallback: shown, description };
}

/** postgres:// or postgresql:// (a socket directory in `?host=` leaves the host empty, which a URL parser refuses). */
const postgresUrl = z.string().regex(/^postgres(ql)?:\/\/\S*$/);

function optionalUrl(description: string): Variable<string | undefined> {
  return {
    schema: postgresUrl.optional(),
    type: "postgres:// URL",
    fallback: "(embedded)",
    description,
  };
}

function list(description: string, item: z.ZodString, type: string, separator: string | RegExp = ","): Variable<string[]> {
  return {
    schema: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(separator)
          .map((s) => s.replace(/^[\s,]+|[\s,]+$/g, ""))
          .filter(Boolean),
      )
      .pipe(z.array(item)),
    type,
    fallback: "(none)",
    description,
  };
}

/** Two connections per core, 2–10: on 2 cores, 10 served 33–43% fewer cold reads a second than 2–4 (docs/performance.md, "Batch loads and the request pool"). */
export const DEFAULT_POOL_SIZE = Math.min(10, Math.max(2, 2 * os.availableParallelism()));

/** Every runtime variable, grouped as the README lists them. */
export const VARIABLES = {
  // server.ts
  PORT: int("HTTP port of the server (pages, /v1 and Socket.IO on one port).", 3000, 0, 65535),
  HOST: text("Address the server listens on.", "0.0.0.0"),
  NEXT_DIST_DIR: text("Next's build directory (next.config.mjs reads it too); a second build can sit beside the first.", ".next"),
  SKIP_SEED: flag("Do not seed the demo data into an empty database at start.", false),
  SIMULATE: flag("Run the market simulator beside the server (as `--simulate`).", false),
  SIMULATE_RATE: num("Simulator ticks per second.", 2, "> 0"),
  LOG_REQUESTS: flag("One JSON line per request on stdout.", true),
  WARM_UP_PAGES: int(
    "Pages rendered before the port opens (the first list pages, then the markets most traded in 24 h), so that the first readers after a start do not wait on V8 compiling the render path (not in dev). About 5 s at 100k markets; 0: none.",
    100,
    0,
    10_000,
  ),
  WARM_UP_RENDERS: int(
    "Renders of the warm-up in all: past WARM_UP_PAGES the same pages are rendered again from memory, pass after pass, until V8 has optimized the render path. About 7–9 s more at 100k markets; never fewer renders than WARM_UP_PAGES.",
    600,
    0,
    100_000,
  ),
  WARM_UP_ITEMS_PERCENT: int(
    "List items loaded before the port opens, as a share of the response cache's budget: the ACTIVE markets most traded in all, so that the first pass of crawlers and readers over the lists after a start finds them in memory. About 10 s at 100k markets (46,330–47,825 items, 111–115 MB of the response cache's 145 with the default CACHE_MAX_MB), 3 s more to the start in all; 0: none.",
    80,
    0,
    100,
  ),
  WARM_UP_DEADLINE_MS: ms("The warm-up stops asking for pages, and for list items, after this long (each).", 20_000),
  SHUTDOWN_DRAIN_MS: ms(
    'On SIGTERM, /readyz answers 503 "draining" this long before the server stops taking connections, while it still answers everything: a load balancer that checks every second and takes an instance out after two failures (docs/deploy.md) has stopped sending by then. 0: stop at once.',
    3000,
  ),
  SHUTDOWN_GRACE_MS: ms("After the drain, requests in flight get this long to finish before their connections are closed.", 10_000),
  // database
  DATABASE_URL: optionalUrl("The PostgreSQL to use; unset: the embedded cluster in EMBEDDED_PG_DIR is started."),
  EMBEDDED_PG_DIR: text("Data directory of the embedded PostgreSQL.", path.join(process.cwd(), ".data", "pg"), ".data/pg"),
  DB_POOL_SIZE: {
    ...int(
      "Connections in the request pool (per replica too). The default, two per core of this machine, suits a database on the same machine; docs/deploy.md says when to set it lower.",
      DEFAULT_POOL_SIZE,
      1,
      1000,
    ),
    fallback: "2 per core, 2–10",
  },
  DB_CONNECT_TIMEOUT_MS: ms("How long a connection attempt may take.", 2000),
  DB_STATEMENT_TIMEOUT_MS: ms("statement_timeout of the request pool (0: none).", 3000),
  DB_LOCK_TIMEOUT_MS: ms("lock_timeout of the request pool (0: none).", 1000),
  DB_REQUEST_TIMEOUT_MS: {
    ...optionalInt("How long a request may wait for the database in all, pool wait included (0: none).", "statement timeout + 500 (5000 without one)", 0),
    type: "milliseconds ≥ 0",
  },
  DB_RETRY_MS: ms("While the database is away, the breaker probes it this often (503s meanwhile).", 1000, 1),
  // A comma starts a new URL only before a scheme: a multi-host URL (postgres://h1:5432,h2:5432/db) keeps its own.
  DATABASE_REPLICA_URLS: list(
    "Comma-separated streaming replicas: reads of /v1 and the pages go to them.",
    postgresUrl,
    "postgres:// URLs, comma-separated",
    /,(?=\s*postgres(?:ql)?:\/\/)/,
  ),
  DATABASE_REPLICA_WAIT_MS: ms("How long a read waits for a replica to replay an announced commit before it reads the primary.", 200),
  DATABASE_REPLICA_CHECK_MS: ms("Replica health and replay position probe interval.", 1000, 1),
  DATABASE_REPLICA_CONSISTENCY: flag("Reads after a signal wait for a replica that has replayed its commit (off shows what it prevents).", true),
  // response cache
  CACHE: flag("The response cache of /v1 and the pages (off: every read goes to the database).", true),
  CACHE_MAX_MB: num(
    "Byte budget of the cached answers, MB: the response cache, each entry weighed as its bytes and the 800 bytes of heap it takes beside them (answers as JSON text outside V8's heap, an eighth for those asked again kept parsed; list items packed, ~150 MB for the 61,887 ACTIVE markets of 100,000; rendered pages), and a 32nd of it for the list pages kept for their keys' next requests. With the list orders (95 MB at 100,000 markets), 150 keeps every cache of an instance under 256 MB as measured (240.5 stated, 251.3 held beyond a CACHE=off process after the same traffic).",
    150,
    "≥ 0",
  ),
  LIST_INDEX_MAX_MB: num(
    "Byte budget of the lists' orders kept in memory, MB (docs/performance.md \"List orders in memory\"): about 540 bytes a market and 430 of its search text. Each build keeps the ACTIVE markets' orders (even past the budget), then those of the other listed statuses, smallest first, while they fit; the lists of a status not kept come from SQL. 200 keeps every listed status of the 100,000-market data set (85,904 markets, 81.3 MB: npm run bench:list-index).",
    200,
    "≥ 0",
  ),
  CACHE_CHECK_JSON: flag("Tests: check that every answer the cache keeps as JSON text is JSON data (a Date or a Map in one fails its read).", false),
  CACHE_STALE_IF_ERROR_S: int("How long an invalidated answer may be served while the database is away, seconds.", 300, 0),
  CACHE_UNHEARD_MS: ms(
    "While the change stream is not heard (the primary unreachable, or its LISTEN connection down), an answer loaded meanwhile is served from memory this long after its load began, then once more while one load refreshes it (never older than twice this), and concurrent reads share one load; nothing announces a change then. 0: every read loads.",
    1000,
  ),
  PAGE_CACHE: flag("Keep rendered list and market pages in the response cache, dropped with what they show (needs CACHE; off: every view renders).", true),
  // rate limit of /v1
  RATE_LIMIT: flag("The per-client rate limit of /v1.", true),
  RATE_LIMIT_RPS: num("Requests per second per client, sustained.", 50, "> 0"),
  RATE_LIMIT_BURST: optionalInt("Requests a client may make at once.", "max(100, RATE_LIMIT_RPS)", 1),
  RATE_LIMIT_MAX_CLIENTS: int("Clients remembered at most (about 160 bytes each).", 100_000, 1),
  TRUST_PROXY: list(
    "Proxies whose X-Forwarded-For is believed: addresses, CIDR ranges, loopback, private, linklocal.",
    z.string(),
    "addresses, CIDR ranges or keywords, comma-separated",
  ),
  // jobs and push channels
  TRENDING_SWEEP_MS: ms("How often aged trades leave the stored 24 h volume.", 60_000, 1),
  // the record of past books (migration 0011; docs/api.md "Past books")
  BOOK_LOG_RETENTION_DAYS: int("Days of past books kept: older days of the book log are dropped whole.", 30, 1, 3650),
  BOOK_LOG_SWEEP_MS: ms("How often each instance creates the book log's coming days and drops expired ones.", 3_600_000, 1000),
  // positions of changes (migration 0021; docs/api.md "Positions")
  CHANGES_RETENTION_HOURS: int(
    "Hours of numbered changes kept (change_log) for resuming the push channels: a resume from an older position is told to reset. Each instance trims the log once a minute.",
    24,
    1,
    8760,
  ),
  MARKETS_FEED_APPLY_MS: ms(
    "How often each instance moves the markets feed's positions (GET /v1/markets/changes) to the changes committed since: a change reaches the feed within about this long.",
    200,
    20,
  ),
  // daily Parquet exports (docs/api.md "Exports"; docs/deploy.md "Exports")
  EXPORT_DIR: text(
    "Where the export job writes the daily Parquet files and their index.json, served under /v1/exports (one directory per instance, or one writer: EXPORT_JOB).",
    path.join(process.cwd(), ".data", "exports"),
    ".data/exports",
  ),
  EXPORT_JOB: flag("Run the export job in this instance (a child process at low priority). Off: only serve what EXPORT_DIR holds.", true),
  EXPORT_CHECK_MS: ms("How often the export job looks for days to write.", 60_000, 1000),
  EXPORT_PARTIAL_MINUTES: int("The current UTC day's files are written again at most this often, minutes.", 15, 1, 1440),
  EXPORT_SINCE: {
    schema: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    type: "a day, YYYY-MM-DD",
    fallback: "(the first trade's day)",
    description: "The first UTC day the export job writes.",
  },
  EXPORT_RATE_LIMIT_MBPS: num("Export file bytes per second per client, sustained, MB (with RATE_LIMIT).", 20, "> 0"),
  EXPORT_RATE_LIMIT_BURST_MB: num("Export file bytes a client may download at once, MB.", 200, "> 0"),
  REALTIME_PUSH_BOOK: flag("An orderbook signal for one outcome carries its book.", true),
  REALTIME_COALESCE_MS: ms("At most one signal per channel per this many ms (the last change always gets one).", 150),
  REALTIME_HEARTBEAT_MS: ms("The LISTEN connection pings itself this often; silent for three pings, it reconnects.", 5000, 1),
  REALTIME_RETRY_MIN_MS: ms("First delay before the LISTEN connection reconnects (doubling).", 500, 1),
  REALTIME_RETRY_MAX_MS: ms("Longest delay between LISTEN reconnects.", 5000, 1),
  REALTIME_SLUG_MISS_MS: ms("How long a join remembers that a slug does not exist.", 5000),
  REALTIME_CHANNEL_HEARTBEAT_MS: ms("Every joined channel hears a heartbeat at least this often unless a signal went out (0: none).", 5000),
  STREAM_MAX_PER_CLIENT: int(
    "Server-sent event streams (GET /v1/stream) one client address may hold at once on an instance (429 past it). Raise it for clients behind one address that is not a trusted proxy, or for a load test from one machine.",
    10,
    1,
  ),
  INSTANCE_NAME: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,32}$/)
      .optional(),
    type: "1–32 of A-Z a-z 0-9 _ -",
    fallback: "(none)",
    description: "This instance's name behind a load balancer: Engine.IO session ids start with it (docs/deploy.md).",
  },
} satisfies Record<string, Variable<unknown>>;

/** Variables that only tests and scripts read (never the server): for the README. */
export const SCRIPT_VARIABLES: Record<string, string> = {
  TEST_PORT: "port of the test server Playwright starts (default 3210)",
  TEST_DEV: "1: the specs run against the dev server",
  PW_REUSE_SERVER: "1: Playwright reuses a test server already running",
  CI: "set: Playwright retries a failed spec once",
  DEMO: "1: run the demo flow (npm run demo)",
  FUZZ_SEED: "seed of the /v1 fuzz spec",
  FUZZ_REQUESTS: "requests the fuzz spec sends",
  BASE_URL: "server the benchmarks measure",
  BENCH_URL: "server(s) of bench:web, comma-separated",
  BENCH_RUNS: "cold loads per page of bench:web",
  BENCH_DURATION: "seconds per endpoint of bench:api",
  BENCH_CONNECTIONS: "connections of bench:api",
  APP_URL: "the app's URL for bench:compare",
  APP_PID: "the app's pid for bench:compare's CPU figures",
  DETAIL_SECONDS: "seconds per endpoint and mode of bench:compare --detail (default 10)",
  DETAIL_ROUNDS: "rounds of bench:compare --detail (default 2)",
  BENCH_DEEP_OFFSET: "offset of bench:compare's deep mix (default 20000)",
  BENCH_WIDE_MAX_OFFSET: "largest offset of bench:compare's wide mix (default 4000)",
  BENCH_WIDE_SEED: "shuffle seed of bench:compare's wide mix (default 7)",
  CLUSTER_PORT: "HAProxy's port of npm run cluster (default 8080)",
  CLUSTER_DIR: "data directory of npm run cluster",
  PG_BIN: "PostgreSQL binaries of npm run cluster",
  HAPROXY_BIN: "HAProxy binary of npm run cluster",
};

type Variables = typeof VARIABLES;
export type Config = { readonly [K in keyof Variables]: Variables[K] extends Variable<infer T> ? T : never };

/** A variable with a bad value: the message names it, its value and what it takes. */
export class ConfigError extends Error {
  static readonly errorName = "ConfigError";
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = ConfigError.errorName;
  }
}

/** Parses and validates `env`; throws a ConfigError naming every bad variable. Empty counts as unset. */
export function parseConfig(env: Record<string, string | undefined> = process.env): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(VARIABLES) as [string, Variable<unknown>][]) {
    const raw = env[name] === "" ? undefined : env[name];
    const parsed = variable.schema.safeParse(raw);
    if (parsed.success) out[name] = parsed.data;
    else problems.push(`${name}=${JSON.stringify(raw)} is not valid: expected ${variable.type}`);
  }
  if (problems.length) throw new ConfigError(problems);
  return out as Config;
}

/** The process's configuration, parsed on first use (tests set the environment before, or call resetConfig). */
export function config(): Config {
  return shared("config", () => parseConfig());
}

/** Forgets the parsed configuration: the next config() reads the environment again. */
export function resetConfig(): void {
  dropShared("config");
}

/** Points the process (and the processes it starts) at a database: the embedded cluster's URL once it runs. */
export function setDatabaseUrl(url: string): void {
  process.env.DATABASE_URL = url;
  resetConfig();
}

// ------------------------------------------------------------------ README

export const README_BEGIN = "<!-- config:begin (generated from lib/config.ts by npm run docs:config; do not edit) -->";
export const README_END = "<!-- config:end -->";

/** The README's configuration section, as lib/config.ts declares it. */
export function configMarkdown(): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const rows = Object.entries(VARIABLES as Record<string, Variable<unknown>>).map(
    ([name, v]) => `| \`${name}\` | ${cell(v.type)} | ${cell(v.fallback)} | ${cell(v.description)} |`,
  );
  const scripts = Object.entries(SCRIPT_VARIABLES).map(([name, what]) => `\`${name}\` ${what}`);
  return [
    README_BEGIN,
    "| variable | value | default | what it does |",
    "|---|---|---|---|",
    ...rows,
    "",
    `Read by tests and scripts only, never by the server: ${scripts.join("; ")}.`,
    README_END,
  ].join("\n");
}

/** `readme` with its configuration section replaced by what configMarkdown() makes. */
export function withConfigSection(readme: string): string {
  const begin = readme.indexOf(README_BEGIN);
  const end = readme.indexOf(README_END);
  if (begin < 0 || end < begin) throw new Error(`README.md has no ${README_BEGIN} … ${README_END} section`);
  return readme.slice(0, begin) + configMarkdown() + readme.slice(end + README_END.length);
}
