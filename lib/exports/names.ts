// The names of the exports (docs/api.md "Exports"): datasets, days, the public URL of a file and where it
// lies under EXPORT_DIR. Pure and shared by the job, the routes and the OpenAPI document.
import { z } from "zod";

export const EXPORT_DATASETS = ["trades", "book_changes", "candles_1m", "markets"] as const;
export type ExportDataset = (typeof EXPORT_DATASETS)[number];

export const isExportDataset = (s: string): s is ExportDataset => (EXPORT_DATASETS as readonly string[]).includes(s);

/** A UTC day as YYYY-MM-DD that is a real date (2026-02-30 is not). */
export function isDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** A day as [start, end) instants in UTC, the literals COPY takes (COPY has no bind parameters). */
export interface DayRange {
  day: string;
  start: string;
  end: string;
}

export function dayRange(day: string): DayRange {
  const start = new Date(`${day}T00:00:00Z`);
  const end = new Date(start.getTime() + 86_400_000);
  return { day, start: start.toISOString(), end: end.toISOString() };
}

export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const addDays = (day: string, n: number): string => dayOf(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000);

/** The public path of a day's file. */
export const exportPath = (dataset: ExportDataset, day: string) => `/v1/exports/${dataset}/${day}.parquet`;

/**
 * A written file's name under EXPORT_DIR: the day and the first 16 hex digits of its SHA-256, so a name
 * always holds the same bytes (a reader that opened the previous version of a day keeps reading it).
 */
export const storedName = (dataset: ExportDataset, day: string, sha256: string) => `${dataset}/${day}.${sha256.slice(0, 16)}.parquet`;

/** The filter of GET /v1/exports (docs/api.md "Exports"): every parameter optional, any other one a 400. */
export const exportIndexQuery = z
  .strictObject({
    dataset: z.enum(EXPORT_DATASETS, { error: `dataset must be one of ${EXPORT_DATASETS.join(", ")}` }).optional(),
    from: z.string({ error: "from must be a day, YYYY-MM-DD" }).refine(isDay, "from must be a day, YYYY-MM-DD").optional(),
    to: z.string({ error: "to must be a day, YYYY-MM-DD" }).refine(isDay, "to must be a day, YYYY-MM-DD").optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: "from must not be after to" });
export type ExportIndexQuery = z.infer<typeof exportIndexQuery>;

/** One file of the index as GET /v1/exports lists it. */
export const exportEntry = z.object({
  dataset: z.enum(EXPORT_DATASETS),
  day: z.string(),
  status: z.enum(["complete", "partial"]),
  rows: z.number().int(),
  bytes: z.number().int(),
  sha256: z.string(),
  written_at: z.string(),
  url: z.string(),
});
export type ExportEntry = z.infer<typeof exportEntry>;

export const exportIndex = z.object({ exports: z.array(exportEntry) });
export type ExportIndex = z.infer<typeof exportIndex>;

/** The camelCase variant: keys camelCased, values unchanged. */
export function camelExportIndex(index: ExportIndex) {
  return {
    exports: index.exports.map((e) => ({
      dataset: e.dataset,
      day: e.day,
      status: e.status,
      rows: e.rows,
      bytes: e.bytes,
      sha256: e.sha256,
      writtenAt: e.written_at,
      url: e.url,
    })),
  };
}
