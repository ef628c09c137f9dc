// The one connection pool of the process. Kept on globalThis so that server.ts, scripts and the
// route handlers Next bundles separately all share it (and dev reloads do not leak pools).
import postgres from "postgres";

export type Sql = postgres.Sql;

const g = globalThis as unknown as { __marketsSql?: Sql };

export function connect(url: string, options: postgres.Options<{}> = {}): Sql {
  return postgres(url, {
    max: Number(process.env.DB_POOL_SIZE ?? 10),
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    ...options,
  });
}

export function db(): Sql {
  if (!g.__marketsSql) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start through server.ts or a script that resolves the database");
    g.__marketsSql = connect(url);
  }
  return g.__marketsSql;
}

export async function closeDb() {
  const sql = g.__marketsSql;
  g.__marketsSql = undefined;
  await sql?.end({ timeout: 5 });
}
