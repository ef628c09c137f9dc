import { describe, expect, it } from "vitest";
import { packJson } from "@/lib/cache/json-shapes";
import { listPageOf } from "@/lib/markets/list-page";
import { reportCacheResult } from "@/lib/cache/request-status";
import { etagOf, Json } from "@/lib/cache/representation";
import { ResponseCache } from "@/lib/cache/response-cache";
import { Answer, type ApiRouteHandler, ifNoneMatchHits, json, replyOf, representationIn, route, wantsCamel } from "./route";

const req = (accept?: string) => new Request("http://x/v1/markets", { headers: accept ? { accept } : {} });

describe("wantsCamel – the variant only when Accept names it with q > 0", () => {
  it.each([
    [undefined, false],
    ["application/json", false],
    ["*/*", false],
    ["application/vnd.markets.camel+json", true],
    ["Application/VND.markets.camel+JSON", true],
    ["application/json, application/vnd.markets.camel+json;q=0.9", true],
    ["application/vnd.markets.camel+json;q=0", false],
    ["application/vnd.markets.camel+json ; q=0.0", false],
  ])("%s → %s", (accept, expected) => expect(wantsCamel(req(accept))).toBe(expected));
});

describe("ifNoneMatchHits – weak comparison over a list", () => {
  const etag = etagOf("{}", "application/json");
  const opaque = etag.slice(2); // the quoted tag without W/
  it.each([
    [null, false],
    [etag, true],
    [opaque, true], // weak comparison: a strong tag with the same opaque value matches
    [`"a", ${etag}`, true],
    [`"a", ${opaque}`, true],
    ["*", true],
    ['"other"', false],
    ['W/"other"', false],
    [opaque.slice(1, -1), false], // unquoted is not the same tag
  ])("%s → %s", (header, expected) => expect(ifNoneMatchHits(header, etag)).toBe(expected));
});

describe("etagOf – weak, quoted, by bytes and media type", () => {
  it("is stable for the same bytes and differs by body and by media type", () => {
    expect(etagOf('{"a":1}', "application/json")).toBe(etagOf('{"a":1}', "application/json"));
    expect(etagOf('{"a":1}', "application/json")).not.toBe(etagOf('{"a":2}', "application/json"));
    expect(etagOf('{"a":1}', "application/json")).not.toBe(etagOf('{"a":1}', "application/vnd.markets.camel+json"));
    expect(etagOf("x", "application/json")).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
  });
});

describe("json – a list page put together from items kept packed", () => {
  const items = [
    { id: "a", question: "Zürich – 東京 🚀?" },
    { id: "b", tags: [] },
  ];
  const page = () => listPageOf(items.map(packJson), 2, 20, 0);

  it("carries its text: the ETag of JSON.stringify's text, a body of exactly that text", async () => {
    const text = JSON.stringify(page().value);
    expect(text).toBe(JSON.stringify({ markets: items, total: 2, limit: 20, offset: 0 }));
    const reply = replyOf(new Request("http://localhost/v1/markets"), page(), { cache: "list" });
    expect(reply.headers.get("etag")).toBe(etagOf(text, "application/json"));
    expect(representationIn(reply)!.body).toBe(text);
    expect(representationIn(reply)!.length).toBe(Buffer.byteLength(text));
    // A Response (Next's route handlers) has the same body.
    expect(await json(new Request("http://localhost/v1/markets"), page(), { cache: "list" }).text()).toBe(text);
  });

  it("a page kept (its JSON as UTF-8 bytes) has the same ETag as the same page carried as text, and that body", async () => {
    const kept = listPageOf(items.map(packJson), 2, 20, 0, true);
    const reply = replyOf(new Request("http://localhost/v1/markets"), kept, { cache: "list" });
    const text = JSON.stringify(page().value);
    expect(reply.headers.get("etag")).toBe(etagOf(text, "application/json"));
    const body = representationIn(reply)!.body;
    expect(Buffer.isBuffer(body)).toBe(true);
    expect(body.toString()).toBe(text);
    expect(await json(new Request("http://localhost/v1/markets"), kept, { cache: "list" }).text()).toBe(text);
  });

  it("a 304 for its ETag, and the camelCase variant from the parsed items", () => {
    const etag = replyOf(new Request("http://localhost/v1/markets"), page(), { cache: "list" }).headers.get("etag")!;
    const again = replyOf(new Request("http://localhost/v1/markets", { headers: { "if-none-match": etag } }), page(), { cache: "list" });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    const camel = replyOf(new Request("http://localhost/v1/markets", { headers: { accept: "application/vnd.markets.camel+json" } }), page(), {
      cache: "list",
      camel: (d: { markets: { id: string }[] }) => ({ ids: d.markets.map((m) => m.id) }),
    });
    expect(representationIn(camel)!.body).toBe('{"ids":["a","b"]}');
  });
});

