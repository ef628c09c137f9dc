// The import of docs/import.md: validate a whole file (shape, then cross-row references against the
// file and the database), then upsert it in one transaction and refresh the derived columns.
import type { ZodError } from "zod";
import { liftBounds } from "../db/bounds";
import type { Sql } from "../db/client";
import { vacuumAnalyze } from "../db/vacuum";
import { type ImportFile, importFileSchema } from "../markets/import-schemas";
import { MARKET_FILE_TYPES, OUTCOME_FILE_TYPES } from "../markets/rows";

// ------------------------------------------------------------------------------------ messages

/** `markets[3].outcomes[1].side` from ["markets", 3, "outcomes", 1, "side"]. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else {
      const name = String(key);
      out += /^[A-Za-z_$][\w$]*$/.test(name) ? (out ? `.${name}` : name) : `[${JSON.stringify(name)}]`;
    }
  }
  return out || "(root)";
}

/** The first zod issue as `<json path>: <message>`. */
export function firstIssue(error: ZodError): string {
  const issue = error.issues[0];
  if (issue.code === "unrecognized_keys") return `${formatPath([...issue.path, issue.keys[0]])}: unknown key`;
  // A missing key reads better as "is required" than as the type the schema expected.
  if (issue.code === "invalid_type" && "input" in issue && issue.input === undefined) return `${formatPath(issue.path)}: is required`;
  return `${formatPath(issue.path)}: ${issue.message}`;
}

export type Validation = { ok: true; file: ImportFile } | { ok: false; error: string };

/** Shape and row-local rules only (pure). */
export function parseImportFile(data: unknown): Validation {
  const r = importFileSchema.safeParse(data, { reportInput: true });
  return r.success ? { ok: true, file: r.data } : { ok: false, error: firstIssue(r.error) };
}

// ------------------------------------------------------------------------------------ references

/** What the database already holds of the ids a file references but does not define. */
export interface ExistingRows {
  users: Set<string>;
  markets: Map<string, { external_source: string | null }>;
  outcomes: Map<string, { market_id: string; external_source: string | null }>;
  comments: Map<string, { market_id: string }>;
}

export const noExistingRows = (): ExistingRows => ({ users: new Set(), markets: new Map(), outcomes: new Map(), comments: new Map() });

interface FileIndex {
  users: Set<string>;
  markets: Map<string, { external_source: string | null; outcomes: Set<string>; comments: Set<string> }>;
  outcomes: Map<string, string>; // outcome → market
  comments: Map<string, string>; // comment → market
}

function indexFile(file: ImportFile): FileIndex {
  const idx: FileIndex = { users: new Set(), markets: new Map(), outcomes: new Map(), comments: new Map() };
  for (const u of file.users) idx.users.add(u.id);
  for (const m of file.markets) {
    idx.markets.set(m.id, {
      external_source: m.external_source,
      outcomes: new Set(m.outcomes.map((o) => o.id)),
      comments: new Set(m.comments.map((c) => c.id)),
    });
    for (const o of m.outcomes) idx.outcomes.set(o.id, m.id);
    for (const c of m.comments) idx.comments.set(c.id, m.id);
  }
  return idx;
}

/** Ids the file references but does not define: these must exist in the database. */
export function externalReferences(file: ImportFile) {
  const idx = indexFile(file);
  const users = new Set<string>();
  const markets = new Set<string>();
  const outcomes = new Set<string>();
  const comments = new Set<string>();
  const user = (id: string | null | undefined) => id && !idx.users.has(id) && users.add(id);
  const market = (id: string) => !idx.markets.has(id) && markets.add(id);
  const outcome = (id: string | null) => id && !idx.outcomes.has(id) && outcomes.add(id);
  for (const m of file.markets) {
    user(m.creator_id);
    outcome(m.winning_outcome_id);
    for (const c of m.comments) {
      user(c.user_id);
      if (c.parent_id && !idx.comments.has(c.parent_id)) comments.add(c.parent_id);
    }
  }
  for (const o of file.orders) market(o.market_id), outcome(o.outcome_id), user(o.user_id);
  for (const t of file.trades) market(t.market_id), outcome(t.outcome_id), user(t.maker_user_id), user(t.taker_user_id);
  for (const b of file.external_books) outcome(b.outcome_id);
  return { users: [...users], markets: [...markets], outcomes: [...outcomes], comments: [...comments] };
}

