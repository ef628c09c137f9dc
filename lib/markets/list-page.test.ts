import { describe, expect, it } from "vitest";
import { JSON_PARTS, JSON_TEXT, jsonPartsOf, jsonTextOf } from "@/lib/cache/json-text";
import { offHeapBytes } from "@/lib/cache/response-cache";
import { listPageOf } from "./list-page";

const item = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, question: `Will "${id}" pass?\n`, probability: 0.5, outcomes: [{ id: `${id}-o`, name: "Yes ✓ 東京 🚀" }], ...extra });
const bytes = (text: string) => offHeapBytes(text);
const textOf = (page: unknown) => {
  const parts = jsonPartsOf(page);
  expect(parts).toBeDefined();
  return Buffer.concat(parts!).toString("utf8");
};

describe("listPageOf", () => {
  it("carries exactly the UTF-8 of JSON.stringify of itself in pieces, its items' own bytes among them, parts skipped where null", () => {
    const page = listPageOf([bytes(item("a")), null, bytes(item("b", { tags: [] }))], 4200, 20, 40);
    expect(textOf(page)).toBe(JSON.stringify(page));
    expect(JSON.parse(textOf(page))).toEqual({
      markets: [JSON.parse(item("a")), JSON.parse(item("b", { tags: [] }))],
      total: 4200,
      limit: 20,
      offset: 40,
    });
    expect(Object.keys(page)).toEqual(["markets", "total", "limit", "offset"]);
    const a = bytes(item("a"));
    const pieces = jsonPartsOf(listPageOf([a], 1, 20, 0))!;
    expect(pieces[1]).toBe(a); // the item's bytes themselves, not a copy
    expect(jsonTextOf(page)).toBeUndefined(); // no string of the page: /v1 reads the pieces
  });

  it("an empty page, and a page of one", () => {
    const empty = listPageOf([], 0, 20, 100000);
    expect(textOf(empty)).toBe('{"markets":[],"total":0,"limit":20,"offset":100000}');
    expect(textOf(empty)).toBe(JSON.stringify(empty));
    const one = listPageOf([bytes(item("a"))], 1, 1, 0);
    expect(textOf(one)).toBe(JSON.stringify(one));
  });

  it("parses its items once, when read, and a spread copy is a plain value", () => {
    const page = listPageOf([bytes(item("a"))], 1, 20, 0);
    expect(page.markets).toBe(page.markets);
    expect(page.markets[0].outcomes[0].name).toBe("Yes ✓ 東京 🚀");
    const copy = { ...page };
    expect(copy.markets[0].id).toBe("a");
    expect(JSON_PARTS in copy).toBe(false);
    expect(JSON_TEXT in copy).toBe(false);
  });
});
