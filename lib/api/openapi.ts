// The OpenAPI 3.1 document of /v1, built from the zod schemas that validate the routes (lib/markets/schemas/):
// nothing here restates a field, a limit or a default, so the document cannot drift from the code.
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { Json } from "@/lib/cache/representation";
import { type camelExportIndex, exportIndex, exportIndexQuery } from "@/lib/exports/names";
import { CACHE_POLICIES, type CachePolicy } from "./route";
import {
  CANDLE_LIMIT,
  camelCandlesBatchSchema,
  camelCandlesSchema,
  candlesBatchQuery,
  candlesBatchSchema,
  candlesQuery,
  candlesSchema,
  CAMEL_MEDIA_TYPE,
  HISTORY_DEFAULT_WINDOW_S,
  HISTORY_TRADE_CAP,
  BATCH_MAX_IDS,
  TRADES_MAX_LIMIT,
  camelMarketDetailSchema,
  camelMarketListResponseSchema,
  camelOrderBookSchema,
  camelOrderBooksResponseSchema,
  camelPriceHistorySchema,
  camelPricesHistoryBatchResponseSchema,
  camelTradeTapeSchema,
  errorBodySchema,
  marketDetailSchema,
  marketListQueryObject,
  marketListResponseSchema,
  orderBookQuery,
  orderBookSchema,
  orderBooksQuery,
  orderBooksResponseSchema,
  priceHistoryQuery,
  priceHistorySchema,
  pricesHistoryBatchQuery,
  pricesHistoryBatchResponseSchema,
  tradeTapeSchema,
  tradesQuery,
  uuid,
  BOOK_CHANGES_MAX_LIMIT,
  bookChangesQuery,
  bookChangesSchema,
  camelBookChangesSchema,
  orderBookAtQuery,
  MARKET_CHANGES_MAX_LIMIT,
  camelMarketChangesSchema,
  marketChangesQuery,
  marketChangesSchema,
} from "@/lib/markets/schemas";

const idPath = z.object({
  id: uuid.meta({ description: "Market id. A malformed id answers 404 like an unknown one.", example: "0b7c6c1e-3f0a-4d55-9b1e-2a7f5c9d8e01" }),
});
const slugPath = z.object({ slug: z.string().meta({ description: "Market slug.", example: "will-btc-close-above-100k-in-2025" }) });

const cachingHeaders = (policy: CachePolicy) =>
  z.object({
    ETag: z.string().meta({ description: "Weak validator of this variant, the same for its gzip and identity encodings; send it back in If-None-Match." }),
    "Cache-Control": z.string().meta({ description: "How long shared caches may keep the response.", example: CACHE_POLICIES[policy] }),
    Vary: z.string().meta({
      description: "Always Accept, Accept-Encoding: the camelCase variant is chosen by Accept, gzip by Accept-Encoding.",
      example: "Accept, Accept-Encoding",
    }),
  });

const errorContent = { "application/json": { schema: errorBodySchema } };
const error = (description: string) => ({ description, content: errorContent });

function ok(description: string, policy: CachePolicy, primary: z.ZodType, camel: z.ZodType): ZodOpenApiResponsesObject {
  return {
    "200": {
      description,
      headers: cachingHeaders(policy),
      content: { "application/json": { schema: primary }, [CAMEL_MEDIA_TYPE]: { schema: camel } },
    },
    "304": { description: "Not modified: If-None-Match named the current ETag. No body.", headers: cachingHeaders(policy) },
  };
}

const internal = error("Unexpected failure; the body never carries details.");

// ---------------------------------------------------------------- book versions and past books (docs/api.md "Book versions", "Past books")

const bookHeaders = {
  "Book-Version": z.string().meta({
    description: "The book's version: only grows, the same on every instance and replica. A higher one is a newer book.",
    example: "1042",
  }),
  "Book-Checksum": z.string().meta({
    description: 'CRC-32 of the top 10 bids and asks (docs/api.md "Book checksum"), an unsigned decimal integer.',
    example: "3724392881",
  }),
};
const bookVersionTime = {
  "Book-Version-Time": z.string().meta({
    description: "When that version was made: ISO 8601, UTC, microseconds. Absent for version 0 (the book never changed).",
    example: "2026-01-01T12:00:00.123456Z",
  }),
};