export async function lookupExisting(sql: Sql, file: ImportFile): Promise<ExistingRows> {
  const refs = externalReferences(file);
  const existing = noExistingRows();
  if (refs.users.length) for (const r of await sql<{ id: string }[]>`SELECT id FROM users WHERE id = ANY(${refs.users}::uuid[])`) existing.users.add(r.id);
  if (refs.markets.length)
    for (const r of await sql<
      { id: string; external_source: string | null }[]
    >`SELECT id, external_source FROM markets WHERE id = ANY(${refs.markets}::uuid[])`)
      existing.markets.set(r.id, { external_source: r.external_source });
  if (refs.outcomes.length)
    for (const r of await sql<{ id: string; market_id: string; external_source: string | null }[]>`
      SELECT o.id, o.market_id, m.external_source FROM outcomes o JOIN markets m ON m.id = o.market_id WHERE o.id = ANY(${refs.outcomes}::uuid[])`)
      existing.outcomes.set(r.id, { market_id: r.market_id, external_source: r.external_source });
  if (refs.comments.length)
    for (const r of await sql<{ id: string; market_id: string }[]>`SELECT id, market_id FROM comments WHERE id = ANY(${refs.comments}::uuid[])`)
      existing.comments.set(r.id, { market_id: r.market_id });
  return existing;
}

/**
 * Cross-row rules (pure): unique ids and slugs within the file, references that resolve in the
 * file or the database, outcomes of the right market, replies within one market, books only for
 * mirrored markets. Returns the first violation as `<json path>: <message>`, in document order.
 */
export function crossCheck(file: ImportFile, existing: ExistingRows): string | null {
  const idx = indexFile(file);
  const seen = new Map<string, string>();
  const unique = (kind: string, key: string, path: string) => {
    const k = `${kind}:${key}`;
    const first = seen.get(k);
    if (first) return `${path}: duplicate ${kind} ${JSON.stringify(key)} (first at ${first})`;
    seen.set(k, path);
    return null;
  };
  const userKnown = (id: string) => idx.users.has(id) || existing.users.has(id);
  const marketOf = (outcomeId: string) => idx.outcomes.get(outcomeId) ?? existing.outcomes.get(outcomeId)?.market_id;
  const marketKnown = (id: string) => idx.markets.has(id) || existing.markets.has(id);

  for (const [i, u] of file.users.entries()) {
    const e = unique("user id", u.id, `users[${i}].id`) ?? unique("username", u.username, `users[${i}].username`);
    if (e) return e;
  }
  for (const [i, m] of file.markets.entries()) {
    const at = `markets[${i}]`;
    const e = unique("market id", m.id, `${at}.id`) ?? unique("slug", m.slug, `${at}.slug`);
    if (e) return e;
    if (m.creator_id && !userKnown(m.creator_id)) return `${at}.creator_id: unknown user ${m.creator_id}`;
    const indexes = new Set<number>();
    for (const [k, o] of m.outcomes.entries()) {
      const e = unique("outcome id", o.id, `${at}.outcomes[${k}].id`);
      if (e) return e;
      if (o.market_id !== undefined && o.market_id !== m.id) return `${at}.outcomes[${k}].market_id: must be the id of its market (${m.id})`;
      if (indexes.has(o.index)) return `${at}.outcomes[${k}].index: duplicate index ${o.index} within the market`;
      indexes.add(o.index);
    }
    if (m.winning_outcome_id && !idx.markets.get(m.id)!.outcomes.has(m.winning_outcome_id) && existing.outcomes.get(m.winning_outcome_id)?.market_id !== m.id)
      return `${at}.winning_outcome_id: not an outcome of this market`;
    for (const [k, c] of m.comments.entries()) {
      const cp = `${at}.comments[${k}]`;
      const e = unique("comment id", c.id, `${cp}.id`);
      if (e) return e;
      if (!userKnown(c.user_id)) return `${cp}.user_id: unknown user ${c.user_id}`;
      if (c.parent_id) {
        if (c.parent_id === c.id) return `${cp}.parent_id: a comment cannot reply to itself`;
        const parentMarket = idx.comments.get(c.parent_id) ?? existing.comments.get(c.parent_id)?.market_id;
        if (!parentMarket) return `${cp}.parent_id: unknown comment ${c.parent_id}`;
        if (parentMarket !== m.id) return `${cp}.parent_id: the parent comment belongs to another market`;
      }
    }
  }
  const fill = (kind: "orders" | "trades", i: number, r: { id: string; market_id: string; outcome_id: string }) => {
    const at = `${kind}[${i}]`;
    const e = unique(kind === "orders" ? "order id" : "trade id", r.id, `${at}.id`);
    if (e) return e;
    if (!marketKnown(r.market_id)) return `${at}.market_id: unknown market ${r.market_id}`;
    const om = marketOf(r.outcome_id);
    if (!om) return `${at}.outcome_id: unknown outcome ${r.outcome_id}`;
    if (om !== r.market_id) return `${at}.outcome_id: outcome does not belong to market ${r.market_id}`;
    return null;
  };
  for (const [i, o] of file.orders.entries()) {
    const e = fill("orders", i, o) ?? (userKnown(o.user_id) ? null : `orders[${i}].user_id: unknown user ${o.user_id}`);
    if (e) return e;
  }
  for (const [i, t] of file.trades.entries()) {
    const e = fill("trades", i, t);
    if (e) return e;
    if (t.maker_user_id && !userKnown(t.maker_user_id)) return `trades[${i}].maker_user_id: unknown user ${t.maker_user_id}`;
    if (t.taker_user_id && !userKnown(t.taker_user_id)) return `trades[${i}].taker_user_id: unknown user ${t.taker_user_id}`;
  }
  for (const [i, b] of file.external_books.entries()) {
    const at = `external_books[${i}]`;
    const e = unique("book outcome", b.outcome_id, `${at}.outcome_id`);
    if (e) return e;
    const fileMarket = idx.outcomes.get(b.outcome_id);
    const source = fileMarket ? idx.markets.get(fileMarket)!.external_source : existing.outcomes.get(b.outcome_id)?.external_source;
    if (source === undefined) return `${at}.outcome_id: unknown outcome ${b.outcome_id}`;
    if (source === null) return `${at}.outcome_id: the market of this outcome is not mirrored (external_source is null)`;
  }
  return null;
}

