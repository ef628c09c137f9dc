// The markets dataset's source (docs/api.md "Exports"): every market created before the day's end, with its
// outcomes, as JSON lines, read a thousand markets at a time and written with backpressure.
// Decimals stay the stored text (exact in the file, where the API's JSON has numbers); URLs pass the
// API's own rule (lib/markets/urls.ts), so the file never holds one the API would not hand out.
import fs from "node:fs";
import { once } from "node:events";
import type { Sql } from "@/lib/db/client";
import { safeUrl } from "@/lib/markets/urls";
import type { DayRange } from "./names";

interface OutcomeJson {
  image_url: string | null;
  [key: string]: unknown;
}

interface MarketLine {
  image_url: string | null;
  video_url: string | null;
  video_poster_url: string | null;
  video_source_url: string | null;
  outcomes: OutcomeJson[];
  [key: string]: unknown;
}

const PAGE = 1000;

const TEXT_TIMES = ["trading_starts_at", "trading_ends_at", "resolution_date", "resolved_at", "settled_at", "created_at", "updated_at"];

export async function writeMarketsSnapshot(sql: Sql, range: DayRange, file: string): Promise<void> {
  const out = fs.createWriteStream(file);
  const closed = once(out, "close");
  try {
    const times = TEXT_TIMES.map((c) => `m.${c}::text AS ${c}`).join(", ");
    // Pages of PAGE markets by id (keyset): the same bounded memory as a cursor, one short statement each.
    let after = "00000000-0000-0000-0000-000000000000";
    for (;;) {
      const rows = await sql.unsafe<MarketLine[]>(
        `SELECT m.id, m.slug, m.question, m.description, m.category, m.sub_category, m.type, m.status, ${times},
                m.winning_outcome_id, m.resolved_by, m.resolution_source, m.resolution_note, m.platform_fee::text AS platform_fee,
                m.spread, m.total_volume::text AS total_volume, m.image_url, m.video_url, m.video_poster_url, m.video_source_url,
                m.video_provider, m.video_status, m.external_source, m.tags, m.comments_count, m.views, m.verified, m.featured,
                (SELECT coalesce(json_agg(json_build_object(
                          'id', o.id, 'name', o.name, 'side', o.side, 'index', o.index, 'probability', o.probability::text,
                          'description', o.description, 'image_url', o.image_url, 'color', o.color, 'question_id', o.question_id,
                          'condition_id', o.condition_id, 'position_id', o.position_id, 'payout_wei', o.payout_wei,
                          'created_at', o.created_at, 'updated_at', o.updated_at) ORDER BY o.index), '[]'::json)
                   FROM outcomes o WHERE o.market_id = m.id) AS outcomes
           FROM markets m
          WHERE m.created_at < $1::timestamptz AND m.id > $2::uuid
          ORDER BY m.id
          LIMIT ${PAGE}`,
        [range.end, after],
      );
      if (!rows.length) break;
      let chunk = "";
      for (const m of rows) {
        m.image_url = safeUrl(m.image_url) ?? "";
        m.video_url = safeUrl(m.video_url);
        m.video_poster_url = safeUrl(m.video_poster_url);
        m.video_source_url = safeUrl(m.video_source_url);
        for (const o of m.outcomes) o.image_url = safeUrl(o.image_url);
        chunk += `${JSON.stringify(m)}\n`;
      }
      if (!out.write(chunk)) await once(out, "drain");
      after = rows[rows.length - 1].id as string;
      if (rows.length < PAGE) break;
    }
  } finally {
    out.end();
    await closed;
  }
}
