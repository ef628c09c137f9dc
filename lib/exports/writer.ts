// Writes one dataset's file of one UTC day (docs/api.md "Exports"). PostgreSQL streams the day out (COPY …
// TO STDOUT as CSV, through a named pipe under EXPORT_DIR/.tmp; the markets snapshot as JSON lines into a
// file there) with backpressure, DuckDB reads it and writes the Parquet file beside it, and the finished file
// is renamed to a name of its own (the day and its hash). Memory stays bounded: PostgreSQL's rows never pile
// up in this process, and DuckDB streams them into row groups within its memory_limit.
//
// Why DuckDB (@duckdb/node-api): its Parquet writer, linked into the npm package with the json extension,
// writes ZSTD, exact DECIMAL (INT32/INT64/fixed bytes by precision), TIMESTAMP(MICROS, isAdjustedToUTC),
// UUID, nested lists and structs, row groups of a chosen size and page statistics, from a CSV at about a
// million rows a second on one thread. parquet-wasm needs the rows as Arrow batches built in JS first (no
// DECIMAL builder worth the name in apache-arrow JS), and hyparquet-writer takes whole columns in memory.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { DuckDBConnection } from "@duckdb/node-api";
import postgres from "postgres";
import type { Sql } from "@/lib/db/client";
import { DATASETS, duckColumns } from "./datasets";
import { lowerBackendPriority } from "../os/priority";
import { writeMarketsSnapshot } from "./markets-snapshot";
import { dayRange, type ExportDataset, storedName } from "./names";
import { TMP_DIR } from "./store";
import { type DayUser, dayUsersQuery, loadDayUsers } from "./trade-users";

/** Rows per row group: a reader fetches and decodes one at a time (a few MB of a trades file); the writer holds one in memory. */
export const ROW_GROUP_ROWS = 122_880;

export interface WrittenFile {
  rows: number;
  bytes: number;
  sha256: string;
  /** Path under the export directory. */
  file: string;
}

/** The job's sessions: no time limits (a day is read in one statement), UTC text, room to sort a day in memory. */
export const JOB_SESSION = { statement_timeout: 0, lock_timeout: 0, TimeZone: "UTC", work_mem: "64MB", application_name: "markets-export" };

let sequence = 0;

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/**
 * A connection of its own for one COPY … TO STDOUT, dropped once the data is in (copyOut): postgres.js can leave
 * a connection's socket paused after a COPY stream that ended under backpressure, and the next statement on it
 * then waits for ever. The session is the job's (no statement timeout, UTC, more work_mem), and its backend
 * runs at the job's low priority where it can (./launch.ts).
 */
async function openSource(databaseUrl: string, session: Record<string, string> = {}): Promise<postgres.Sql> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connection: { ...JOB_SESSION, ...session } });
  try {
    await lowerBackendPriority(sql);
  } catch (err) {
    await sql.end({ timeout: 0 });
    throw err;
  }
  return sql;
}

/** Bytes written to the pipe at once. */
const WRITE_BYTES = 256 * 1024;

/**
 * The COPY's rows joined into writes of WRITE_BYTES: postgres.js hands over each row (one CopyData message) as a
 * chunk of its own. Written one by one, 1,000,000 rows that PostgreSQL produced slowly (each in a socket read of
 * its own) cost this process 6.5 s of CPU into /dev/null, 2 s joined.
 */
export async function* joinedChunks(rows: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let size = 0;
  for await (const row of rows) {
    parts.push(row);
    size += row.length;
    if (size >= WRITE_BYTES) {
      yield Buffer.concat(parts, size);
      parts = [];
      size = 0;
    }
  }
  if (size) yield Buffer.concat(parts, size);
}

/** COPY … TO STDOUT into `file`, then the connection ends (an open read-only transaction with it: nothing to commit). */
async function copyOut(source: postgres.Sql, statement: string, file: string): Promise<void> {
  try {
    await pipeline(await source.unsafe(statement).readable(), joinedChunks, fs.createWriteStream(file));
  } finally {
    await source.end({ timeout: 0 });
  }
}

