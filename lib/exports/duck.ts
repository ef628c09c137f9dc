// The DuckDB the export job writes Parquet with (./writer.ts): in memory, one thread (the job runs beside
// the API on the same cores), a memory limit past which it spills to EXPORT_DIR/.tmp, UTC, no extension
// loading (parquet and json are linked into the npm package; nothing is downloaded).
import path from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { TMP_DIR } from "./store";

export interface Duck {
  connection: DuckDBConnection;
  close: () => void;
}

export async function openDuck(dir: string, { threads = 1, memoryLimitMb = 64 } = {}): Promise<Duck> {
  const instance = await DuckDBInstance.create(":memory:", {
    threads: String(threads),
    memory_limit: `${memoryLimitMb}MB`,
    temp_directory: path.join(dir, TMP_DIR, "duckdb"),
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
  });
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  // The CSV is always the streaming side of a join, never the one held in memory: a day read from a pipe has no
  // size for the optimizer to compare (the trades' one-row users lists, ./trade-users.ts).
  await connection.run("SET disabled_optimizers = 'build_side_probe_side'");
  return {
    connection,
    close: () => {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
