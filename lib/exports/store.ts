// The export directory (EXPORT_DIR): the written files and index.json, the one record of which file holds
// which day. Only the job writes it (a file first, under a name of its own, then the index, both renamed into
// place), so a reader that goes through the index never sees a file being written.
import fs from "node:fs";
import path from "node:path";
import type { ExportDataset } from "./names";

export interface StoredFile {
  dataset: ExportDataset;
  day: string;
  /** false for the current UTC day: written again as it fills. */
  complete: boolean;
  rows: number;
  bytes: number;
  sha256: string;
  /** ISO 8601, UTC. */
  written_at: string;
  /** Path under the export directory (names.ts storedName). */
  file: string;
  /** The day's mark in export_marks when it was read (the sum of its slots: migrations 0020, 0034), 0 when it had none. */
  mark: number;
}

export interface Manifest {
  files: Record<string, StoredFile>;
}

export const INDEX_FILE = "index.json";
/** Where files are written before they are renamed into place; never served. */
export const TMP_DIR = ".tmp";

export const manifestKey = (dataset: ExportDataset, day: string) => `${dataset}/${day}`;

export function readManifest(dir: string): Manifest {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, INDEX_FILE), "utf8")) as Manifest;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { files: {} };
    throw err;
  }
}

/** Replaces index.json in one rename: a reader sees the old index or the new one, never half of one. */
export function writeManifest(dir: string, manifest: Manifest): void {
  const tmp = path.join(dir, TMP_DIR, `${INDEX_FILE}.${process.pid}.${Date.now()}`);
  fs.mkdirSync(path.dirname(tmp), { recursive: true });
  fs.writeFileSync(tmp, JSON.stringify(manifest));
  fs.renameSync(tmp, path.join(dir, INDEX_FILE));
}

/**
 * The index as the server reads it: parsed again only when index.json changed (its mtime and size), so a
 * request costs one stat. `null` before the job wrote anything.
 */
export function manifestReader(dir: string): () => Manifest {
  let seen = "";
  let cached: Manifest = { files: {} };
  return () => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(path.join(dir, INDEX_FILE));
    } catch {
      return { files: {} };
    }
    const key = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    if (key !== seen) {
      cached = readManifest(dir);
      seen = key;
    }
    return cached;
  };
}
