// GET /v1/asyncapi.json: the AsyncAPI document of the push channels, served like /v1/openapi.json, valid as
// served, and describing what the server really sends: the events of a stream and of a socket, their acks and
// resets, each checked with ajv against the document's schema (lib/api/asyncapi.test.ts holds its content to
// the channels and the REST schemas).
import { DiagnosticSeverity, Parser } from "@asyncapi/parser";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Socket } from "socket.io-client";
import { expect, test, testRun } from "../fixtures";
import { connectClient, emitAck, waitFor } from "../realtime-helpers";
import { addOrder, addTrades, makeMarket } from "../support/markets";
import { openStream, type SseStream } from "../support/sse";

test.describe.configure({ mode: "serial" });

type Doc = { asyncapi: string; components: { schemas: Record<string, unknown> } };
let doc: Doc;
let ajv: InstanceType<typeof Ajv2020>;
const streams: SseStream[] = [];
const sockets: Socket[] = [];

test.beforeAll(async ({ request }) => {
  const res = await request.get("/v1/asyncapi.json");
  expect(res.status()).toBe(200);
  doc = await res.json();
  // The document's schemas are JSON Schema; "example" is no keyword of it.
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "asyncapi");
});
test.afterEach(() => {
  for (const s of streams.splice(0)) s.close();
  for (const s of sockets.splice(0)) s.disconnect();
});

function expectConforms(schema: string, value: unknown, what: string) {
  const validate = ajv.compile({ $ref: `asyncapi#/components/schemas/${schema}` });
  expect(validate(value), `${what} as ${schema}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`).toBe(true);
}

const SCHEMA_OF_EVENT: Record<string, string> = {
  price: "PriceEvent",
  orderbook: "OrderbookEvent",
  trades: "TradesEvent",
  market: "MarketEvent",
  heartbeat: "StreamHeartbeat",
  reset: "StreamReset",
};

test("GET /v1/asyncapi.json – answers 200 JSON: an AsyncAPI 3.0.0 document the reference parser accepts", async ({ request }) => {
  const res = await request.get("/v1/asyncapi.json");
  expect(res.headers()["content-type"]).toContain("application/json");
  const text = await res.text();
  expect(JSON.parse(text).asyncapi).toBe("3.0.0");
  const { diagnostics } = await new Parser().parse(text);
  expect(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => d.message)).toEqual([]);
});

test("asyncapi – every event of a stream, in both shapes, and its reset conform to the document", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "asyncapi-sse", status: "ACTIVE" });
  const channels = ["orderbook", "trades", "price"].map((k) => `market:${m.slug}:${k}`).concat("markets");
  const url = (extra: string) => `${testRun().baseURL}/v1/stream?channels=${encodeURIComponent(channels.join(","))}${extra}`;
  const [primary, camel] = await Promise.all([openStream(url("")), openStream(url("&shape=camel"))]);
  streams.push(primary, camel);
  await addOrder(sql, m, { price: "0.420", shares: "15.00" });
  await addTrades(sql, m, [{ price: "0.430" }]);
  for (const s of [primary, camel]) {
    await s.waitFor((ev) => ["orderbook", "trades", "price", "market"].every((n) => ev.some((e) => e.event === n)), 15_000, "one event of each kind");
  }
  for (const [shape, s] of [
    ["primary", primary],
    ["camel", camel],
  ] as const) {
    for (const e of s.events) {
      expect(SCHEMA_OF_EVENT[e.event], e.event).toBeDefined();
      expectConforms(SCHEMA_OF_EVENT[e.event], e.data, `${shape} ${e.event}`);
      expect(e.id, e.event).toBe(String(e.data.position)); // the id: field is the position
    }
  }
  // A position ahead of the newest cannot be replayed: a reset.
  const ahead = await openStream(url(""), { "Last-Event-ID": "9999999999999" });
  streams.push(ahead);
  await ahead.waitFor((ev) => ev.some((e) => e.event === "reset"), 10_000, "the reset");
  expectConforms("StreamReset", ahead.events.find((e) => e.event === "reset")!.data, "reset");
});

test("asyncapi – a socket's acks, live signals and replayed events conform to the document", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "asyncapi-io", status: "ACTIVE" });
  const channel = `market:${m.slug}:orderbook`;
  const socket = await connectClient(testRun().baseURL);
  sockets.push(socket);
  const got: Array<{ event: string; data: Record<string, unknown> }> = [];
  for (const event of ["orderbook", "reset"]) socket.on(event, (data: Record<string, unknown>) => got.push({ event, data }));

  const ack = await emitAck(socket, "join", { channel });
  expectConforms("JoinAck", ack, "join ack");
  await addOrder(sql, m, { price: "0.410" });
  await waitFor(() => got.some((g) => g.event === "orderbook"), 10_000, "a live orderbook signal");
  const live = got.find((g) => g.event === "orderbook")!.data;
  expectConforms("OrderbookEvent", live, "live signal");
  expectConforms("LeaveAck", await emitAck(socket, "leave", { channel }), "leave ack");

  // Back from the position before that change: it is replayed, then acked with the position reached.
  got.length = 0;
  const resumed = await emitAck(socket, "join", { channel, since: (live.position as number) - 1 });
  expectConforms("JoinAck", resumed, "resumed join ack");
  const replayed = got.filter((g) => g.data.replay === true);
  expect(replayed.length).toBeGreaterThan(0);
  for (const r of replayed) expectConforms("OrderbookEvent", r.data, "replayed event");
  expectConforms("JoinAck", await emitAck(socket, "join", { channel: "market:NOPE:price" }), "refused join");

  // Past what can be replayed: a reset event for the channel and an ack that says so.
  got.length = 0;
  await emitAck(socket, "leave", { channel });
  const ahead = await emitAck(socket, "join", { channel, since: 9_999_999_999_999 });
  expectConforms("JoinAck", ahead, "reset join ack");
  const reset = got.find((g) => g.event === "reset");
  expect(reset, "the reset event").toBeDefined();
  expectConforms("ChannelReset", reset!.data, "reset");
});