/** A 200 whose book's version and checksum travel in headers (the body stays the book). */
function withBookHeaders(responses: ZodOpenApiResponsesObject, extra: Record<string, z.ZodType> = {}): ZodOpenApiResponsesObject {
  const ok200 = responses["200"] as unknown as { headers: z.ZodObject };
  const ok304 = responses["304"] as unknown as { headers: z.ZodObject };
  return {
    ...responses,
    "200": { ...ok200, headers: ok200.headers.extend({ ...bookHeaders, ...extra }) },
    "304": { ...ok304, headers: ok304.headers.extend({ ...bookHeaders, ...extra }) },
  } as unknown as ZodOpenApiResponsesObject;
}

function pastBookOperation(kind: "at" | "changes", by: "id" | "slug"): ZodOpenApiOperationObject {
  const at = kind === "at";
  return {
    operationId: `${at ? "getOrderBookAt" : "listOrderBookChanges"}${by === "id" ? "" : "BySlug"}`,
    tags: ["Order book"],
    summary: at ? `Order book of one outcome at a past moment, market by ${by}` : `Changes of one outcome's order book, market by ${by}`,
    description: at
      ? "The book as GET …/orderbook answered it at `ts`, with the version then in force and its time in headers. " +
        "Once a later version exists the answer can never change: `Cache-Control: public, max-age=31536000, immutable`; " +
        "otherwise it is the live book, cached like it. A moment the record cannot answer for (before it began, past its " +
        "retention, or while it was switched off) is a 404. Unknown query parameters are rejected with 400."
      : 'The book\'s versions in order, each with the levels it changed (shares "0.00": gone) or, with replace, the whole book; ' +
        "from `fromVersion` (inclusive) or from the first version at or after `startTs`, up to `endTs`. " +
        `\`limit\` 1..${BOOK_CHANGES_MAX_LIMIT}; next_version continues. A page that is not the last never changes (immutable). ` +
        "A fromVersion the record no longer holds is a 404. Unknown query parameters are rejected with 400.",
    requestParams: { path: by === "id" ? idPath : slugPath, query: at ? orderBookAtQuery : bookChangesQuery, header: conditionalHeader },
    responses: {
      ...(at
        ? withBookHeaders(ok("The book at ts.", "book", orderBookSchema, camelOrderBookSchema), bookVersionTime)
        : ok("One page of changes, in version order.", "book", bookChangesSchema, camelBookChangesSchema)),
      "400": error(
        "ts, fromVersion, startTs, endTs or limit invalid, both or neither of fromVersion and startTs, an unknown parameter, or an outcome of another market.",
      ),
      "404": error(`Market not found: <${by}>, Outcome not found, or not recorded.`),
      "500": internal,
    },
  };
}

// Accept is not a parameter in OpenAPI (3.1 ignores one named so): the variant is the 200's second media type.
const conditionalHeader = z.object({
  "If-None-Match": z.string().optional().meta({ description: "An ETag from an earlier response: 304 when it is still current." }),
});