/** A named pipe at `file`; false where there is no mkfifo (the day then goes through a temporary file). */
function makeFifo(file: string): boolean {
  try {
    execFileSync("mkfifo", ["-m", "600", file]);
    return true;
  } catch {
    return false;
  }
}

/** The row count DuckDB's COPY answers. */
const countOf = (result: { getRows: () => unknown[][] }) => Number(result.getRows()[0]?.[0] ?? 0);

/** The DuckDB statement that turns the day's source file into the Parquet file `out`. */
export function parquetCopy(dataset: ExportDataset, source: string, out: string): string {
  const spec = DATASETS[dataset];
  const { columns, select, joined } = duckColumns(spec);
  const read =
    spec.source === "csv"
      ? `read_csv(${quote(source)}, columns = ${columns}, header = false, auto_detect = false, delim = ',', quote = '"', escape = '"', allow_quoted_nulls = false, buffer_size = 1048576)`
      : `read_json(${quote(source)}, format = 'newline_delimited', columns = ${columns})`;
  return `COPY (SELECT ${select} FROM ${read} src${joined}) TO ${quote(out)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`;
}

/**
 * Writes `dataset` of `day` into `dir` and returns what the index records. `sql` must allow long statements
 * (the job's own connection); the temporary files are removed whatever happens.
 */
export async function writeDayFile(opts: {
  sql: Sql;
  databaseUrl: string;
  duck: DuckDBConnection;
  dir: string;
  dataset: ExportDataset;
  day: string;
}): Promise<WrittenFile> {
  const { sql, duck, dir, dataset, day } = opts;
  const spec = DATASETS[dataset];
  const tmp = path.join(dir, TMP_DIR);
  fs.mkdirSync(tmp, { recursive: true });
  const base = path.join(tmp, `${dataset}-${day}-${process.pid}-${++sequence}`);
  const source = `${base}.${spec.source === "csv" ? "csv" : "jsonl"}`;
  const out = `${base}.parquet`;
  try {
    let rows: number;
    if (spec.copy) {
      const range = dayRange(day);
      const pg = await openSource(opts.databaseUrl, spec.copySession);
      try {
        if (spec.users) {
          // The day's users and its trades from one snapshot: every id the COPY sends is among the users.
          await pg.unsafe("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
          await loadDayUsers(duck, pg.unsafe<DayUser[]>(dayUsersQuery(range)).cursor(10_000));
        }
      } catch (err) {
        await pg.end({ timeout: 0 });
        throw err;
      }
      const statement = `COPY (${spec.copy(range)}) TO STDOUT (FORMAT csv)`;
      if (makeFifo(source)) {
        // PostgreSQL and DuckDB at once, through a pipe: DuckDB writes the row groups while the day is still arriving.
        const feed = copyOut(pg, statement, source);
        try {
          rows = countOf(await duck.runAndReadAll(parquetCopy(dataset, source, out)));
        } catch (err) {
          // Let the writer finish into nothing, so that it does not wait for a reader for ever.
          fs.createReadStream(source).resume();
          await feed.catch(() => {});
          throw err;
        }
        // A COPY that failed midway ended the pipe early: DuckDB saw a short day, and the file is dropped.
        await feed;
      } else {
        await copyOut(pg, statement, source);
        rows = countOf(await duck.runAndReadAll(parquetCopy(dataset, source, out)));
      }
    } else {
      await writeMarketsSnapshot(sql, dayRange(day), source);
      rows = countOf(await duck.runAndReadAll(parquetCopy(dataset, source, out)));
    }
    const sha256 = await sha256Of(out);
    const bytes = fs.statSync(out).size;
    const file = storedName(dataset, day, sha256);
    fs.mkdirSync(path.join(dir, dataset), { recursive: true });
    fs.renameSync(out, path.join(dir, file));
    return { rows, bytes, sha256, file };
  } finally {
    fs.rmSync(source, { force: true });
    fs.rmSync(out, { force: true });
  }
}
