// The bare target: the ceiling of an uncached node + SQL handler on this stack. node:http and postgres.js;
// GET /v1/markets runs one statement (targets/bare-sql.mjs) and writes its text out; no JSON is parsed or
// built in node. GET /health answers once the server listens.
//   DATABASE_URL=postgres://… PORT=4001 PG_POOL=10 node targets/bare.mjs
import http from "node:http";
import postgres from "postgres";
import { SORT_COLUMNS, listBody } from "./bare-sql.mjs";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("[bare] DATABASE_URL is required");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4001);
const pool = Number(process.env.PG_POOL ?? 10);
const sql = postgres(url, { max: pool, onnotice: () => {} });

const STATUSES = new Set(["ACTIVE", "RESOLVED", "CANCELLED"]);
const CATEGORIES = new Set(["CRYPTO", "SPORTS", "POLITICS", "ENTERTAINMENT", "SCIENCE", "FINANCE", "OTHER"]);
const PARAMETERS = new Set(["status", "category", "q", "sortBy", "sortOrder", "limit", "offset"]);

/** The request's list query with the app's defaults (docs/api.md "GET /v1/markets"), or the reason it is refused. */
function listQuery(params) {
  for (const name of params.keys()) if (!PARAMETERS.has(name)) return `the bare target does not offer ${name}`;
  const int = (name, fallback) => (params.has(name) ? Number(params.get(name)) : fallback);
  const query = {
    status: params.get("status") ?? "ACTIVE",
    category: params.get("category") ?? null,
    q: params.get("q") ?? null,
    sortBy: params.get("sortBy") ?? "CREATED",
    sortOrder: params.get("sortOrder") ?? "DESC",
    limit: int("limit", 20),
    offset: int("offset", 0),
  };
  if (!STATUSES.has(query.status)) return `bad status ${query.status}`;
  if (query.category !== null && !CATEGORIES.has(query.category)) return `bad category ${query.category}`;
  if (!(query.sortBy in SORT_COLUMNS)) return `the bare target does not offer sortBy=${query.sortBy}`;
  if (query.sortOrder !== "ASC" && query.sortOrder !== "DESC") return `bad sortOrder ${query.sortOrder}`;
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 100) return "limit must be an integer 1..100";
  if (!Number.isInteger(query.offset) || query.offset < 0) return "offset must be an integer >= 0";
  return query;
}

function send(res, status, body, type = "application/json; charset=utf-8") {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}

const server = http.createServer(async (req, res) => {
  try {
    const { pathname, searchParams } = new URL(req.url ?? "/", "http://bare");
    if (req.method === "GET" && pathname === "/health") return send(res, 200, "ok", "text/plain");
    if (req.method !== "GET" || pathname !== "/v1/markets") return send(res, 404, '{"message":"not found"}');
    const query = listQuery(searchParams);
    if (typeof query === "string") return send(res, 400, JSON.stringify({ message: query }));
    send(res, 200, await listBody(sql, query));
  } catch (err) {
    console.error("[bare]", err);
    if (!res.headersSent) send(res, 500, '{"message":"internal"}');
    else res.end();
  }
});
// Longer than autocannon's idle gaps, so the connections of one slot stay open through it.
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => console.error(`[bare] http://127.0.0.1:${port}/v1/markets (pool ${pool})`));

const stop = () => {
  server.close(() => sql.end({ timeout: 2 }).then(() => process.exit(0)));
  server.closeAllConnections();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