// The book and the history: one outcome's data, each at both of the market's addresses.
const OUTCOME_OPERATIONS = {
  book: {
    operationId: "getOrderBook",
    tag: "Order book",
    summary: "Order book of one outcome",
    description:
      "Native markets: resting limit orders only (never the rest of a market order), crossing levels netted first, " +
      "levels of 0.05 shares or less omitted. Mirrored markets (external_source set): the venue's book as received. " +
      "Unknown query parameters are ignored.",
    query: orderBookQuery,
    responses: withBookHeaders(ok("The book: bids highest first, asks lowest first.", "book", orderBookSchema, camelOrderBookSchema)),
    badRequest: "outcomeId missing or repeated, or the outcome belongs to another market.",
  },
  history: {
    operationId: "getPriceHistory",
    tag: "Price history",
    summary: "Price history of one outcome",
    description:
      `Closing (last trade) price per bucket of \`fidelity\` minutes, from filled and partially filled orders. ` +
      `Without startTs only the last ${HISTORY_DEFAULT_WINDOW_S / 86400} days are returned: startTs defaults to now minus ` +
      `${HISTORY_DEFAULT_WINDOW_S / 86400} days, not endTs minus ${HISTORY_DEFAULT_WINDOW_S / 86400} days, so an endTs older than that ` +
      `without a startTs gives an empty history. A request reads at most the ` +
      `${HISTORY_TRADE_CAP.toLocaleString("en")} most recent trades of the window, so a long range on a busy market is cut ` +
      `at its old end: repeat with a smaller endTs, keeping the same startTs, to go further back. Unknown query parameters are ignored.`,
    query: priceHistoryQuery,
    responses: ok("Points {t, p}, oldest first.", "history", priceHistorySchema, camelPriceHistorySchema),
    badRequest: "outcomeId missing or repeated, fidelity/startTs/endTs invalid, or the outcome belongs to another market.",
  },
} satisfies Record<
  string,
  { operationId: string; tag: string; summary: string; description: string; query: z.ZodType; responses: ZodOpenApiResponsesObject; badRequest: string }
>;

function outcomeOperation(kind: keyof typeof OUTCOME_OPERATIONS, by: "id" | "slug"): ZodOpenApiOperationObject {
  const op = OUTCOME_OPERATIONS[kind];
  return {
    operationId: by === "id" ? op.operationId : `${op.operationId}BySlug`,
    tags: [op.tag],
    summary: `${op.summary}, market by ${by}`,
    description: op.description,
    requestParams: { path: by === "id" ? idPath : slugPath, query: op.query, header: conditionalHeader },
    responses: {
      ...op.responses,
      "400": error(op.badRequest),
      "404": error(`Market not found: <${by}>, or Outcome not found.`),
      "500": internal,
    },
  };
}

// ---------------------------------------------------------------- candles (docs/api.md "Candles")

const CANDLES_DESCRIPTION =
  `OHLCV per interval of one outcome's trades, exact: open and close are the prices of the interval's first and last ` +
  `trade by (executed_at, id), volume the shares, notional Σ price × shares, trades their count. Intervals without trades ` +
  `are absent. Minutes, hours and days are aligned in UTC from the unix epoch, weeks start on Mondays 00:00 UTC. ` +
  `The window is every interval that overlaps [startTs, endTs], each whole; by default the last ${CANDLE_LIMIT.toLocaleString("en")} ` +
  `intervals, the current one included. A longer window is cut to its newest ${CANDLE_LIMIT.toLocaleString("en")} intervals ` +
  "and next_end_ts says where the rest continues (repeat with endTs = next_end_ts and the same startTs). " +
  "The same for live, resolved and cancelled markets. Unknown query parameters are rejected with 400 (`property <name> should not exist`).";

function candlesOperation(by: "id" | "slug"): ZodOpenApiOperationObject {
  return {
    operationId: by === "id" ? "getCandles" : "getCandlesBySlug",
    tags: ["Candles"],
    summary: `Candles (OHLCV) of one outcome, market by ${by}`,
    description: CANDLES_DESCRIPTION,
    requestParams: { path: by === "id" ? idPath : slugPath, query: candlesQuery, header: conditionalHeader },
    responses: {
      ...ok("The candles, oldest first.", "history", candlesSchema, camelCandlesSchema),
      "400": error("outcomeId missing or repeated, interval/startTs/endTs invalid, an unknown parameter, or the outcome belongs to another market."),
      "404": error(`Market not found: <${by}>, or Outcome not found.`),
      "500": internal,
    },
  };
}

