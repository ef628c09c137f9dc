// The OpenAPI document: valid 3.1, complete for every endpoint, in step with the zod schemas that
// validate the routes, and describing what the server really sends (checked with ajv, not with zod).
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { Validator } from "@seriousme/openapi-schema-validator";
import { CANDLE_INTERVALS, candlesQuery, marketListQuery, priceHistoryQuery } from "../../lib/markets/schemas";
import { expect, test } from "../fixtures";
import { CAMEL, endpointsOf } from "../support/api";
import { feedPosition, makeFullMarket, makeMarket, type FullMarket } from "../support/markets";

const PATHS = [
  "/v1/markets",
  "/v1/markets/changes",
  "/v1/markets/{id}",
  "/v1/markets/slug/{slug}",
  "/v1/markets/{id}/orderbook",
  "/v1/markets/slug/{slug}/orderbook",
  "/v1/markets/{id}/orderbook/at",
  "/v1/markets/slug/{slug}/orderbook/at",
  "/v1/markets/{id}/orderbook/changes",
  "/v1/markets/slug/{slug}/orderbook/changes",
  "/v1/markets/{id}/prices-history",
  "/v1/markets/slug/{slug}/prices-history",
  "/v1/markets/{id}/trades",
  "/v1/markets/slug/{slug}/trades",
  "/v1/orderbooks",
  "/v1/prices-history",
  "/v1/markets/{id}/candles",
  "/v1/markets/slug/{slug}/candles",
  "/v1/candles",
  "/v1/exports",
];
/** Never "not found" as a whole: the list, the markets feed, and the batches (an unknown id is reported in its item). */
const NO_404 = ["/v1/markets", "/v1/markets/changes", "/v1/orderbooks", "/v1/prices-history", "/v1/candles", "/v1/exports"];

type Doc = { openapi: string; paths: Record<string, { get: any }>; components: { schemas: Record<string, unknown> } };

let doc: Doc;
let ajv: InstanceType<typeof Ajv2020>;
const pointer = (...parts: string[]) => "openapi#/" + parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

test.beforeAll(async ({ request }) => {
  const res = await request.get("/v1/openapi.json");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  doc = await res.json();
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; "example" and the document's own keys are not keywords.
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi");
});

