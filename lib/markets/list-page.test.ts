import { describe, expect, it } from "vitest";
import { packJson } from "@/lib/cache/json-shapes";
import type { Json } from "@/lib/cache/representation";
import { listPageOf } from "./list-page";

const item = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  question: `Will "${id}" pass?\n`,
  probability: 0.5,
  outcomes: [{ id: `${id}-o`, name: "Yes ✓ 東京 🚀", description: null }],
  ...extra,
});
const textOf = (page: Json) => {
  const text = page.text;
  expect(typeof text).toBe("string");
  return text as string;
};

describe("listPageOf", () => {
  it("carries exactly JSON.stringify of its value, its items unpacked, parts skipped where null", () => {
    const page = listPageOf([packJson(item("a")), null, packJson(item("b", { tags: [] }))], 4200, 20, 40);
    expect(textOf(page)).toBe(JSON.stringify(page.value));
    expect(JSON.parse(textOf(page))).toEqual({ markets: [item("a"), item("b", { tags: [] })], total: 4200, limit: 20, offset: 40 });
    expect(textOf(page)).toBe(JSON.stringify({ markets: [item("a"), item("b", { tags: [] })], total: 4200, limit: 20, offset: 40 }));
    expect(Object.keys(page.value)).toEqual(["markets", "total", "limit", "offset"]);
    expect(textOf(page)).toBe(textOf(page)); // made once
  });

  it("an empty page, and a page of one", () => {
    const empty = listPageOf([], 0, 20, 100000);
    expect(textOf(empty)).toBe('{"markets":[],"total":0,"limit":20,"offset":100000}');
    expect(textOf(empty)).toBe(JSON.stringify(empty.value));
    const one = listPageOf([packJson(item("a"))], 1, 1, 0);
    expect(textOf(one)).toBe(JSON.stringify(one.value));
  });

  it("parses its items once, when read, into a frozen value that no one can change from under its text", () => {
    const page = listPageOf([packJson(item("a"))], 1, 20, 0).value;
    expect(page.markets).toBe(page.markets);
    expect(page.markets[0].outcomes[0].name).toBe("Yes ✓ 東京 🚀");
    expect(Object.isFrozen(page)).toBe(true);
    expect(Object.isFrozen(page.markets[0].outcomes[0])).toBe(true);
    expect(() => {
      (page as { total: number }).total = 2;
    }).toThrow(TypeError);
    const copy = { ...page };
    expect(copy.markets[0].id).toBe("a");
  });

  it("a page kept for its key's next requests carries its JSON as UTF-8 bytes, made once", () => {
    const page = listPageOf([packJson(item("a")), null, packJson(item("b"))], 2, 20, 0, true);
    expect(page.hasText).toBe(false);
    const bytes = page.text;
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes.toString("utf8")).toBe(JSON.stringify(page.value));
    expect(page.text).toBe(bytes);
  });
});