function marketOperation(by: "id" | "slug"): ZodOpenApiOperationObject {
  return {
    operationId: by === "id" ? "getMarket" : "getMarketBySlug",
    tags: ["Markets"],
    summary: `One market by ${by}`,
    description: "A market in any state, with its outcomes, up to 50 comments and the top traders.",
    requestParams: { path: by === "id" ? idPath : slugPath, header: conditionalHeader },
    responses: {
      ...ok("The market.", "market", marketDetailSchema, camelMarketDetailSchema),
      "404": error(`Market not found: <${by}>.`),
      "500": internal,
    },
  };
}

// ---------------------------------------------------------------- trade tape and batches (docs/api.md "Trades", "Batches")

function tradesOperation(by: "id" | "slug"): ZodOpenApiOperationObject {
  return {
    operationId: by === "id" ? "listTrades" : "listTradesBySlug",
    tags: ["Trades"],
    summary: `Trade tape of a market, market by ${by}`,
    description:
      "The market's trades (or one outcome's), newest first by executed_at then id, paged by an opaque keyset cursor: " +
      "each page costs the same at any depth, and walking back with next_cursor sees every trade once, however many " +
      "arrive meanwhile. For what came since a page, pass its newest_cursor as `after`. " +
      `\`limit\` 1..${TRADES_MAX_LIMIT}. Unknown query parameters are rejected with 400 (\`property <name> should not exist\`).`,
    requestParams: { path: by === "id" ? idPath : slugPath, query: tradesQuery, header: conditionalHeader },
    responses: {
      ...ok("One page of the tape.", "trades", tradeTapeSchema, camelTradeTapeSchema),
      "400": error("An unknown parameter, limit out of range, a malformed cursor, before with after, or an outcome of another market."),
      "404": error(`Market not found: <${by}>, or Outcome not found.`),
      "500": internal,
    },
  };
}

function batchOperation(
  operationId: string,
  tag: string,
  single: string,
  query: typeof orderBooksQuery | typeof pricesHistoryBatchQuery | typeof candlesBatchQuery,
  policy: CachePolicy,
  primary: z.ZodType,
  camel: z.ZodType,
): ZodOpenApiOperationObject {
  return {
    operationId,
    tags: [tag],
    summary: `${single} of up to ${BATCH_MAX_IDS} outcomes`,
    description:
      `One item per distinct id of \`outcomeIds\`, in the order of first appearance, each holding exactly what the single ` +
      `endpoint answers for that outcome, or null with the error it would have answered (an unknown id: 404 Outcome not found) ` +
      `without failing the others. The rate limit charges one request per distinct id. Unknown query parameters are rejected with 400.`,
    requestParams: { query, header: conditionalHeader },
    responses: {
      ...ok("One item per distinct outcome id.", policy, primary, camel),
      "400": error(
        `outcomeIds missing, repeated, with a malformed id or more than ${BATCH_MAX_IDS} distinct ids; another parameter out of its rule; an unknown parameter.`,
      ),
      "500": internal,
    },
  };
}

// ---------------------------------------------------------------- markets feed (docs/api.md "Markets feed")

const marketChangesOperation: ZodOpenApiOperationObject = {
  operationId: "listMarketChanges",
  tags: ["Markets"],
  summary: "Markets feed: every market in the order of its last change",
  description:
    "Keeps a copy of the whole catalogue exact without offset pages. Every market (any status) has the position of its last " +
    "change (created, a status, a resolution, a field or a price it shows); a deleted market stays as `deleted: true, market: null`. " +
    "A page holds the markets whose position is after `since`, ascending, each once, as GET /v1/markets lists it. Start at " +
    "`since=0` and pass each page's `next` as the next `since`: while `more` is true ask again at once; once it is false your copy " +
    "holds every market, and polling from `next` (or the `markets` push channel) keeps it so. A market that changes while you " +
    "page comes again further on. Positions only grow; the same on every instance. " +
    `\`limit\` 1..${MARKET_CHANGES_MAX_LIMIT}. Not kept in memory: \`Cache-Control: ${CACHE_POLICIES.feed}\` with an ETag (send If-None-Match for a 304). ` +
    "Unknown query parameters are rejected with 400 (`property <name> should not exist`).",
  requestParams: { query: marketChangesQuery, header: conditionalHeader },
  responses: {
    ...ok("One page of changes, in position order.", "feed", marketChangesSchema, camelMarketChangesSchema),
    "400": error("since or limit not an integer in range, given twice, or an unknown parameter; message is an array with one string per problem."),
    "500": internal,
  },
};

