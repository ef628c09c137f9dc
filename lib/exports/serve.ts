// GET /v1/exports and GET /v1/exports/{dataset}/{day}.parquet (docs/api.md "Exports"): the index from
// EXPORT_DIR/index.json, and a file streamed from disk with a strong ETag (its SHA-256), Range, If-Range,
// If-None-Match and HEAD (RFC 9110). Only files the index names are served, and the index names a file only
// once it is whole under its final name, so a file being written is never served.
import "server-only";
import type { FileHandle } from "node:fs/promises";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { config } from "@/lib/config";
import { ApiError, notFound } from "@/lib/api/errors";
import { errorReply, responseOf } from "@/lib/api/route";
import { decideRange } from "./ranges";
import { exportPath, type ExportIndex, type ExportIndexQuery, isDay, isExportDataset } from "./names";
import { type Manifest, manifestKey, manifestReader, type StoredFile } from "./store";

export const PARQUET_TYPE = "application/vnd.apache.parquet";
/** A closed day's file never changes under its URL (a back-dated import makes a new file, with a new ETag). */
export const COMPLETE_CACHE = "public, max-age=31536000, immutable";
/** Today's file is written again every EXPORT_PARTIAL_MINUTES. */
export const PARTIAL_CACHE = "public, max-age=60";

export const exportDir = () => path.resolve(config().EXPORT_DIR);

/** The index, read again only when index.json changed (a bundle's own copy is only a parse more). */
let reader: { dir: string; read: () => Manifest } | undefined;
function manifest(): Manifest {
  const dir = exportDir();
  if (reader?.dir !== dir) reader = { dir, read: manifestReader(dir) };
  return reader.read();
}

/** GET /v1/exports: every file the index holds, filtered, by day then dataset. */
export function listExports(query: ExportIndexQuery): ExportIndex {
  const files = Object.values(manifest().files)
    .filter((f) => (!query.dataset || f.dataset === query.dataset) && (!query.from || f.day >= query.from) && (!query.to || f.day <= query.to))
    .sort((a, b) => (a.day === b.day ? a.dataset.localeCompare(b.dataset) : a.day.localeCompare(b.day)));
  return {
    exports: files.map((f) => ({
      dataset: f.dataset,
      day: f.day,
      status: f.complete ? "complete" : "partial",
      rows: f.rows,
      bytes: f.bytes,
      sha256: f.sha256,
      written_at: f.written_at,
      url: exportPath(f.dataset, f.day),
    })),
  };
}

/** The entry of a file URL's params, or the 400/404 of docs/api.md "Exports". */
export function exportEntryOf(dataset: string, file: string): StoredFile {
  if (!isExportDataset(dataset)) throw notFound(`Export not found: ${dataset}`);
  const day = file.endsWith(".parquet") ? file.slice(0, -".parquet".length) : "";
  if (!isDay(day)) throw new ApiError(400, ["day must be a UTC day: YYYY-MM-DD.parquet"]);
  const entry = manifest().files[manifestKey(dataset, day)];
  if (!entry) throw notFound(`Export not found: ${dataset} ${day}`);
  return entry;
}

/** The file of `entry` opened; null when it was replaced meanwhile (the caller reads the index again). */
async function open(entry: StoredFile): Promise<FileHandle | null> {
  try {
    return await fs.open(path.join(exportDir(), entry.file), "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

const FILE_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, Content-Range, Accept-Ranges, Content-Length",
  "Accept-Ranges": "bytes",
} as const;

/** GET (and HEAD, whose body the server drops unread) of one file. */
export async function serveExportFile(req: Request, params: { dataset: string; file: string }): Promise<Response> {
  let entry: StoredFile;
  let handle: FileHandle | null = null;
  try {
    entry = exportEntryOf(params.dataset, params.file);
    handle = await open(entry);
    // Replaced between reading the index and opening the file: the index names its successor now.
    if (!handle) {
      entry = exportEntryOf(params.dataset, params.file);
      handle = await open(entry);
      if (!handle) throw notFound(`Export not found: ${params.dataset} ${params.file}`);
    }
  } catch (err) {
    if (err instanceof ApiError) return responseOf(errorReply(err.status, err.detail));
    throw err;
  }
  const etag = `"${entry.sha256}"`;
  const lastModified = new Date(entry.written_at).toUTCString();
  const headers: Record<string, string> = {
    ...FILE_HEADERS,
    ETag: etag,
    "Last-Modified": lastModified,
    "Cache-Control": entry.complete ? COMPLETE_CACHE : PARTIAL_CACHE,
    "Export-Status": entry.complete ? "complete" : "partial",
  };
  const h = req.headers;
  const decision = decideRange(
    { ifNoneMatch: h.get("if-none-match"), range: h.get("range"), ifRange: h.get("if-range") },
    { size: entry.bytes, etag, lastModified },
  );
  if (decision.status === 304 || decision.status === 416) {
    await handle.close();
    if (decision.status === 304) return new Response(null, { status: 304, headers });
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${entry.bytes}`, "Content-Length": "0" } });
  }
  const [start, end] = decision.status === 206 ? [decision.start, decision.end] : [0, entry.bytes - 1];
  const length = Math.max(0, end - start + 1);
  Object.assign(headers, {
    "Content-Type": PARQUET_TYPE,
    "Content-Length": String(length),
    "Content-Disposition": `attachment; filename="${entry.dataset}-${entry.day}.parquet"`,
  });
  if (decision.status === 206) headers["Content-Range"] = `bytes ${start}-${end}/${entry.bytes}`;
  if (length === 0) {
    await handle.close();
    return new Response(null, { status: decision.status, headers });
  }
  const stream = handle.createReadStream({ start, end, autoClose: true });
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: decision.status, headers });
}
