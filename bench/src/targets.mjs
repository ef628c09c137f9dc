// How each kind of target is asked for a case of a mix (src/mixes.mjs) and how its answer is read back
// as the market ids in order and the total, which verification compares across targets.
//   rest: GET /v1/markets?… (the app, any named build of it, and the bare target), answer {markets, total, …}
//   graphql: POST /graphql to PostGraphile 5 (Amber preset), answer {data: {allMarkets: {totalCount, nodes}}}

/** The query string of a case, in the app's parameters (docs/api.md "GET /v1/markets"). */
export function listQuery(c) {
  const q = new URLSearchParams();
  for (const key of ["status", "category", "q", "sortBy", "sortOrder"]) if (c[key] !== undefined) q.set(key, c[key]);
  q.set("limit", String(c.limit));
  q.set("offset", String(c.offset));
  return q.toString();
}

/** A target answering GET /v1/markets at `url` (a path prefix in the URL is kept). */
export function restTarget(name, url, role) {
  const base = new URL(url);
  const prefix = base.pathname.replace(/\/+$/, "");
  return {
    name,
    role, // "app" for a build under test, "bare" for the reference
    origin: base.origin,
    shape: "rest",
    request: (c) => ({ method: "GET", path: `${prefix}/v1/markets?${listQuery(c)}` }),
    read: (json) => ({ ids: json.markets.map((m) => m.id), total: json.total }),
  };
}

// Amber names the table's primary key `rowId` (`id` is the global Node ID). The fields are the list
// item's, so PostGraphile reads and sends as much as the app does; its numerics come back as strings.
const MARKETS_QUERY = `query Markets($condition: MarketCondition, $orderBy: [MarketOrderBy!], $first: Int!, $offset: Int!) {
  allMarkets(condition: $condition, orderBy: $orderBy, first: $first, offset: $offset) {
    totalCount
    nodes {
      rowId slug question description category subCategory type status
      tradingStartsAt tradingEndsAt resolutionDate winningOutcomeId resolvedAt settledAt
      resolvedBy resolutionSource resolutionNote platformFee spread totalVolume imageUrl
      videoUrl videoPosterUrl videoSourceUrl videoProvider videoStatus externalSource
      tags views verified featured createdAt updatedAt commentsCount
      outcomes: outcomesByMarketId(orderBy: INDEX_ASC) {
        nodes { rowId marketId name side index probability description imageUrl color questionId conditionId positionId payoutWei createdAt updatedAt }
      }
    }
  }
}`;

// sortBy → the column's orderBy name. PostGraphile offers an order only on an indexed column
// (PgIndexBehaviorsPlugin); the markets' indexes cover these four. The id tie-breaker follows in the
// same direction, as in the app (docs/api.md "Sorting").
const GRAPHQL_ORDER = { VOLUME: "TOTAL_VOLUME", CREATED: "CREATED_AT", LIQUIDITY: "TOTAL_LIQUIDITY", ENDING: "TRADING_ENDS_AT" };

function graphqlVariables(c) {
  if (c.q !== undefined) throw new Error("PostGraphile has no substring filter: leave it out of the search mix");
  const column = GRAPHQL_ORDER[c.sortBy];
  if (!column) throw new Error(`PostGraphile has no order for sortBy=${c.sortBy}`);
  const dir = c.sortOrder ?? "DESC";
  const condition = { status: c.status };
  if (c.category !== undefined) condition.category = c.category;
  return { condition, orderBy: [`${column}_${dir}`, `ROW_ID_${dir}`], first: c.limit, offset: c.offset };
}

/** PostGraphile at `url`, its endpoint at /graphql. */
export function graphqlTarget(name, url) {
  const base = new URL(url);
  return {
    name,
    role: "postgraphile",
    origin: base.origin,
    shape: "graphql",
    request: (c) => ({
      method: "POST",
      path: "/graphql",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: MARKETS_QUERY, variables: graphqlVariables(c), operationName: "Markets" }),
    }),
    read: (json) => {
      // GraphQL answers errors with HTTP 200: they must fail here, not pass as an empty page.
      if (json.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(json.errors).slice(0, 400)}`);
      const list = json.data.allMarkets;
      return { ids: list.nodes.map((n) => n.rowId), total: list.totalCount };
    },
  };
}

/** A body that counts as an answer during the load (autocannon's verifyBody): not empty, no GraphQL errors. */
export const answered = (body) => body.length > 2 && !body.includes('"errors":');
