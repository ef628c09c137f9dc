import { describe, expect, test } from "vitest";
import { parseWatchlist, safeBackPath, serializeWatchlist, starMarket, WATCHLIST_MAX } from "./watchlist";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("watchlist cookie", () => {
  test("parse – keeps UUIDs once each, lower-cased, in order; drops anything else", () => {
    expect(parseWatchlist(undefined)).toEqual([]);
    expect(parseWatchlist(`${id(1)},junk,${id(2).toUpperCase()},${id(1)},,`)).toEqual([id(1), id(2)]);
  });
  test(`parse – keeps at most ${WATCHLIST_MAX} ids`, () => {
    const many = Array.from({ length: WATCHLIST_MAX + 5 }, (_, i) => id(i));
    expect(parseWatchlist(many.join(","))).toEqual(many.slice(0, WATCHLIST_MAX));
  });
  test("a full list of 100 ids fits in one cookie (4,096 bytes with its name)", () => {
    const full = Array.from({ length: WATCHLIST_MAX }, (_, i) => id(i));
    expect(`watchlist=${serializeWatchlist(full)}`.length).toBeLessThan(4096);
  });
  test.each([
    { name: "stars a new market first", ids: [id(1)], want: true, out: { ids: [id(2), id(1)], starred: true, full: false } },
    { name: "unstars", ids: [id(1), id(2)], want: false, out: { ids: [id(1)], starred: false, full: false } },
    { name: "starring twice changes nothing", ids: [id(2)], want: true, out: { ids: [id(2)], starred: true, full: false } },
    { name: "unstarring an absent market changes nothing", ids: [id(1)], want: false, out: { ids: [id(1)], starred: false, full: false } },
    { name: "without want, flips", ids: [id(2)], want: undefined, out: { ids: [], starred: false, full: false } },
  ])("star – $name", ({ ids, want, out }) => {
    expect(starMarket(ids, id(2), want)).toEqual(out);
  });
  test("star – a full list refuses a new market and says so", () => {
    const full = Array.from({ length: WATCHLIST_MAX }, (_, i) => id(i + 10));
    expect(starMarket(full, id(1), true)).toEqual({ ids: full, starred: false, full: true });
    expect(starMarket(full, id(10), false).ids).toHaveLength(WATCHLIST_MAX - 1);
  });
  test.each([
    ["/?category=crypto#card-x", "/?category=crypto#card-x"],
    ["/markets/a", "/markets/a"],
    ["//evil.example/", "/watchlist"],
    ["/\\evil.example", "/watchlist"],
    ["https://evil.example/", "/watchlist"],
    ["/a\r\nSet-Cookie: x=1", "/watchlist"],
    [undefined, "/watchlist"],
  ])("back path – %s → %s", (back, out) => {
    expect(safeBackPath(back)).toBe(out);
  });
});
