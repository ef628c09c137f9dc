// Book versions and past books (docs/api.md "Book versions", "Past books"; migration 0011). Every version
// of a book is recorded in book_changes; a whole book is in book_snapshots every BOOK_SNAPSHOT_EVERY
// versions, so a past book is one snapshot and fewer than that many changes, read in one statement.
import "server-only";
import { readDb } from "@/lib/db/client";
import { bookChecksum } from "../book-checksum";
import { type BookChange, changeOf, rebuildBook } from "../book-log";
import { BookNotRecorded } from "../errors";
import type { OrderBook } from "../schemas";
import type { VersionedBook } from "./books";
import type { MarketKey, Sql } from "./fragments";
import { resolveOutcome } from "./resolve";

/** A past book: the book, the version in force at the asked time, that version's time, whether it can still change. */
export interface PastBook extends VersionedBook {
  /** ISO 8601 with microseconds, UTC; null for version 0 (the book was empty and never changed). */
  versionAt: string | null;
  /** True when a later version exists: nothing committed later can change this answer. */
  final: boolean;
}

export interface BookChangesPage {
  changes: BookChange[];
  next_version: number | null;
}

/** Must match book_snapshot_every() in migration 0011. */
export const BOOK_SNAPSHOT_EVERY = 200;

/** A time as the log prints it: ISO 8601 in UTC with microseconds. */
const isoMicros = (sql: Sql, column: string) => sql.unsafe(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

/**
 * Unix seconds with up to six decimals (a validated string) as an ISO timestamp PostgreSQL reads exactly.
 * Sent as text (`::text::timestamptz`): postgres.js serialises a timestamptz parameter through Date, to the ms.
 */
export function isoOfUnix(ts: string): string {
  const [sec, frac = ""] = ts.split(".");
  const base = new Date(Number(sec) * 1000).toISOString().slice(0, 19);
  return `${base}.${frac.padEnd(6, "0")}Z`;
}

/** The versions of every outcome of a market, by outcome id (0: never changed): what book heartbeats carry. */
export async function getBookVersions(params: { slug: string }): Promise<Record<string, number>> {
  const sql = await readDb();
  const rows = await sql<{ id: string; version: number }[]>`
    SELECT oc.id, coalesce(h.version, 0)::float8 AS version
      FROM markets m JOIN outcomes oc ON oc.market_id = m.id LEFT JOIN book_heads h ON h.outcome_id = oc.id
     WHERE m.slug = ${params.slug}`;
  return Object.fromEntries(rows.map((r) => [r.id, r.version]));
}

/** The book of one outcome as it was at `ts` (unix seconds, up to six decimals), with the version then in force. */
export async function getBookAt(params: MarketKey & { outcomeId: string; ts: string }): Promise<PastBook> {
  const o = await resolveOutcome(params, params.outcomeId);
  const sql = await readDb();
  const at = isoOfUnix(params.ts);
  const id = o.outcome_id;
  type Row = { k: "h" | "s" | "d" | "n" | "l"; version: number | null; at: string | null; le: boolean | null; replace: boolean | null; levels: string | null };
  const rows = await sql<Row[]>`
    WITH h AS (SELECT version, changed_at FROM book_heads WHERE outcome_id = ${id}),
    s AS (SELECT version, at, version_at, levels FROM book_snapshots
           WHERE outcome_id = ${id} AND at <= ${at}::text::timestamptz ORDER BY at DESC, version DESC LIMIT 1),
    d AS (SELECT c.version, c.at, c.replace, c.levels FROM book_changes c, s
           WHERE c.outcome_id = ${id} AND c.version > s.version AND c.version < s.version + ${BOOK_SNAPSHOT_EVERY} AND c.at <= ${at}::text::timestamptz),
    n AS (SELECT c.version, c.at FROM book_changes c
           WHERE c.outcome_id = ${id} AND c.version > coalesce((SELECT max(version) FROM d), (SELECT version FROM s), 0)
           ORDER BY c.version LIMIT 1)
    SELECT 'h' AS k, version::float8 AS version, ${isoMicros(sql, "changed_at")} AS at, changed_at <= ${at}::text::timestamptz AS le, NULL::boolean AS replace,
           CASE WHEN changed_at <= ${at}::text::timestamptz THEN (SELECT coalesce(served, book_levels_text(${id})) FROM book_heads WHERE outcome_id = ${id}) END AS levels
      FROM h
    UNION ALL SELECT 's', version::float8, ${isoMicros(sql, "version_at")}, NULL, NULL, levels FROM s
    UNION ALL SELECT 'd', version::float8, ${isoMicros(sql, "at")}, NULL, replace, levels FROM d
    UNION ALL SELECT 'n', version::float8, NULL, NULL, NULL, NULL FROM n
    UNION ALL SELECT 'l', NULL, NULL, started_at <= ${at}::text::timestamptz, NULL, NULL FROM book_log_state`;
  const head = rows.find((r) => r.k === "h");
  const snapshot = rows.find((r) => r.k === "s");
  const deltas = rows.filter((r) => r.k === "d").sort((x, y) => x.version! - y.version!);
  const next = rows.find((r) => r.k === "n");
  const logStarted = rows.find((r) => r.k === "l")?.le ?? false;
  const notRecorded = () => new BookNotRecorded(`The book of this outcome is not recorded at ${params.ts}`);
  const answer = (sides: { bids: OrderBook["bids"]; asks: OrderBook["asks"] }, version: number, versionAt: string | null, final: boolean): PastBook => {
    const book: OrderBook = { outcome_id: id, outcome_side: `${o.name} - ${o.side}`, bids: sides.bids, asks: sides.asks };
    return { book, version, checksum: bookChecksum(book), versionAt, final };
  };
  // Unchanged since before ts: the current book, which a write committed later may still supersede.
  if (head?.le) return answer(rebuildBook(head.levels ?? "", []), head.version!, head.at, false);
  if (snapshot) {
    let version = snapshot.version!;
    let versionAt = snapshot.at;
    for (const d of deltas) {
      if (d.version !== version + 1) throw notRecorded();
      version = d.version;
      versionAt = d.at;
    }
    // The next version must be recorded too, or ts may fall in a stretch the log did not see.
    if (next ? next.version !== version + 1 : (head?.version ?? 0) !== version) throw notRecorded();
    return answer(rebuildBook(snapshot.levels ?? "", deltas as { replace: boolean; levels: string }[]), version, versionAt, true);
  }
  // Before the first version: an empty book, if the log was running then and saw every version since.
  if (logStarted && (next ? next.version === 1 : (head?.version ?? 0) === 0)) return answer({ bids: [], asks: [] }, 0, null, head !== undefined);
  throw notRecorded();
}

/**
 * One page of an outcome's changes in version order, from `fromVersion` (inclusive) or from the first
 * version at or after `startTs`, up to `endTs`; `next_version` continues, null when the range is read.
 */
export async function getBookChanges(
  params: MarketKey & { outcomeId: string; fromVersion?: number; startTs?: string; endTs?: string; limit: number },
): Promise<BookChangesPage> {
  const o = await resolveOutcome(params, params.outcomeId);
  const sql = await readDb();
  const id = o.outcome_id;
  const end = params.endTs === undefined ? sql`` : sql`AND c.at <= ${isoOfUnix(params.endTs)}::text::timestamptz`;
  const from =
    params.fromVersion !== undefined
      ? sql`${params.fromVersion}::bigint`
      : sql`(SELECT coalesce(min(c.version), 9223372036854775807) FROM book_changes c, s
              WHERE c.outcome_id = ${id} AND c.version > s.v AND c.version <= s.v + ${BOOK_SNAPSHOT_EVERY}
                AND c.at >= ${isoOfUnix(params.startTs ?? "0")}::text::timestamptz)`;
  type Row = { version: number; at: string; replace: boolean; levels: string; head: number };
  const rows = await sql<Row[]>`
    WITH s AS (SELECT coalesce((SELECT version FROM book_snapshots
                                 WHERE outcome_id = ${id} AND at < ${isoOfUnix(params.startTs ?? "0")}::text::timestamptz
                                 ORDER BY at DESC, version DESC LIMIT 1),
                               -- none before startTs (it is before the kept days): the oldest kept snapshot's
                               -- version, or the next, is the oldest kept change
                               (SELECT version - 1 FROM book_snapshots WHERE outcome_id = ${id} ORDER BY at, version LIMIT 1), 0) AS v),
    f AS (SELECT ${from} AS v)
    SELECT c.version::float8 AS version, ${isoMicros(sql, "c.at")} AS at, c.replace, c.levels,
           coalesce((SELECT version FROM book_heads WHERE outcome_id = ${id}), 0)::float8 AS head
      FROM book_changes c, f
     WHERE c.outcome_id = ${id} AND c.version >= f.v ${end}
     ORDER BY c.version LIMIT ${params.limit + 1}`;
  if (params.fromVersion !== undefined && rows.length && rows[0].version !== params.fromVersion) {
    throw new BookNotRecorded(`Changes of this book from version ${params.fromVersion} are not recorded (the oldest kept is ${rows[0].version})`);
  }
  // A page stops before a version the log did not see: asking for it is then the 404 above.
  const page: Row[] = [];
  for (const r of rows.slice(0, params.limit)) {
    if (page.length && r.version !== page[page.length - 1].version + 1) return { changes: page.map(changeOf), next_version: page[page.length - 1].version + 1 };
    page.push(r);
  }
  const more = rows.length > params.limit;
  return { changes: page.map(changeOf), next_version: more ? rows[params.limit].version : null };
}