describe("a changed answer is never written with an old body", () => {
  const CAMEL = "application/vnd.markets.camel+json";
  const camel = (d: { question: string }) => ({ q: d.question });
  // The read layer's shape: a response cache whose answers the request is told of (lib/markets/reads/cache.ts, `read`).
  const setup = () => {
    const cache = new ResponseCache({ maxBytes: 1_000_000, staleIfErrorMs: 0, canServeStale: () => false });
    cache.setLive(true);
    let market = { id: "m1", question: "Will it rain?", book: { bids: [0.4] } };
    const read = async () => {
      const result = await cache.get("market", ["market:m1"], async () => ({ value: market }));
      reportCacheResult(result);
      return result.value;
    };
    const change = (next: typeof market) => {
      market = next;
      cache.invalidate(["market:m1"]);
    };
    return { read, change };
  };
  const ask = async (handler: ApiRouteHandler<Record<string, string>>, accept?: string) => {
    const reply = await handler.reply(new Request("http://localhost/v1/x", { headers: accept ? { accept } : {} }), { params: Promise.resolve({}) });
    const rep = representationIn(reply)!;
    return { rep, body: rep.body.toString(), etag: reply.headers.get("etag") };
  };

  it("an answer returned as it was read is written from the Json it was read with, made once; a new answer gets a new body and ETag", async () => {
    const t = setup();
    const handler = route({ cache: "market", camel, offline: true }, t.read);
    const miss = await ask(handler);
    const hit = await ask(handler);
    expect(hit.body).toBe(miss.body);
    const again = await ask(handler);
    expect(again.rep).toBe(hit.rep); // the hot tier's Json: neither serialized nor hashed again
    expect((await ask(handler, CAMEL)).body).toBe('{"q":"Will it rain?"}');

    t.change({ id: "m1", question: "Will it snow?", book: { bids: [0.4] } });
    const changed = await ask(handler);
    expect(JSON.parse(changed.body).question).toBe("Will it snow?");
    expect(changed.etag).not.toBe(hit.etag);
    expect((await ask(handler, CAMEL)).body).toBe('{"q":"Will it snow?"}');
  });

  it("a handler cannot change what it read and have it written with the text it was read with", async () => {
    const t = setup();
    const mutating = route({ cache: "market", offline: true }, async () => {
      const m = await t.read();
      (m as { question: string }).question = "changed";
      return m;
    });
    await ask(route({ cache: "market", offline: true }, t.read)); // kept, then a hit parses it
    expect((await mutating.reply(new Request("http://localhost/v1/x"), { params: Promise.resolve({}) })).status).toBe(500);
    // A copy with a change is another value: written from itself.
    const copying = route({ cache: "market", offline: true }, async () => ({ ...(await t.read()), question: "copied" }));
    const copied = await ask(copying);
    expect(JSON.parse(copied.body).question).toBe("copied");
    expect(copied.etag).toBe(etagOf(copied.body, "application/json"));
  });

  it("a part of what was read (a versioned book's book) is written from the part, made once", async () => {
    const t = setup();
    const handler = route({ cache: "book", offline: true }, async () => new Answer((await t.read()).book, { "Book-Version": "1" }));
    await ask(handler);
    const first = await ask(handler);
    expect(first.body).toBe('{"bids":[0.4]}');
    expect((await ask(handler)).rep).toBe(first.rep);
    t.change({ id: "m1", question: "Will it rain?", book: { bids: [0.5] } });
    expect((await ask(handler)).body).toBe('{"bids":[0.5]}');
  });

  it("a Json has no other text than its value's, and its value cannot change", () => {
    const value = { a: [1, 2] };
    const j = Json.ofValue(value);
    expect(j.text).toBe('{"a":[1,2]}');
    expect(() => value.a.push(3)).toThrow(TypeError);
    const parsed = Json.ofText<{ a: number[] }>(Buffer.from('{"a":[1]}'));
    expect(() => parsed.value.a.push(2)).toThrow(TypeError);
    expect(parsed.representation("application/json").etag).toBe(etagOf('{"a":[1]}', "application/json"));
  });
});
