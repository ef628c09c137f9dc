import { describe, expect, it } from "vitest";
import { packJson } from "@/lib/cache/json-shapes";
import { JSON_BYTES, JSON_TEXT, jsonBytesOf, jsonTextOf } from "@/lib/cache/json-text";
import { listPageOf } from "./list-page";

const item = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  question: `Will "${id}" pass?\n`,
  probability: 0.5,
  outcomes: [{ id: `${id}-o`, name: "Yes ✓ 東京 🚀", description: null }],
  ...extra,
});
const textOf = (page: unknown) => {
  const text = jsonTextOf(page);
  expect(text).toBeDefined();
  return text!;
};

describe("listPageOf", () => {
  it("carries exactly JSON.stringify of itself, its items unpacked, parts skipped where null", () => {
    const page = listPageOf([packJson(item("a")), null, packJson(item("b", { tags: [] }))], 4200, 20, 40);
    expect(textOf(page)).toBe(JSON.stringify(page));
    expect(JSON.parse(textOf(page))).toEqual({ markets: [item("a"), item("b", { tags: [] })], total: 4200, limit: 20, offset: 40 });
    expect(textOf(page)).toBe(JSON.stringify({ markets: [item("a"), item("b", { tags: [] })], total: 4200, limit: 20, offset: 40 }));
    expect(Object.keys(page)).toEqual(["markets", "total", "limit", "offset"]);
    expect(textOf(page)).toBe(textOf(page)); // made once
  });

  it("an empty page, and a page of one", () => {
    const empty = listPageOf([], 0, 20, 100000);
    expect(textOf(empty)).toBe('{"markets":[],"total":0,"limit":20,"offset":100000}');
    expect(textOf(empty)).toBe(JSON.stringify(empty));
    const one = listPageOf([packJson(item("a"))], 1, 1, 0);
    expect(textOf(one)).toBe(JSON.stringify(one));
  });

  it("parses its items once, when read, and a spread copy is a plain value", () => {
    const page = listPageOf([packJson(item("a"))], 1, 20, 0);
    expect(page.markets).toBe(page.markets);
    expect(page.markets[0].outcomes[0].name).toBe("Yes ✓ 東京 🚀");
    const copy = { ...page };
    expect(copy.markets[0].id).toBe("a");
    expect(JSON_TEXT in copy).toBe(false);
  });

  it("a page kept for its key's next requests carries its JSON as UTF-8 bytes, made once, and no text", () => {
    const page = listPageOf([packJson(item("a")), null, packJson(item("b"))], 2, 20, 0, true);
    const bytes = jsonBytesOf(page);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes!.toString("utf8")).toBe(JSON.stringify(page));
    expect(jsonBytesOf(page)).toBe(bytes);
    expect(jsonTextOf(page)).toBeUndefined();
    expect(JSON_BYTES in { ...page }).toBe(false);
  });
});
