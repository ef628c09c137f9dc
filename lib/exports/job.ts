// One pass of the export job (docs/api.md "Exports"): which files are due (planFiles, pure; planPass reads
// its inputs, a few index lookups, so that the server can ask before it starts a pass) and writing them one
// after the other (runExportPass). A closed day is written once, and again when its mark in
// export_marks moved (trades of that day inserted, changed or deleted since: migration 0020; the mark is the
// sum of the day's slots, migration 0034); the current
// UTC day is written as a partial file at most every `partialEveryMs`, and as a complete one once it closed.
// The book log keeps BOOK_LOG_RETENTION_DAYS: its days before that are not written (their files, once
// written, stay).
import fs from "node:fs";
import path from "node:path";
import type { Sql } from "@/lib/db/client";
import type { DuckDBConnection } from "@duckdb/node-api";
import { addDays, dayOf, EXPORT_DATASETS, type ExportDataset } from "./names";
import { type Manifest, manifestKey, readManifest, type StoredFile, writeManifest } from "./store";
import { writeDayFile } from "./writer";

/** The later of two YYYY-MM-DD days. */
const laterDay = (a: string, b: string) => (a.localeCompare(b) > 0 ? a : b);

/** Datasets derived from the trades: written again when their day's mark moves. */
const FROM_TRADES = new Set<ExportDataset>(["trades", "candles_1m"]);

export interface PlannedFile {
  dataset: ExportDataset;
  day: string;
  complete: boolean;
  /** The day's mark before the day is read: recorded with the file. */
  mark: number;
  why: "new" | "closed" | "changed" | "partial";
}

export interface PlanInput {
  manifest: Manifest;
  /** The current UTC day (YYYY-MM-DD). */
  today: string;
  /** The first day to export (the first trade's, or EXPORT_SINCE). */
  firstDay: string;
  /** The book log's oldest kept day: book_changes files start there. */
  bookFirstDay: string;
  /**
   * The first day of the markets snapshots: the day the job first wrote one (the oldest in the index), or
   * today on a first pass. An earlier day's markets cannot be known any more; a snapshot would show today's.
   */
  marketsFirstDay: string;
  marks: ReadonlyMap<string, number>;
  now: number;
  partialEveryMs: number;
}

/** The files a pass writes, closed days oldest first, then today's partial files. */
export function planFiles(input: PlanInput): PlannedFile[] {
  const { manifest, today, marks } = input;
  const closed: PlannedFile[] = [];
  const partial: PlannedFile[] = [];
  for (let day = input.firstDay; day <= today; day = addDays(day, 1)) {
    for (const dataset of EXPORT_DATASETS) {
      if (dataset === "book_changes" && day < input.bookFirstDay) continue;
      if (dataset === "markets" && day < input.marketsFirstDay) continue;
      const stored = manifest.files[manifestKey(dataset, day)];
      const mark = marks.get(day) ?? 0;
      if (day < today) {
        if (!stored) closed.push({ dataset, day, complete: true, mark, why: "new" });
        else if (!stored.complete) closed.push({ dataset, day, complete: true, mark, why: "closed" });
        else if (FROM_TRADES.has(dataset) && stored.mark !== mark) closed.push({ dataset, day, complete: true, mark, why: "changed" });
      } else if (!stored || input.now - Date.parse(stored.written_at) >= input.partialEveryMs) {
        partial.push({ dataset, day, complete: false, mark, why: "partial" });
      }
    }
  }
  return [...closed, ...partial];
}

export interface PlanOptions {
  /** Any connection: the queries are a few index lookups (the server's pool plans, ./scheduler.ts). */
  sql: Sql;
  dir: string;
  partialEveryMs: number;
  retentionDays: number;
  /** First day to export; default the first trade's day. */
  since?: string;
  now?: number;
  /** Only these datasets (the benchmark); default all. */
  only?: readonly ExportDataset[];
}

export interface PassOptions extends PlanOptions {
  /** A connection without statement timeouts, TimeZone UTC (./worker.ts opens it). */
  sql: Sql;
  /** For the COPY statements, each on a connection of its own (./writer.ts). */
  databaseUrl: string;
  duck: DuckDBConnection;
  log?: (message: string) => void;
}

/** What the database says about the days to export: the first trade's day, the book log's oldest kept day, the marks. */
async function readDays(sql: Sql, retentionDays: number, today: string) {
  const [row] = await sql<{ first_trade: string | null; log_started: string }[]>`
    SELECT (SELECT (min(executed_at) AT TIME ZONE 'UTC')::date::text FROM trades) AS first_trade,
           (SELECT (started_at AT TIME ZONE 'UTC')::date::text FROM book_log_state) AS log_started`;
  const marks = new Map(
    (await sql<{ day: string; mark: string }[]>`SELECT day::text, sum(mark)::text AS mark FROM export_marks GROUP BY day`).map((m) => [m.day, Number(m.mark)]),
  );
  const kept = addDays(today, -retentionDays);
  return { firstTrade: row.first_trade ?? today, bookFirstDay: laterDay(row.log_started, kept), marks };
}

/** The files due now, from the database's days and marks and EXPORT_DIR's index (planFiles), with that index. */
export async function planPass(o: PlanOptions): Promise<{ plan: PlannedFile[]; manifest: Manifest }> {
  const now = o.now ?? Date.now();
  const today = dayOf(now);
  const days = await readDays(o.sql, o.retentionDays, today);
  const manifest = readManifest(o.dir);
  const firstDay = o.since ?? days.firstTrade;
  const marketsDays = Object.values(manifest.files)
    .filter((f) => f.dataset === "markets")
    .map((f) => f.day)
    .sort();
  const plan = planFiles({
    manifest,
    today,
    firstDay: laterDay(firstDay, today) === today ? firstDay : today,
    bookFirstDay: days.bookFirstDay,
    marketsFirstDay: marketsDays[0] ?? today,
    marks: days.marks,
    now,
    partialEveryMs: o.partialEveryMs,
  });
  return { plan: o.only ? plan.filter((p) => o.only!.includes(p.dataset)) : plan, manifest };
}

/** Writes every due file; the index is updated after each one, and the file it replaced removed. */
export async function runExportPass(o: PassOptions): Promise<StoredFile[]> {
  const { plan, manifest } = await planPass(o);
  const written: StoredFile[] = [];
  for (const p of plan) {
    const started = performance.now();
    const file = await writeDayFile({ sql: o.sql, databaseUrl: o.databaseUrl, duck: o.duck, dir: o.dir, dataset: p.dataset, day: p.day });
    const entry: StoredFile = { dataset: p.dataset, day: p.day, complete: p.complete, mark: p.mark, written_at: new Date().toISOString(), ...file };
    const key = manifestKey(p.dataset, p.day);
    const replaced = manifest.files[key];
    manifest.files[key] = entry;
    writeManifest(o.dir, manifest);
    // A reader that opened the old file keeps it until it closes it (POSIX); new readers get the new one.
    if (replaced && replaced.file !== entry.file) fs.rmSync(path.join(o.dir, replaced.file), { force: true });
    written.push(entry);
    o.log?.(`${p.dataset} ${p.day} (${p.why}): ${entry.rows} rows, ${entry.bytes} bytes in ${Math.round(performance.now() - started)} ms`);
  }
  return written;
}
