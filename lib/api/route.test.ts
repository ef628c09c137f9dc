import { describe, expect, it } from "vitest";
import { etagOf, ifNoneMatchHits, wantsCamel } from "./route";

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