// ---------------------------------------------------------------- exports (docs/api.md "Exports")

const camelExportIndexSchema = z.object({
  exports: z.array(exportIndex.shape.exports.element.omit({ written_at: true }).extend({ writtenAt: z.string() })),
}) satisfies z.ZodType<ReturnType<typeof camelExportIndex>>;

const exportOperations = {
  "/v1/exports": {
    get: {
      operationId: "listExports",
      tags: ["Exports"],
      summary: "Index of the daily Parquet exports",
      description:
        "Every file written, by day then dataset: its rows, bytes, SHA-256 (also its ETag), URL, and whether the day is " +
        "complete (closed, immutable) or partial (the current UTC day, written again every few minutes). Optional filters " +
        "`dataset`, `from`, `to` (days, inclusive); any other parameter is rejected with 400. Each `url` " +
        "(`/v1/exports/{dataset}/{day}.parquet`) is the file itself, not JSON and so not an operation of this document: " +
        '`application/vnd.apache.parquet`, ZSTD, schemas in the API docs ("Exports"); a strong ETag (the sha256), Range ' +
        "(206, 416), If-Range, If-None-Match (304) and HEAD per RFC 9110; a closed day `public, max-age=31536000, immutable`, " +
        "the current day `public, max-age=60`; rate limited by bytes as well as requests.",
      requestParams: { query: exportIndexQuery, header: conditionalHeader },
      responses: {
        ...ok("The index.", "list", exportIndex, camelExportIndexSchema),
        "400": error("An unknown parameter, an unknown dataset, a malformed day, or from after to."),
        "500": internal,
      },
    },
  },
} satisfies Record<string, { get: ZodOpenApiOperationObject }>;

