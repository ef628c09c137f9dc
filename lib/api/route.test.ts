import { describe, expect, it } from "vitest";
import { packJson } from "@/lib/cache/json-shapes";
import { listPageOf } from "@/lib/markets/list-page";
import { etagOf, ifNoneMatchHits, json, representationOf, wantsCamel, writesRepresentation } from "./route";

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
    const text = JSON.stringify(page());
    expect(text).toBe(JSON.stringify({ markets: items, total: 2, limit: 20, offset: 0 }));
    const response = json(new Request("http://localhost/v1/markets"), page(), { cache: "list" });
    expect(response.headers.get("etag")).toBe(etagOf(text, "application/json"));
    expect(representationOf(response)!.body).toBe(text);
    expect(await response.text()).toBe(text); // a reader of the stream (Next's route handlers) gets the same
  });

  it("for a request whose caller writes the representation (the /v1 router), a Response without a body of its own", async () => {
    const text = JSON.stringify(page());
    for (const data of [page(), { plain: "string body ✓" }]) {
      const response = json(writesRepresentation(new Request("http://localhost/v1/markets")), data, { cache: "list" });
      expect(response.status).toBe(200);
      expect(response.body).toBeNull();
      expect(representationOf(response)!.body).toBe(JSON.stringify(data));
      expect(response.headers.get("etag")).toBe(json(new Request("http://localhost/v1/markets"), data, { cache: "list" }).headers.get("etag"));
    }
    // Unmarked, the same answer carries its body.
    expect(await json(new Request("http://localhost/v1/markets"), page(), { cache: "list" }).text()).toBe(text);
  });

  it("a page kept (its JSON as UTF-8 bytes) has the same ETag as the same page carried as text, and that body", async () => {
    const kept = listPageOf(items.map(packJson), 2, 20, 0, true);
    const response = json(new Request("http://localhost/v1/markets"), kept, { cache: "list" });
    const text = JSON.stringify(page());
    expect(response.headers.get("etag")).toBe(etagOf(text, "application/json"));
    const body = representationOf(response)!.body;
    expect(Buffer.isBuffer(body)).toBe(true);
    expect(body.toString()).toBe(text);
    expect(await response.text()).toBe(text);
  });

  it("a 304 for its ETag, and the camelCase variant from the parsed items", () => {
    const etag = json(new Request("http://localhost/v1/markets"), page(), { cache: "list" }).headers.get("etag")!;
    const again = json(new Request("http://localhost/v1/markets", { headers: { "if-none-match": etag } }), page(), { cache: "list" });
    expect(again.status).toBe(304);
    const camel = json(new Request("http://localhost/v1/markets", { headers: { accept: "application/vnd.markets.camel+json" } }), page(), {
      cache: "list",
      camel: (d: { markets: { id: string }[] }) => ({ ids: d.markets.map((m) => m.id) }),
    });
    expect(representationOf(camel)!.body).toBe('{"ids":["a","b"]}');
  });
});
