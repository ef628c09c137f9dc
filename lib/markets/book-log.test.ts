import { describe, expect, test } from "vitest";
import { applyChange, changeOf, parseLevels, rebuildBook } from "./book-log";

describe("book log", () => {
  test("parses the stored form: bids then asks, each in the order stored, printed with 3 and 2 decimals", () => {
    expect(parseLevels("b 0.500 12.00,b 0.490 1.5,a 0.510 3.00")).toEqual({
      bids: [
        { price: "0.500", shares: "12.00" },
        { price: "0.490", shares: "1.50" },
      ],
      asks: [{ price: "0.510", shares: "3.00" }],
    });
    expect(parseLevels("")).toEqual({ bids: [], asks: [] });
  });

  test("a change lists its levels in the served order, removals as 0.00", () => {
    expect(changeOf({ version: 7, at: "2026-01-01T00:00:00.000001Z", replace: false, levels: "b 0.400 0.00,b 0.450 2.00,a 0.600 1.00,a 0.550 0.00" })).toEqual({
      version: 7,
      at: "2026-01-01T00:00:00.000001Z",
      replace: false,
      bids: [
        { price: "0.450", shares: "2.00" },
        { price: "0.400", shares: "0.00" },
      ],
      asks: [
        { price: "0.550", shares: "0.00" },
        { price: "0.600", shares: "1.00" },
      ],
    });
  });

  test.each([
    { name: "adds a level in its place", snapshot: "b 0.500 1.00,b 0.480 2.00", changes: ["b 0.490 3.00"], want: "b 0.500 1.00,b 0.490 3.00,b 0.480 2.00" },
    { name: "changes a level's shares", snapshot: "b 0.500 1.00,a 0.520 2.00", changes: ["a 0.520 2.50"], want: "b 0.500 1.00,a 0.520 2.50" },
    { name: "removes a level at 0.00", snapshot: "b 0.500 1.00,a 0.520 2.00", changes: ["b 0.500 0.00"], want: "a 0.520 2.00" },
    {
      name: "applies changes in order",
      snapshot: "",
      changes: ["a 0.600 1.00", "a 0.600 0.00,a 0.610 2.00", "a 0.590 4.00"],
      want: "a 0.590 4.00,a 0.610 2.00",
    },
    {
      name: "a replacement is the whole book",
      snapshot: "b 0.500 1.00",
      changes: [{ replace: true, levels: "a 0.700 9.00,a 0.700 1.00" }],
      want: "a 0.700 9.00,a 0.700 1.00",
    },
    {
      name: "a snapshot alone is passed through as stored (a venue's repeated prices too)",
      snapshot: "a 0.700 9.00,a 0.700 1.00",
      changes: [],
      want: "a 0.700 9.00,a 0.700 1.00",
    },
  ])("rebuild: $name", ({ snapshot, changes, want }) => {
    const rows = changes.map((c) => (typeof c === "string" ? { replace: false, levels: c } : c));
    expect(rebuildBook(snapshot, rows)).toEqual(parseLevels(want));
  });

  test("applyChange is what a client replaying the changes does", () => {
    const book = parseLevels("b 0.500 1.00,a 0.520 2.00");
    expect(applyChange(book, { replace: false, ...parseLevels("b 0.510 1.00,a 0.520 0.00") })).toEqual(parseLevels("b 0.510 1.00,b 0.500 1.00"));
  });
});
