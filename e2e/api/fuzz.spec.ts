// A seeded fuzz of everything the server answers: /v1, pages, /docs, /healthz, /readyz, the internal
// route and Socket.IO joins, with hostile paths, queries, methods and headers. No answer is a 5xx, /v1
// errors always carry the error body, and nothing leaks (stack traces, SQL errors, connection strings).
// Deterministic: FUZZ_SEED=<n> replays a run (the seed is printed with any failure); FUZZ_REQUESTS sizes it.
import { expect, test } from "../fixtures";
import { connectClient, emitAck } from "../realtime-helpers";
import { errorBodySchema } from "@/lib/markets/schemas";
import { Rng } from "@/lib/seed/prng";
import { rawRequest, type RawResponse } from "../support/raw-http";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
const CONCURRENCY = 8;

const NASTY = [
  "",
  "'",
  '"',
  "%",
  "%%",
  "%E0%A4%A",
  "%00",
  "%0A",
  "%0d%0a",
  "%2e%2e",
  "..",
  ".",
  "%2f",
  "%2F..%2F",
  "%5c",
  "\\",
  "%C0%AF",
  "%FF",
  "%F0%9F%92%A5",
  "%E2%80%AE",
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e309",
  "0x10",
  "9".repeat(40),
  "-1",
  "1.5",
  "[]",
  "{}",
  "a".repeat(3000),
  "<script>alert(1)</script>",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "javascript:alert(1)",
  "' OR 1=1--",
  "1;DROP TABLE markets",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "${7*7}",
  "{{7*7}}",
  "%24%7B7*7%7D",
  "../../etc/passwd",
  "%u0041",
  "ACTIVE",
  "RESOLVED",
  "VOLUME",
  "TRENDING",
  "ASC",
  "20",
  "0",
  "100",
  "101",
  "1m",
  "1w",
  "4h",
];
const KEYS = [
  "status",
  "category",
  "subCategory",
  "q",
  "sortBy",
  "sortOrder",
  "limit",
  "offset",
  "outcomeId",
  "startTs",
  "endTs",
  "fidelity",
  "outcome",
  "page",
  "__proto__",
  "constructor",
  "__proto__[x]",
  "a[b]",
  "",
  "%",
  "%E0",
  "limit[]",
  "before",
  "after",
  "since",
  "outcomeIds",
  "interval",
  "ts",
  "fromVersion",
];
const METHODS: [string, number][] = [
  ["GET", 70],
  ["HEAD", 8],
  ["OPTIONS", 6],
  ["POST", 4],
  ["PUT", 2],
  ["DELETE", 2],
  ["PATCH", 2],
  ["TRACE", 3],
  ["PROPFIND", 1],
];
const ACCEPTS = [
  "application/json",
  "application/vnd.markets.camel+json",
  "application/vnd.markets.camel+json;q=abc",
  "text/html",
  "*/*",
  "",
  ";;;",
  "a/b, c/d;q=0",
];

/** Signs that an answer carries internals: stack frames, PostgreSQL errors, connection strings, Node error codes. */
const LEAKS = [
  /\n\s+at [^\n]*:\d+:\d+/,
  /node_modules[\\/]/,
  /postgres(?:ql)?:\/\/[^\s"']*@/i,
  /syntax error at or near/i,
  /invalid input syntax for/i,
  /relation "[^"]+" does not exist/i,
  /PostgresError/,
  /\bE(?:CONNREFUSED|CONNRESET|ADDRINUSE)\b/,
  /\bTypeError\b|\bReferenceError\b/,
];

interface Known {
  id: string;
  slug: string;
  outcomeId: string;
}

