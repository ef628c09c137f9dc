import { describe, expect, it } from "vitest";
import { JSON_TEXT, jsonTextOf } from "@/lib/cache/json-text";
import { listPageOf } from "./list-page";

const item = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, question: `Will "${id}" pass?\n`, probability: 0.5, outcomes: [{ id: `${id}-o`, name: "Yes ✓" }], ...extra });

describe("listPageOf", () => {
  it("carries exactly JSON.stringify of itself, parts skipped where null", () => {
    const page = listPageOf([item("a"), null, item("b", { tags: [] })], 4200, 20, 40);
    expect(jsonTextOf(page)).toBe(JSON.stringify(page));
    expect(JSON.parse(jsonTextOf(page)!)).toEqual({
      markets: [JSON.parse(item("a")), JSON.parse(item("b", { tags: [] }))],
      total: 4200,
      limit: 20,
      offset: 40,
    });
    expect(Object.keys(page)).toEqual(["markets", "total", "limit", "offset"]);
  });

  it("an empty page", () => {
    const page = listPageOf([], 0, 20, 100000);
    expect(jsonTextOf(page)).toBe('{"markets":[],"total":0,"limit":20,"offset":100000}');
    expect(jsonTextOf(page)).toBe(JSON.stringify(page));
  });

  it("parses its items once, when read, and a spread copy is a plain value", () => {
    const page = listPageOf([item("a")], 1, 20, 0);
    expect(page.markets).toBe(page.markets);
    const copy = { ...page };
    expect(copy.markets[0].id).toBe("a");
    expect(JSON_TEXT in copy).toBe(false);
  });
});
