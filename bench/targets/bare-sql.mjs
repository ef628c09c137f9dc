// The bare target's one SQL statement: PostgreSQL builds the whole body of GET /v1/markets, the app's
// primary shape (docs/api.md "Market list item", "Outcome", "List envelope"; lib/markets/serialize.ts) byte
// for byte: the same keys in the app's order, written compactly as JSON.stringify writes them (row_to_json
// and string_agg, not json_build_object and json_agg, which put spaces and line breaks between items). Node
// writes the text out untouched. Its limits: stored URLs are sent as stored (the app drops unsafe ones, which
// the seed and the importer never store), and only the filters and sorts the mixes use (src/mixes.mjs).

/** A timestamp as the app prints it: UTC, milliseconds, "Z" for years 1 to 9999 (lib/markets/rows.ts, IsoTime). */
const iso = (col) =>
  `CASE WHEN ${col} >= '0001-01-01T00:00:00Z' AND ${col} < '10000-01-01T00:00:00Z' ` +
  `THEN to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ELSE ${col}::text END`;

/** A select list as one compact JSON object: its columns' names are the keys, in order. */
const object = (columns) => `row_to_json((SELECT r FROM (SELECT ${columns}) r))`;

/** One outcome of alias `o` (docs/api.md "Outcome"); probability numeric(5,2) is already two decimals. */
const outcomeJson = (o) =>
  object(`${o}.id, ${o}.market_id, ${o}.name, ${o}.side, ${o}."index", ${o}.probability::float8 AS probability,
    ${o}.description, ${o}.image_url, ${o}.color, ${o}.question_id, ${o}.condition_id, ${o}.position_id, ${o}.payout_wei,
    ${iso(`${o}.created_at`)} AS created_at, ${iso(`${o}.updated_at`)} AS updated_at`);

/** One list item of alias `m` with its outcomes in index order (docs/api.md "Market list item"). */
const marketJson = (m) =>
  object(`${m}.id, ${m}.slug, ${m}.question, ${m}.description, ${m}.category, ${m}.sub_category, ${m}.type, ${m}.status,
    ${iso(`${m}.trading_starts_at`)} AS trading_starts_at, ${iso(`${m}.trading_ends_at`)} AS trading_ends_at,
    ${iso(`${m}.resolution_date`)} AS resolution_date, ${m}.winning_outcome_id,
    (SELECT ${outcomeJson("w")} FROM outcomes w WHERE w.id = ${m}.winning_outcome_id) AS winning_outcome,
    ${iso(`${m}.resolved_at`)} AS resolved_at, ${iso(`${m}.settled_at`)} AS settled_at, ${m}.resolved_by,
    ${m}.resolution_source, ${m}.resolution_note, ${m}.platform_fee::float8 AS platform_fee, ${m}.spread,
    ${m}.total_volume::float8 AS total_volume, ${m}.image_url, ${m}.video_url, ${m}.video_poster_url, ${m}.video_source_url,
    ${m}.video_provider, ${m}.video_status, ${m}.external_source, ${m}.tags, ${m}.views, ${m}.verified, ${m}.featured,
    ${iso(`${m}.created_at`)} AS created_at, ${iso(`${m}.updated_at`)} AS updated_at,
    coalesce((SELECT '[' || string_agg(${outcomeJson("x")}::text, ',' ORDER BY x."index") || ']' FROM outcomes x WHERE x.market_id = ${m}.id), '[]')::json AS outcomes,
    ${m}.comments_count`);

/** sortBy → the column it orders by (docs/api.md "Sorting"); TRENDING is not among the mixes' sorts. */
export const SORT_COLUMNS = { VOLUME: "total_volume", LIQUIDITY: "total_liquidity", CREATED: "created_at", ENDING: "trading_ends_at" };

/**
 * ILIKE pattern of a case-insensitive substring, its wildcards escaped and NULs dropped, as the app does; matched
 * against market_search, where the schema keeps the markets' text and list filters with its trigram indexes (migration 0026).
 */
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
    ${
      pattern
        ? sql`AND m.id IN (SELECT s.market_id FROM market_search s WHERE s.status = ${status}::market_status
                  ${category ? sql`AND s.category = ${category}::market_category` : sql``}
                  AND (s.question ILIKE ${pattern} OR s.description ILIKE ${pattern}))`
        : sql``
    }`;
  // Every sort ends with the id in the same direction, so pages never repeat or skip a market.
  const order = (alias) => sql.unsafe(`${alias}.${column} ${dir}, ${alias}.id ${dir}`);
  const [{ body }] = await sql`
    SELECT '{"markets":['
        || coalesce((
             SELECT string_agg(${sql.unsafe(marketJson("p"))}::text, ',' ORDER BY ${order("p")})
               FROM (SELECT m.* FROM markets m WHERE ${filter} ORDER BY ${order("m")} LIMIT ${limit} OFFSET ${offset}) p
           ), '')
        || '],"total":' || (SELECT count(*) FROM markets m WHERE ${filter})
        || ',"limit":' || ${limit}::int || ',"offset":' || ${offset}::bigint || '}' AS body`;
  return body;
}