function buildDocument() {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Prediction markets – public read API",
      version: "1.0.0",
      description: [
        "Public, read-only market data: markets, outcomes, order books, price history and trades. No authentication.",
        "",
        `**Two shapes.** The primary shape uses snake_case keys. Send \`Accept: ${CAMEL_MEDIA_TYPE}\` for the camelCase`,
        "variant: camelCase keys, quantities (spread, totalVolume, totalLiquidity, platformFee, topTraders[].volume) as",
        "decimal strings, outcome probability as a 0..1 string, order book keys outcomeId/outcomeSide. Its responses carry",
        `\`Content-Type: ${CAMEL_MEDIA_TYPE}\`. Error bodies are the same in both (application/json).`,
        "",
        '**Caching.** Every 200 carries a weak ETag (`W/"…"`), one per variant and the same for its gzip and identity encodings;',
        "send it back in If-None-Match to get a 304. Cache-Control allows",
        `shared caches to keep lists and markets briefly (\`${CACHE_POLICIES.list}\`), books and history for less`,
        `(\`${CACHE_POLICIES.book}\`, \`${CACHE_POLICIES.history}\`), the trade tape \`${CACHE_POLICIES.trades}\`; the markets feed is \`${CACHE_POLICIES.feed}\`. Errors are \`${CACHE_POLICIES.error}\`.`,
        "Every response varies by Accept.",
        "",
        "**CORS.** Any origin may GET /v1 (Access-Control-Allow-Origin: *); ETag, Book-Version, Book-Checksum and Book-Version-Time are exposed to scripts.",
        "",
        "**TypeScript client.** `@markets/client` (packages/client in this service's repository) is generated from this",
        "document: every operation in both shapes, typed errors, ETag revalidation, a paginator and a cursor walker, and",
        "live books over the push channels. Install and example: the repository's README, section “Use from TypeScript”.",
        "",
        "**Streams.** `GET /v1/stream?channels=…` sends the push channels as server-sent events (`text/event-stream`), each",
        "event's id its position, resumable with Last-Event-ID or `since`; rate limited, strict query, the API's 4xx. A",
        "stream is not a request and answer, so it is not an operation here: its events, and the Socket.IO channels, are",
        "the AsyncAPI document at /v1/asyncapi.json.",
        "",
        "This document itself is served at /v1/openapi.json.",
      ].join("\n"),
    },
    servers: [{ url: "/", description: "This server" }],
    tags: [
      { name: "Markets", description: "The market list and single markets." },
      { name: "Order book", description: "The book of one outcome." },
      { name: "Price history", description: "Bucketed last-trade prices of one outcome." },
      { name: "Trades", description: "The trade tape of a market or one outcome." },
      { name: "Candles", description: "OHLCV candles of one outcome, or of up to 50 at once." },
      { name: "Exports", description: "Daily Apache Parquet files of trades, book changes, 1-minute candles and markets." },
    ],
    paths: {
      "/v1/markets": {
        get: {
          operationId: "listMarkets",
          tags: ["Markets"],
          summary: "List markets",
          description:
            "Filtered, sorted, offset-paginated. Only ACTIVE, RESOLVED or CANCELLED markets are listed. " +
            "Any query parameter not listed here is rejected with 400 (`property <name> should not exist`).",
          requestParams: { query: marketListQueryObject, header: conditionalHeader },
          responses: {
            ...ok("One page of markets.", "list", marketListResponseSchema, camelMarketListResponseSchema),
            "400": error("An unknown parameter, or a parameter out of its rules; message is an array with one string per problem."),
            "500": internal,
          },
        },
      },
      "/v1/markets/changes": { get: marketChangesOperation },
      "/v1/markets/{id}": { get: marketOperation("id") },
      "/v1/markets/slug/{slug}": { get: marketOperation("slug") },
      "/v1/markets/{id}/orderbook": { get: outcomeOperation("book", "id") },
      "/v1/markets/slug/{slug}/orderbook": { get: outcomeOperation("book", "slug") },
      "/v1/markets/{id}/orderbook/at": { get: pastBookOperation("at", "id") },
      "/v1/markets/slug/{slug}/orderbook/at": { get: pastBookOperation("at", "slug") },
      "/v1/markets/{id}/orderbook/changes": { get: pastBookOperation("changes", "id") },
      "/v1/markets/slug/{slug}/orderbook/changes": { get: pastBookOperation("changes", "slug") },
      "/v1/markets/{id}/prices-history": { get: outcomeOperation("history", "id") },
      "/v1/markets/slug/{slug}/prices-history": { get: outcomeOperation("history", "slug") },
      "/v1/markets/{id}/trades": { get: tradesOperation("id") },
      "/v1/markets/slug/{slug}/trades": { get: tradesOperation("slug") },
      "/v1/orderbooks": {
        get: batchOperation("getOrderBooks", "Order book", "Order books", orderBooksQuery, "book", orderBooksResponseSchema, camelOrderBooksResponseSchema),
      },
      "/v1/prices-history": {
        get: batchOperation(
          "getPriceHistories",
          "Price history",
          "Price histories",
          pricesHistoryBatchQuery,
          "history",
          pricesHistoryBatchResponseSchema,
          camelPricesHistoryBatchResponseSchema,
        ),
      },
      "/v1/markets/{id}/candles": { get: candlesOperation("id") },
      "/v1/markets/slug/{slug}/candles": { get: candlesOperation("slug") },
      "/v1/candles": {
        get: batchOperation("getCandlesBatch", "Candles", "Candles", candlesBatchQuery, "history", candlesBatchSchema, camelCandlesBatchSchema),
      },
      ...exportOperations,
    },
  });
}

let cached: ReturnType<typeof buildDocument> | undefined;

/** Built once per process: the schemas do not change at run time. */
export function openApiDocument() {
  return (cached ??= buildDocument());
}

let cachedJson: Json | undefined;

/** The document as GET /v1/openapi.json writes it: its text and ETag made once (lib/cache/representation.ts). */
export function openApiJson(): Json {
  return (cachedJson ??= Json.ofText(JSON.stringify(openApiDocument())));
}
