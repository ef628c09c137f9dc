// The AsyncAPI document of the push channels (docs/api.md "Push channels"): valid by the reference parser,
// complete for every channel, and built from the same schemas as the OpenAPI document.
import { DiagnosticSeverity, Parser } from "@asyncapi/parser";
import { beforeAll, describe, expect, it } from "vitest";
import { CHANNEL_KINDS } from "@/lib/events/channel-kinds";
import { MARKETS_CHANNEL } from "@/lib/realtime/channels";
import { CHANNEL_NAME_PATTERN } from "@/lib/realtime/payload-schemas";
import { STREAM_PATH } from "@/lib/realtime/payload-schemas";
import { asyncApiDocument, asyncApiJson } from "./asyncapi";
import { openApiDocument } from "./openapi";

type Parsed = NonNullable<Awaited<ReturnType<Parser["parse"]>>["document"]>;
type Doc = {
  asyncapi: string;
  servers: Record<string, { host: string }>;
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  operations: Record<string, { channel: { $ref: string }; messages: { $ref: string }[]; reply?: { channel: { $ref: string }; messages: { $ref: string }[] } }>;
  components: { schemas: Record<string, unknown> };
};

const doc = asyncApiDocument() as unknown as Doc;
const CHANGE_EVENT = (channel: string) => (channel === MARKETS_CHANNEL ? "market" : channel);
let parsed: Parsed;
const namesOf = (messages: { all: () => { name: () => string | undefined }[] }) => messages.all().map((m) => m.name());
const operation = (id: string) =>
  parsed
    .operations()
    .all()
    .find((o) => o.id() === id)!;
const idsOf = (servers: { all: () => { id: () => string }[] }) => servers.all().map((s) => s.id());

beforeAll(async () => {
  const { document, diagnostics } = await new Parser().parse(asyncApiJson().text as string);
  expect(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => `${d.path.join("/")}: ${d.message}`)).toEqual([]);
  parsed = document!;
}, 60_000);

describe("GET /v1/asyncapi.json – the AsyncAPI 3.0 document of the push channels", () => {
  it("is an AsyncAPI 3.0.0 document that @asyncapi/parser parses with no error", () => {
    expect(doc.asyncapi).toBe("3.0.0");
    expect(parsed.version()).toBe("3.0.0");
  });

  it("describes every channel kind and the markets channel on Socket.IO, each with its change event and reset, a market's with heartbeats", () => {
    for (const kind of [...CHANNEL_KINDS, MARKETS_CHANNEL]) {
      const address = kind === MARKETS_CHANNEL ? MARKETS_CHANNEL : `market:{slug}:${kind}`;
      const channel = parsed
        .channels()
        .all()
        .find((c) => c.address() === address);
      expect(channel, address).toBeDefined();
      expect(idsOf(channel!.servers())).toEqual(["socketio"]);
      const events = kind === MARKETS_CHANNEL ? [CHANGE_EVENT(kind), "reset"] : [CHANGE_EVENT(kind), "heartbeat", "reset"];
      expect(namesOf(channel!.messages()).sort(), address).toEqual(events.sort());
    }
  });

  it("describes GET /v1/stream: every change event with reset and heartbeat, its query and Last-Event-ID", () => {
    const stream = parsed
      .channels()
      .all()
      .find((c) => c.address() === STREAM_PATH)!;
    expect(idsOf(stream.servers())).toEqual(["sse"]);
    const events = [...CHANNEL_KINDS, MARKETS_CHANNEL].map(CHANGE_EVENT);
    expect(namesOf(stream.messages())).toEqual(expect.arrayContaining([...events, "reset", "heartbeat"]));
    const open = operation("openStream");
    expect(open.action()).toBe("receive");
    const http = open.bindings().get("http")!.value() as { method: string; query: { properties: Record<string, unknown> } };
    expect(http.method).toBe("GET");
    expect(Object.keys(http.query.properties).sort()).toEqual(["channels", "shape", "since"]);
    const request = open.messages().all()[0].bindings().get("http")!.value() as { headers: { properties: Record<string, unknown> } };
    expect(Object.keys(request.headers.properties)).toContain("Last-Event-ID");
    expect(namesOf(open.reply()!.messages()).sort()).toEqual([...events, "reset", "heartbeat"].sort());
  });

  it("describes join and leave on Socket.IO, each with its payload and its ack", () => {
    for (const id of ["join", "leave"]) {
      const op = operation(id);
      expect(op.action(), id).toBe("receive");
      expect(op.messages().all()[0].name()).toBe(id);
      expect(op.reply()!.messages().all()).toHaveLength(1);
    }
    const join = doc.components.schemas.JoinRequest as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(join.properties).sort()).toEqual(["channel", "since"]);
    expect(join.required).toEqual(["channel"]);
  });

  it("names only messages of an operation's own channel (and of its reply's)", () => {
    const inChannel = (channelRef: string, messageRef: string) => messageRef.startsWith(`${channelRef}/messages/`);
    for (const [id, op] of Object.entries(doc.operations)) {
      for (const m of op.messages) expect(inChannel(op.channel.$ref, m.$ref), `${id}: ${m.$ref}`).toBe(true);
      for (const m of op.reply?.messages ?? []) expect(inChannel(op.reply!.channel.$ref, m.$ref), `${id} reply: ${m.$ref}`).toBe(true);
    }
  });

  it("carries the book, the trade and the market list item exactly as the OpenAPI document describes them", () => {
    const openapi = openApiDocument().components?.schemas ?? {};
    for (const id of ["OrderBook", "CamelOrderBook", "BookLevel", "Trade", "CamelTrade", "MarketListItem", "CamelMarketListItem", "Outcome"]) {
      expect(doc.components.schemas[id], id).toEqual(openapi[id]);
    }
  });

  it("accepts exactly the channel names the server takes", () => {
    const re = new RegExp(CHANNEL_NAME_PATTERN);
    for (const kind of CHANNEL_KINDS) expect(re.test(`market:will-it-rain:${kind}`), kind).toBe(true);
    expect(re.test(MARKETS_CHANNEL)).toBe(true);
    for (const bad of ["market:Will:price", "market:x:candles", "markets:x", "market::price", ""]) expect(re.test(bad), bad).toBe(false);
  });

  it("names no host: both servers are the origin the document was fetched from, like /v1/openapi.json's '/'", () => {
    for (const server of Object.values(doc.servers)) expect(server.host).toBe("{host}");
  });
});