/** Full validation: shape, then cross-row references against the file and the database. */
export async function validateImport(sql: Sql, data: unknown): Promise<Validation> {
  const parsed = parseImportFile(data);
  if (!parsed.ok) return parsed;
  const error = crossCheck(parsed.file, await lookupExisting(sql, parsed.file));
  return error ? { ok: false, error } : parsed;
}

// ------------------------------------------------------------------------------------ writing

export class ImportError extends Error {}

type Stamp = "file" | "optional" | "derived" | "none";
interface TableSpec {
  table: string;
  key: string;
  /** Column → type as declared to jsonb_to_recordset. */
  cols: Record<string, string>;
  created: Stamp;
  updated: Stamp;
}

const TABLES = {
  users: { table: "users", key: "id", cols: { id: "uuid", username: "text", profile_image_url: "text" }, created: "derived", updated: "none" },
  markets: {
    table: "markets",
    key: "id",
    cols: MARKET_FILE_TYPES,
    created: "file",
    updated: "file",
  },
  outcomes: {
    table: "outcomes",
    key: "id",
    cols: OUTCOME_FILE_TYPES,
    created: "optional",
    updated: "optional",
  },
  comments: {
    table: "comments",
    key: "id",
    cols: { id: "uuid", market_id: "uuid", user_id: "uuid", content: "text", parent_id: "uuid", likes_count: "integer" },
    created: "file",
    updated: "derived",
  },
  orders: {
    table: "orders",
    key: "id",
    cols: {
      id: "uuid",
      market_id: "uuid",
      outcome_id: "uuid",
      user_id: "uuid",
      side: "order_side",
      type: "order_type",
      price: "numeric",
      shares: "numeric",
      filled_shares: "numeric",
      status: "order_status",
    },
    created: "file",
    updated: "derived",
  },
  trades: {
    table: "trades",
    key: "id",
    cols: {
      id: "uuid",
      market_id: "uuid",
      outcome_id: "uuid",
      price: "numeric",
      shares: "numeric",
      maker_user_id: "uuid",
      taker_user_id: "uuid",
      executed_at: "timestamptz",
    },
    created: "none",
    updated: "none",
  },
  external_books: { table: "external_books", key: "outcome_id", cols: { outcome_id: "uuid", bids: "jsonb", asks: "jsonb" }, created: "none", updated: "file" },
} satisfies Record<string, TableSpec>;

