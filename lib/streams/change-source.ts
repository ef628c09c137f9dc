// change_log as the hub reads it (migration 0021): pages of numbered changes, parsed by the one parse of
// lib/events/market-events.ts, and the bounds a resume is checked against.
import "server-only";
import { db, readDb } from "@/lib/db/client";
import { type MarketEvent, parseMarketEvent } from "@/lib/events/market-events";
import type { ChangeSource } from "./hub";

export const changeLogSource: ChangeSource = {
  async readChanges(after, limit) {
    const sql = await readDb();
    const rows = await sql<{ position: number; us: number; event: Record<string, unknown> }[]>`
      SELECT position::float8 AS position, (extract(epoch FROM at) * 1000000)::int8::float8 AS us, event
        FROM change_log WHERE position > ${after} ORDER BY position LIMIT ${limit}`;
    const out: MarketEvent[] = [];
    for (const r of rows) {
      const e = parseMarketEvent(JSON.stringify({ ...r.event, p: r.position, a: r.us }));
      if (e) out.push(e);
    }
    return out;
  },
  // From the primary: a replica behind it would start the hub before changes it never hears (they were
  // committed before it listened), and nothing would ever send them.
  async bounds() {
    const sql = db();
    const [r] = await sql<{ horizon: number; head: number }[]>`
      SELECT (SELECT horizon FROM change_log_state)::float8 AS horizon,
             coalesce((SELECT max(position) FROM change_log), (SELECT horizon FROM change_log_state))::float8 AS head`;
    return r;
  },
};
