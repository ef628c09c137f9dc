// The names in a trades file (docs/api.md "Exports": maker_username, taker_username). PostgreSQL sends each
// trade's bare maker and taker ids; DuckDB names them. The users the day's trades name (every user where there
// are few), read in the COPY's own snapshot (./writer.ts), become an ENUM type whose codes index two lists, their
// ids and their usernames: the CSV's user columns are read as that ENUM, a dictionary lookup per value that keeps
// the rows in the tape's order. A join would not (DuckDB's hash join emits a probe chunk's unmatched rows after its matched ones), and a
// sort after it costs more than the join in PostgreSQL that this replaces. An id missing from the ENUM fails
// the CSV read, and with it the day's file: never a file with a name left out.
import type { DuckDBConnection } from "@duckdb/node-api";
import type { DayRange } from "./names";

/** The ENUM of the day's user ids (text), recreated for each trades file. */
export const USER_TYPE = "day_user";
/** A table of one row: `ids` UUID[] and `names` VARCHAR[], in the ENUM's order (code k is item k + 1). */
export const USER_LISTS = "day_user_lists";

export interface DayUser {
  id: string;
  username: string;
}

/**
 * Up to this many users (PostgreSQL's estimate), every user is loaded: a few MB in DuckDB, and much cheaper than
 * finding the day's (1.5 s of the backend's CPU per 1,000,000 trades).
 */
export const ALL_USERS_UP_TO = 100_000;

/**
 * The users that the trades of the day name, as maker or taker, or every user when there are few (one hashed
 * subplan over the day, not run when the first arm holds).
 */
export const dayUsersQuery = (r: DayRange) => `
  SELECT u.id::text AS id, u.username
    FROM users u
   WHERE (SELECT reltuples FROM pg_class WHERE oid = 'users'::regclass) <= ${ALL_USERS_UP_TO}
      OR u.id IN (SELECT unnest(ARRAY[t.maker_user_id, t.taker_user_id]) FROM trades t
                   WHERE t.executed_at >= '${r.start}' AND t.executed_at < '${r.end}')`;

/**
 * Replaces the day's users in DuckDB with `batches` (the rows of dayUsersQuery): USER_TYPE and USER_LISTS, which
 * the trades dataset's SELECT reads (./datasets.ts). Returns how many users there are.
 */
export async function loadDayUsers(duck: DuckDBConnection, batches: AsyncIterable<readonly DayUser[]>): Promise<number> {
  await duck.run("CREATE OR REPLACE TABLE day_users (id VARCHAR NOT NULL, username VARCHAR NOT NULL)");
  const appender = await duck.createAppender("day_users");
  let count = 0;
  try {
    for await (const batch of batches) {
      for (const u of batch) {
        appender.appendVarchar(u.id);
        appender.appendVarchar(u.username);
        appender.endRow();
      }
      count += batch.length;
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  // The ENUM's codes and the lists' items in one order, the ids' text order.
  await duck.run(`DROP TYPE IF EXISTS ${USER_TYPE}`);
  await duck.run(`CREATE TYPE ${USER_TYPE} AS ENUM (SELECT id FROM day_users ORDER BY id)`);
  await duck.run(
    `CREATE OR REPLACE TABLE ${USER_LISTS} AS
       SELECT coalesce(list(id::UUID ORDER BY id), []) AS ids, coalesce(list(username ORDER BY id), []) AS names FROM day_users`,
  );
  await duck.run("DROP TABLE day_users");
  return count;
}

/** The SELECT expression of a user column of the CSV (read as USER_TYPE): its id, or its username. */
export const userOf = (column: string, what: "id" | "name") => `u.${what}s[enum_code(src.${column}) + 1]`;
