// The bare target's one SQL statement: PostgreSQL builds the whole body of GET /v1/markets, the app's
// primary shape (docs/api.md "Market list item", "Outcome", "List envelope"; lib/markets/serialize.ts),
// key for key and in the app's key order, and hands it back as one text column that node writes out
// untouched. Its limits: stored URLs are sent as stored (the app drops unsafe ones, which the seed and the
// importer never store), and only the filters and sorts the mixes use (src/mixes.mjs) are offered.

/** A timestamp as the app prints it: UTC, milliseconds, "Z" for years 1 to 9999 (lib/markets/rows.ts, IsoTime). */
const iso = (col) =>
  `CASE WHEN ${col} >= '0001-01-01T00:00:00Z' AND ${col} < '10000-01-01T00:00:00Z' ` +
  `THEN to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ELSE ${col}::text END`;

/** One outcome of alias `o` (docs/api.md "Outcome"); probability numeric(5,2) is already two decimals. */
const outcomeJson = (o) => `json_build_object(
  'id', ${o}.id, 'market_id', ${o}.market_id, 'name', ${o}.name, 'side', ${o}.side, 'index', ${o}."index",
  'probability', ${o}.probability::float8, 'description', ${o}.description, 'image_url', ${o}.image_url,
  'color', ${o}.color, 'question_id', ${o}.question_id, 'condition_id', ${o}.condition_id,
  'position_id', ${o}.position_id, 'payout_wei', ${o}.payout_wei,
  'created_at', ${iso(`${o}.created_at`)}, 'updated_at', ${iso(`${o}.updated_at`)})`;

/** One list item of alias `m`, its outcomes in index order from `outcomes` (docs/api.md "Market list item"). */
const marketJson = (m, outcomes) => `json_build_object(
  'id', ${m}.id, 'slug', ${m}.slug, 'question', ${m}.question, 'description', ${m}.description,
  'category', ${m}.category, 'sub_category', ${m}.sub_category, 'type', ${m}.type, 'status', ${m}.status,
  'trading_starts_at', ${iso(`${m}.trading_starts_at`)}, 'trading_ends_at', ${iso(`${m}.trading_ends_at`)},
  'resolution_date', ${iso(`${m}.resolution_date`)}, 'winning_outcome_id', ${m}.winning_outcome_id,
  'winning_outcome', (SELECT ${outcomeJson("w")} FROM outcomes w WHERE w.id = ${m}.winning_outcome_id),
  'resolved_at', ${iso(`${m}.resolved_at`)}, 'settled_at', ${iso(`${m}.settled_at`)}, 'resolved_by', ${m}.resolved_by,
  'resolution_source', ${m}.resolution_source, 'resolution_note', ${m}.resolution_note,
  'platform_fee', ${m}.platform_fee::float8, 'spread', ${m}.spread, 'total_volume', ${m}.total_volume::float8,
  'image_url', ${m}.image_url, 'video_url', ${m}.video_url, 'video_poster_url', ${m}.video_poster_url,
  'video_source_url', ${m}.video_source_url, 'video_provider', ${m}.video_provider, 'video_status', ${m}.video_status,
  'external_source', ${m}.external_source, 'tags', ${m}.tags, 'views', ${m}.views, 'verified', ${m}.verified,
  'featured', ${m}.featured, 'created_at', ${iso(`${m}.created_at`)}, 'updated_at', ${iso(`${m}.updated_at`)},
  'outcomes', coalesce(${outcomes}, '[]'::json), 'comments_count', ${m}.comments_count)`;

/** sortBy → the column it orders by (docs/api.md "Sorting"); TRENDING is not among the mixes' sorts. */
export const SORT_COLUMNS = { VOLUME: "total_volume", LIQUIDITY: "total_liquidity", CREATED: "created_at", ENDING: "trading_ends_at" };

/** ILIKE pattern of a case-insensitive substring, its wildcards escaped and NULs dropped, as the app does. */
const substring = (q) => `%${q.replaceAll("\0", "").replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The body of one list request: `{markets, total, limit, offset}`. `query` is already checked
 * (targets/bare.mjs): a status, a sortBy of SORT_COLUMNS, ASC or DESC, integers.
 */
export async function listBody(sql, { status, category, q, sortBy, sortOrder, limit, offset }) {
  const dir = sortOrder === "ASC" ? "ASC" : "DESC";
  const column = SORT_COLUMNS[sortBy];
  const pattern = q ? substring(q) : null;
  const filter = sql`m.status = ${status}::market_status
    ${category ? sql`AND m.category = ${category}::market_category` : sql``}
    ${pattern ? sql`AND (m.question ILIKE ${pattern} OR m.description ILIKE ${pattern})` : sql``}`;
  // Every sort ends with the id in the same direction, so pages never repeat or skip a market.
  const order = (alias) => sql.unsafe(`${alias}.${column} ${dir}, ${alias}.id ${dir}`);
  const [{ body }] = await sql`
    SELECT json_build_object(
      'markets', coalesce((
        SELECT json_agg(${sql.unsafe(marketJson("p", "o.outcomes"))} ORDER BY ${order("p")})
          FROM (SELECT m.* FROM markets m WHERE ${filter} ORDER BY ${order("m")} LIMIT ${limit} OFFSET ${offset}) p
          LEFT JOIN LATERAL (
            SELECT json_agg(${sql.unsafe(outcomeJson("x"))} ORDER BY x."index") AS outcomes FROM outcomes x WHERE x.market_id = p.id
          ) o ON true
      ), '[]'::json),
      'total', (SELECT count(*) FROM markets m WHERE ${filter}),
      'limit', ${limit}::int,
      'offset', ${offset}::bigint
    )::text AS body`;
  return body;
}