type TableName = keyof typeof TABLES;

const q = (id: string) => `"${id}"`;

/**
 * One upsert per batch: rows arrive as one jsonb parameter (no bind-parameter limit, types declared
 * once), existing rows are joined so omitted timestamps keep their stored values, and an unchanged
 * row is not written at all: importing the same file again changes nothing, not even updated_at.
 */
function upsertSql(spec: TableSpec): string {
  const cols = Object.keys(spec.cols);
  const recordCols = cols.map((c) => `${q(c)} ${spec.cols[c]}`);
  if (spec.created === "file" || spec.created === "optional") recordCols.push(`"created_at" timestamptz`);
  if (spec.updated === "file" || spec.updated === "optional") recordCols.push(`"updated_at" timestamptz`);
  const same = `(e.${q(spec.key)} IS NOT NULL AND (${cols.map((c) => `e.${q(c)}`).join(", ")}) IS NOT DISTINCT FROM (${cols.map((c) => `x.${q(c)}`).join(", ")}))`;
  const target = [...cols];
  const values = cols.map((c) => `x.${q(c)}`);
  const created = { file: "x.created_at", optional: "coalesce(x.created_at, e.created_at, now())", derived: "coalesce(e.created_at, now())", none: null }[
    spec.created
  ];
  const updated = {
    file: "x.updated_at",
    optional: `coalesce(x.updated_at, CASE WHEN ${same} THEN e.updated_at END, now())`,
    derived: `CASE WHEN ${same} THEN e.updated_at ELSE now() END`,
    none: null,
  }[spec.updated];
  if (created) target.push("created_at"), values.push(created);
  if (updated) target.push("updated_at"), values.push(updated);
  const assigned = target.filter((c) => c !== spec.key);
  return `INSERT INTO ${q(spec.table)} AS t (${target.map(q).join(", ")})
SELECT ${values.join(", ")}
  FROM jsonb_to_recordset($1::text::jsonb) AS x(${recordCols.join(", ")})
  LEFT JOIN ${q(spec.table)} e ON e.${q(spec.key)} = x.${q(spec.key)}
ON CONFLICT (${q(spec.key)}) DO UPDATE SET ${assigned.map((c) => `${q(c)} = EXCLUDED.${q(c)}`).join(", ")}
 WHERE (${assigned.map((c) => `t.${q(c)}`).join(", ")}) IS DISTINCT FROM (${assigned.map((c) => `EXCLUDED.${q(c)}`).join(", ")})`;
}

const UPSERT_SQL = Object.fromEntries(Object.entries(TABLES).map(([name, spec]) => [name, upsertSql(spec)])) as Record<TableName, string>;

/** The rows of each table, FK-safe order (deferred constraints cover winners and replies). */
export function importRows(file: ImportFile): Record<TableName, Record<string, unknown>[]> {
  return {
    users: file.users,
    markets: file.markets.map(({ outcomes: _o, comments: _c, ...m }) => ({
      ...m,
      creator_id: m.creator_id ?? null,
      external_market_id: m.external_market_id ?? null,
      price_market: m.price_market ?? null,
      predict_market: m.predict_market ?? null,
    })),
    outcomes: file.markets.flatMap((m) => m.outcomes.map((o) => ({ ...o, market_id: m.id }))),
    comments: file.markets.flatMap((m) => m.comments.map((c) => ({ ...c, market_id: m.id }))),
    orders: file.orders,
    trades: file.trades,
    external_books: file.external_books,
  };
}

export interface ImportOptions {
  /** Rows written so far, out of all rows of the file. */
  onProgress?: (done: number, total: number) => void;
  batchSize?: number;
}

export type ImportSummary = Record<TableName, number> & { markets_touched: number; ms: number };