function expectConforms(template: string, status: string, mediaType: string, body: unknown) {
  const validate = ajv.compile({ $ref: pointer("paths", template, "get", "responses", status, "content", mediaType, "schema") });
  const ok = validate(body);
  expect(ok, `${template} ${status} ${mediaType}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

test("GET /v1/openapi.json – is a valid OpenAPI 3.1 document", async () => {
  const validator = new Validator();
  const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");
});

test("GET /v1/openapi.json – describes exactly our endpoints, each with both media types and error bodies", () => {
  expect(Object.keys(doc.paths).sort()).toEqual([...PATHS].sort());
  for (const path of PATHS) {
    const op = doc.paths[path].get;
    expect(op.operationId, path).toBeTruthy();
    expect(Object.keys(op.responses["200"].content).sort(), path).toEqual(["application/json", CAMEL]);
    // A book's version and checksum travel in headers (docs/api.md "Book versions"), a past book's time too.
    const bookHeaders = /\/orderbook$/.test(path)
      ? ["Book-Checksum", "Book-Version"]
      : /\/orderbook\/at$/.test(path)
        ? ["Book-Checksum", "Book-Version", "Book-Version-Time"]
        : [];
    expect(Object.keys(op.responses["200"].headers).sort(), path).toEqual(["Cache-Control", "ETag", "Vary", ...bookHeaders].sort());
    expect(op.responses["304"], path).toBeTruthy();
    // The list and the batches have no 404 (they are never "not found"); everything else has one.
    for (const status of NO_404.includes(path) ? ["400", "500"] : ["404", "500"]) {
      expect(op.responses[status]?.content["application/json"].schema, `${path} ${status}`).toEqual({ $ref: "#/components/schemas/ErrorBody" });
    }
    for (const name of path.match(/\{(\w+)\}/g) ?? []) {
      const param = op.parameters.find((p: any) => p.in === "path" && `{${p.name}}` === name);
      expect(param?.required, `${path} ${name}`).toBe(true);
    }
  }
  for (const path of PATHS.filter((p) => /\/\{(id|slug)\}\/(orderbook|prices-history|candles)$/.test(p))) {
    const outcomeId = doc.paths[path].get.parameters.find((p: any) => p.name === "outcomeId");
    expect(outcomeId, path).toMatchObject({ in: "query", required: true });
    expect(doc.paths[path].get.responses["400"], path).toBeTruthy();
  }
});

test("GET /v1/openapi.json – list parameters, defaults and limits agree with the schema that validates the route", () => {
  const params = Object.fromEntries(doc.paths["/v1/markets"].get.parameters.filter((p: any) => p.in === "query").map((p: any) => [p.name, p]));
  expect(Object.keys(params).sort()).toEqual(["category", "limit", "offset", "q", "sortBy", "sortOrder", "status", "subCategory"]);
  // The defaults the document announces are the ones the route applies to an empty query.
  const defaults = marketListQuery.parse({}) as Record<string, unknown>;
  for (const [name, p] of Object.entries<any>(params)) {
    if ("default" in p.schema) expect(p.schema.default, name).toEqual(defaults[name]);
  }
  expect(params.limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
  expect(params.offset.schema).toMatchObject({ type: "integer", minimum: 0, default: 0 });
  expect(params.sortBy.schema).toMatchObject({ default: "CREATED", enum: ["VOLUME", "LIQUIDITY", "CREATED", "TRENDING", "ENDING"] });
  expect(params.subCategory.schema.maxLength).toBe(50);
  expect(params.status.schema.enum).toEqual(["ACTIVE", "RESOLVED", "CANCELLED"]);
  // Each documented bound is where the route starts rejecting.
  const accepts = (q: Record<string, string>) => marketListQuery.safeParse(q).success;
  expect(accepts({ limit: String(params.limit.schema.maximum) })).toBe(true);
  expect(accepts({ limit: String(params.limit.schema.maximum + 1) })).toBe(false);
  expect(accepts({ limit: String(params.limit.schema.minimum - 1) })).toBe(false);
  expect(accepts({ subCategory: "x".repeat(params.subCategory.schema.maxLength) })).toBe(true);
  expect(accepts({ subCategory: "x".repeat(params.subCategory.schema.maxLength + 1) })).toBe(false);
  for (const status of ["LOCKED", "PENDING"]) expect(accepts({ status })).toBe(false);
});

test("GET /v1/openapi.json – price-history fidelity, startTs and endTs agree with the route's schema", () => {
  const params = Object.fromEntries(doc.paths["/v1/markets/{id}/prices-history"].get.parameters.map((p: any) => [p.name, p]));
  expect(params.fidelity.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 10080, default: 1 });
  const accepts = (q: Record<string, string>) => priceHistoryQuery.safeParse({ outcomeId: "x", ...q }).success;
  expect(accepts({ fidelity: String(params.fidelity.schema.maximum) })).toBe(true);
  expect(accepts({ fidelity: String(params.fidelity.schema.maximum + 1) })).toBe(false);
  expect(priceHistoryQuery.parse({ outcomeId: "x" }).fidelity).toBe(params.fidelity.schema.default);
  expect(params.startTs.schema).toMatchObject({ type: "integer", minimum: 0 });
  expect(params.endTs.schema).toMatchObject({ type: "integer", minimum: 0 });
});

test("GET /v1/openapi.json – candle interval, startTs and endTs agree with the route's schema; unknown parameters are a 400", () => {
  for (const path of ["/v1/markets/{id}/candles", "/v1/candles"]) {
    const params = Object.fromEntries(doc.paths[path].get.parameters.map((p: any) => [p.name, p]));
    expect(params.interval, path).toMatchObject({ in: "query", required: true, schema: { enum: [...CANDLE_INTERVALS] } });
    expect(params.startTs.schema, path).toMatchObject({ type: "integer", minimum: 0 });
    expect(params.endTs.schema, path).toMatchObject({ type: "integer", minimum: 0 });
    expect(doc.paths[path].get.description, path).toMatch(/[Uu]nknown query parameters are rejected with 400/);
  }
  expect(doc.paths["/v1/candles"].get.parameters.find((p: any) => p.name === "outcomeIds")).toMatchObject({ in: "query", required: true });
  const accepts = (q: Record<string, string>) => candlesQuery.safeParse({ outcomeId: "x", ...q }).success;
  for (const interval of CANDLE_INTERVALS) expect(accepts({ interval })).toBe(true);
  expect(accepts({ interval: "1h", foo: "1" })).toBe(false);
});

test.describe("real responses conform to the document", () => {
  let markets: FullMarket[];
  test.beforeAll(async ({ sql }) => {
    markets = [await makeFullMarket(sql), await makeFullMarket(sql, { status: "RESOLVED" }), await makeFullMarket(sql, { external: true })];
  });

  for (const [label, accept] of [
    ["primary", "application/json"],
    ["camelCase", CAMEL],
  ] as const) {
    test(`every endpoint – 200 bodies (${label}) match the document's response schemas`, async ({ request }) => {
      for (const m of markets) {
        for (const e of endpointsOf(m)) {
          const res = await request.get(e.url, { headers: { Accept: accept } });
          expect(res.status(), e.url).toBe(200);
          expect(res.headers()["content-type"], e.url).toContain(accept);
          const body = await res.json();
          if (e.kind === "list") expect(body.markets, e.url).toHaveLength(1);
          if (e.kind === "history") expect(body.history.length, e.url).toBeGreaterThan(0);
          if (e.kind === "trades") expect(body.trades.length, e.url).toBeGreaterThan(0);
          if (e.kind === "books" || e.kind === "histories" || e.kind === "candle-sets") expect(body.items, e.url).toHaveLength(2);
          if (e.kind === "candles") expect(body.candles.length, e.url).toBeGreaterThan(0);
          expectConforms(e.template, "200", accept, body);
        }
      }
    });
  }

  test("the markets feed – 200 bodies (both shapes) match the document, a deleted market's change included", async ({ request, sql }) => {
    const gone = await makeMarket(sql, { prefix: "openapi-gone" });
    await sql`DELETE FROM markets WHERE id = ${gone.id}`;
    const ids = [...markets.map((m) => m.id), gone.id];
    const since = Math.min(...(await Promise.all(ids.map((id) => feedPosition(sql, id))))) - 1;
    for (const accept of ["application/json", CAMEL]) {
      // Other specs write meanwhile: page on until the four are seen, each page checked.
      const deleted = new Map<string, boolean>();
      for (let from = Number(since); deleted.size < ids.length; ) {
        const res = await request.get(`/v1/markets/changes?since=${from}&limit=1000`, { headers: { Accept: accept } });
        expect(res.headers()["content-type"]).toContain(accept);
        const body = await res.json();
        expectConforms("/v1/markets/changes", "200", accept, body);
        for (const c of body.changes) if (ids.includes(c.id)) deleted.set(c.id, c.deleted);
        if (!body.more) break;
        from = body.next;
      }
      expect([...deleted.values()].sort()).toEqual([false, false, false, true]);
    }
  });

  test("error bodies of every endpoint match ErrorBody in both shapes", async ({ request }) => {
    const [m] = markets;
    const cases: [string, string, string][] = [
      ["/v1/markets", "400", "/v1/markets?limit=101&nope=1"],
      ["/v1/markets/changes", "400", "/v1/markets/changes?since=-1&nope=1"],
      ["/v1/markets/{id}", "404", "/v1/markets/not-a-uuid"],
      ["/v1/markets/slug/{slug}", "404", "/v1/markets/slug/no-such-market-anywhere"],
      ["/v1/markets/{id}/orderbook", "400", `/v1/markets/${m.id}/orderbook`],
      ["/v1/markets/slug/{slug}/orderbook", "404", `/v1/markets/slug/${m.slug}/orderbook?outcomeId=nope`],
      ["/v1/markets/{id}/prices-history", "400", `/v1/markets/${m.id}/prices-history?outcomeId=${m.outcomes[0]}&fidelity=0`],
      ["/v1/markets/slug/{slug}/prices-history", "404", `/v1/markets/slug/no-such-market-anywhere/prices-history?outcomeId=${m.outcomes[0]}`],
      ["/v1/markets/{id}/trades", "400", `/v1/markets/${m.id}/trades?before=nope`],
      ["/v1/markets/slug/{slug}/trades", "404", "/v1/markets/slug/no-such-market-anywhere/trades"],
      ["/v1/markets/{id}/orderbook/at", "400", `/v1/markets/${m.id}/orderbook/at?outcomeId=${m.outcomes[0]}&ts=x`],
      ["/v1/markets/slug/{slug}/orderbook/at", "404", `/v1/markets/slug/${m.slug}/orderbook/at?outcomeId=${m.outcomes[0]}&ts=1`],
      ["/v1/markets/{id}/orderbook/changes", "400", `/v1/markets/${m.id}/orderbook/changes?outcomeId=${m.outcomes[0]}`],
      ["/v1/markets/slug/{slug}/orderbook/changes", "404", `/v1/markets/slug/${m.slug}/orderbook/changes?outcomeId=nope&fromVersion=1`],
      ["/v1/orderbooks", "400", "/v1/orderbooks?outcomeIds=nope"],
      ["/v1/prices-history", "400", `/v1/prices-history?outcomeIds=${m.outcomes[0]}&fidelity=0`],
      ["/v1/markets/{id}/candles", "400", `/v1/markets/${m.id}/candles?outcomeId=${m.outcomes[0]}&interval=2h`],
      ["/v1/markets/slug/{slug}/candles", "404", `/v1/markets/slug/${m.slug}/candles?outcomeId=nope&interval=1h`],
      ["/v1/candles", "400", "/v1/candles?interval=1h"],
    ];
    for (const [template, status, url] of cases) {
      for (const accept of ["application/json", CAMEL]) {
        const res = await request.get(url, { headers: { Accept: accept } });
        expect(String(res.status()), url).toBe(status);
        expect(res.headers()["content-type"], url).toContain("application/json");
        expectConforms(template, status, "application/json", await res.json());
      }
    }
  });
});