/** Node's client refuses bytes outside 0x21–0xff in a target: those are sent percent-encoded, the rest as written. */
const sendable = (s: string) => s.replace(/[^\x21-\x7e]|#/g, (c) => encodeURIComponent(c));

function piece(rng: Rng, known: Known): string {
  return rng.weighted<() => string>([
    [() => known.id, 3],
    [() => known.slug, 3],
    [() => `${rng.u32().toString(16).padStart(8, "0")}-0000-4000-8000-${rng.u32().toString(16).padStart(12, "0")}`, 2],
    [() => sendable(rng.pick(NASTY)), 6],
    [() => encodeURIComponent(rng.pick(NASTY)), 3],
  ])();
}

function query(rng: Rng, known: Known): string {
  if (rng.chance(0.3)) return "";
  const parts: string[] = [];
  for (let i = rng.int(1, 5); i > 0; i--) {
    const key = rng.pick(KEYS);
    const value = rng.weighted<() => string>([
      [() => sendable(rng.pick(NASTY)), 5],
      [() => known.outcomeId, 2],
      [() => String(rng.int(-5, 2_000_000_000)), 2],
      // Lists for the batches, cursors for the tape: valid-looking, forged and broken.
      [
        () =>
          Array.from({ length: rng.int(1, 60) }, () => rng.pick([known.outcomeId, `${known.outcomeId.slice(0, -1)}0`, sendable(rng.pick(NASTY))])).join(","),
        1,
      ],
      [() => rng.pick(["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "________________________________", "f".repeat(32), "AAZhClkDxzhxW5KDAABChIAAHNcRP_p_"]), 1],
    ])();
    parts.push(rng.chance(0.1) ? key : `${sendable(key)}=${value}`);
  }
  return `?${parts.join(rng.chance(0.05) ? "&&" : "&")}`;
}

function target(rng: Rng, known: Known): string {
  const p = () => piece(rng, known);
  let path = rng.weighted<() => string>([
    [() => "/v1/markets", 8],
    [() => "/v1/markets/changes", 2],
    [() => `/v1/markets/${p()}`, 6],
    [() => `/v1/markets/slug/${p()}`, 5],
    [() => `/v1/markets/${p()}/${rng.pick(["orderbook", "prices-history", "candles"])}`, 6],
    [() => `/v1/markets/slug/${p()}/${rng.pick(["orderbook", "prices-history", "candles"])}`, 6],
    [() => `/v1/markets/${p()}/trades`, 3],
    [() => `/v1/markets/slug/${p()}/trades`, 2],
    [() => `/v1/markets/${p()}/orderbook/${rng.pick(["at", "changes"])}`, 3],
    [() => `/v1/markets/slug/${p()}/orderbook/${rng.pick(["at", "changes"])}`, 2],
    [() => rng.pick(["/v1/orderbooks", "/v1/prices-history", "/v1/candles"]), 3],
    [() => "/v1/openapi.json", 1],
    [() => `/v1/${p()}`, 3],
    [() => `/v1/${p()}/${p()}/${p()}`, 2],
    [() => "/", 3],
    [() => `/markets/${p()}`, 5],
    [() => "/docs", 1],
    [() => `/docs/${p()}`, 1],
    [() => "/healthz", 2],
    [() => "/readyz", 1],
    [() => `/${p()}`, 3],
    [() => `/_next/${p()}`, 1],
    [() => `/${p()}/../v1/markets`, 1],
  ])();
  if (rng.chance(0.05)) path += "/";
  if (rng.chance(0.03)) path = path.replace("/", "//");
  return path + query(rng, known);
}

function headers(rng: Rng): Record<string, string> {
  const h: Record<string, string> = {};
  if (rng.chance(0.5)) h.Accept = rng.pick(ACCEPTS);
  if (rng.chance(0.2)) h["If-None-Match"] = rng.pick(['W/"x"', "*", '"', "W/", ",,,", 'W/"a", "b"']);
  if (rng.chance(0.1)) h.Origin = rng.pick(["https://evil.example", "null", "%"]);
  if (rng.chance(0.1)) h["Access-Control-Request-Method"] = rng.pick(["GET", "POST", "TRACE"]);
  if (rng.chance(0.05)) h.RSC = "1";
  return h;
}

function problems(method: string, url: string, res: RawResponse): string[] {
  const out: string[] = [];
  // /readyz answers 503 by design while the database is slow to answer (a loaded machine): not an input's fault.
  if (res.status >= 500 && !(res.status === 503 && url.startsWith("/readyz"))) out.push(`status ${res.status}`);
  for (const re of LEAKS) if (re.test(res.body)) out.push(`leak ${re}`);
  if (url.startsWith("/v1") && res.status >= 400 && method !== "HEAD") {
    try {
      const body = errorBodySchema.parse(JSON.parse(res.body));
      if (body.statusCode !== res.status) out.push(`body statusCode ${body.statusCode}`);
    } catch {
      out.push("no error body");
    }
    if (!String(res.headers["content-type"]).startsWith("application/json")) out.push(`content-type ${res.headers["content-type"]}`);
  }
  if (res.status === 405 && !res.headers.allow) out.push("405 without Allow");
  return out;
}

test("fuzz – no input makes any route answer 5xx, /v1 errors carry the error body, nothing leaks", async ({ baseURL, sql }) => {
  test.setTimeout(300_000); // ~40 s on an idle 2-core machine; far longer when it is shared
  const [row] = await sql<Known[]>`SELECT m.id, m.slug, o.id AS "outcomeId" FROM markets m JOIN outcomes o ON o.market_id = m.id ORDER BY m.created_at LIMIT 1`;
  const rng = new Rng(SEED);
  const cases = Array.from({ length: REQUESTS }, () => ({ method: rng.weighted(METHODS), url: target(rng, row), headers: headers(rng) }));
  const failures: string[] = [];
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < cases.length) {
        const c = cases[next++];
        const res = await rawRequest(baseURL!, c.method, c.url, c.headers).catch((e: Error) => ({ status: 599, headers: {}, body: String(e.message) }));
        for (const p of problems(c.method, c.url, res))
          failures.push(`${p}: ${c.method} ${c.url.slice(0, 160)} ${JSON.stringify(c.headers)} → ${res.body.slice(0, 200)}`);
      }
    }),
  );
  console.log(`fuzz: ${REQUESTS} requests (seed ${SEED}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(failures.slice(0, 20), `FUZZ_SEED=${SEED}: ${failures.length} problem(s)`).toEqual([]);
  // Still healthy afterwards.
  expect((await rawRequest(baseURL!, "GET", "/v1/markets?limit=1")).status).toBe(200);
});

test("fuzz – Socket.IO joins and leaves with hostile payloads always ack, and the socket stays up", async ({ baseURL, sql }) => {
  test.setTimeout(120_000);
  const [{ slug }] = await sql<{ slug: string }[]>`SELECT slug FROM markets ORDER BY created_at LIMIT 1`;
  const rng = new Rng(SEED ^ 0x5eed);
  const payloads: (() => unknown)[] = [
    () => ({ channel: `market:${slug}:${rng.pick(["price", "orderbook", "trades", ""])}` }),
    () => ({ channel: `market:${rng.pick(NASTY)}:price` }),
    () => ({ channel: rng.pick(NASTY) }),
    () => ({ channel: rng.int(-1e9, 1e9) }),
    () => ({ channel: ["market:a:price"] }),
    () => ({ channel: { toString: "x" } }),
    () => ({ __proto__: { channel: `market:${slug}:price` } }),
    () => rng.pick<unknown>([null, 0, "", "market:x:price", [], true, "a".repeat(10_000)]), // under the 16 kB message cap
    () => ({ channel: `market:${"a".repeat(rng.int(100, 5000))}:price` }),
  ];
  const sockets = await Promise.all([0, 1, 2].map(() => connectClient(baseURL!)));
  const failures: string[] = [];
  try {
    for (let round = 0; round < 100; round++) {
      await Promise.all(
        sockets.map(async (s) => {
          const payload = rng.pick(payloads)();
          const event = rng.chance(0.8) ? "join" : "leave";
          const ack = await emitAck(s, event, payload).catch((e: Error) => ({ ok: "none", error: e.message }));
          if (typeof ack?.ok !== "boolean") failures.push(`${event} ${JSON.stringify(payload)?.slice(0, 120)} → ${JSON.stringify(ack)}`);
          else if (!ack.ok && LEAKS.some((re) => re.test(String(ack.error)))) failures.push(`leak in ${JSON.stringify(ack)}`);
        }),
      );
    }
    for (const s of sockets) expect(s.connected).toBe(true);
    expect(failures.slice(0, 20), `FUZZ_SEED=${SEED}: ${failures.length} problem(s)`).toEqual([]);
    expect(await emitAck(sockets[0], "join", { channel: `market:${slug}:price` })).toEqual({ ok: true });
  } finally {
    for (const s of sockets) s.disconnect();
  }
});