/** Describes a PostgreSQL error for an operator: message, detail and where. */
function describeDbError(err: unknown, table: string): string {
  const e = err as { message?: string; detail?: string; constraint_name?: string; table_name?: string };
  const where = e.table_name ?? table;
  return `database rejected the file while writing ${where}: ${e.message ?? String(err)}${e.detail ? ` (${e.detail})` : ""}`;
}

/** Imports wait for each other under this transaction-level advisory lock (migrations use 727274). */
const IMPORT_LOCK = 727275;
/** deadlock_detected and serialization_failure: the transaction was rolled back whole and may simply run again. */
const RETRYABLE = new Set(["40P01", "40001"]);
const ATTEMPTS = 3;

/**
 * Validates `data` completely, then writes it in one transaction; throws ImportError on any failure.
 * Concurrent imports run one after another (an advisory lock), so two files sharing rows can neither
 * deadlock nor be checked against rows the other is still writing; a deadlock with another writer
 * (the simulator) rolls the file back whole and it is tried again.
 */
export async function importFile(sql: Sql, data: unknown, opts: ImportOptions = {}): Promise<ImportSummary> {
  const parsed = parseImportFile(data);
  if (!parsed.ok) throw new ImportError(parsed.error);
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeFile(sql, parsed.file, opts);
    } catch (err) {
      const code = ((err as Error).cause as { code?: unknown } | undefined)?.code;
      if (attempt >= ATTEMPTS || typeof code !== "string" || !RETRYABLE.has(code)) throw err;
    }
  }
}

async function writeFile(sql: Sql, file: ImportFile, opts: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const v = { file };
  const rows = importRows(v.file);
  const total = Object.values(rows).reduce((n, r) => n + r.length, 0);
  const size = opts.batchSize ?? 2000;
  let done = 0;
  let current = "";
  const touched = new Set<string>([...v.file.markets.map((m) => m.id), ...v.file.orders.map((o) => o.market_id), ...v.file.trades.map((t) => t.market_id)]);
  const outcomeMarket = new Map(rows.outcomes.map((o) => [o.id as string, o.market_id as string]));
  try {
    await sql.begin(async (tx) => {
      await liftBounds(tx); // a large file takes minutes, and it waits for other imports below
      await tx`SELECT pg_advisory_xact_lock(${IMPORT_LOCK})`;
      current = "validation";
      const error = crossCheck(file, await lookupExisting(tx as unknown as Sql, file));
      if (error) throw new ImportError(error);
      for (const name of Object.keys(TABLES) as TableName[]) {
        current = name;
        const list = rows[name];
        for (let i = 0; i < list.length; i += size) {
          await tx.unsafe(UPSERT_SQL[name], [JSON.stringify(list.slice(i, i + size))]);
          done += Math.min(size, list.length - i);
          opts.onProgress?.(done, total);
        }
      }
      current = "derived columns";
      const bookOutcomes = v.file.external_books.map((b) => b.outcome_id).filter((id) => !outcomeMarket.has(id));
      if (bookOutcomes.length)
        for (const r of await tx<{ market_id: string }[]>`SELECT DISTINCT market_id FROM outcomes WHERE id = ANY(${bookOutcomes}::uuid[])`)
          touched.add(r.market_id);
      for (const b of v.file.external_books) if (outcomeMarket.has(b.outcome_id)) touched.add(outcomeMarket.get(b.outcome_id)!);
      const ids = [...touched];
      await tx`SELECT refresh_market_derived(${ids}::uuid[])`;
      // Push channels signal through the NOTIFY triggers of migration 0002, delivered at commit.
    });
  } catch (err) {
    if (err instanceof ImportError) throw err;
    throw new ImportError(describeDbError(err, current), { cause: err });
  }
  const counts = Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, r.length])) as Record<TableName, number>;
  return { ...counts, markets_touched: touched.size, ms: Date.now() - started };
}

/** Every table an import writes, directly or through the triggers of the derived values. */
const WRITTEN_TABLES = [...Object.values(TABLES).map((t) => t.table), "market_counts", "market_traders", "candles"];

/** VACUUM (ANALYZE) after imports (outside their transactions), so index-only scans work at once. */
export async function vacuumAfterImport(sql: Sql): Promise<void> {
  await vacuumAnalyze(sql, WRITTEN_TABLES);
}
