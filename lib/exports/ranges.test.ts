import { describe, expect, it } from "vitest";
import { decideRange, noneMatch, parseRanges } from "./ranges";

const file = { size: 1000, etag: '"abc"', lastModified: "Sat, 28 Nov 2026 20:00:00 GMT" };
const ask = (range: string | null, more: { ifNoneMatch?: string; ifRange?: string } = {}) =>
  decideRange({ range, ifNoneMatch: more.ifNoneMatch ?? null, ifRange: more.ifRange ?? null }, file);

describe("export file ranges (RFC 9110 §14)", () => {
  it.each([
    ["bytes=0-99", [[0, 99]]],
    ["bytes=900-", [[900, 999]]],
    ["bytes=-100", [[900, 999]]],
    ["bytes=-5000", [[0, 999]]],
    ["bytes=990-2000", [[990, 999]]],
    ["bytes=1000-", []],
    ["bytes=-0", []],
    [
      "bytes=0-1,5-9",
      [
        [0, 1],
        [5, 9],
      ],
    ],
    ["BYTES = 1-2", [[1, 2]]],
  ])("parses %s", (header, expected) => {
    expect(parseRanges(header, 1000)).toEqual(expected);
  });

  it.each(["items=0-1", "bytes=5-1", "bytes=a-b", "bytes=-", "bytes"])("ignores %s (not a range set it understands)", (header) => {
    expect(parseRanges(header, 1000)).toBeNull();
    expect(ask(header)).toEqual({ status: 200 });
  });

  it("answers one range with 206 and an unsatisfiable one with 416", () => {
    expect(ask("bytes=10-19")).toEqual({ status: 206, start: 10, end: 19 });
    expect(ask("bytes=1000-1200")).toEqual({ status: 416 });
  });

  it("coalesces overlapping and adjacent ranges, answers ranges that do not touch whole", () => {
    expect(ask("bytes=0-9,10-19,5-12")).toEqual({ status: 206, start: 0, end: 19 });
    expect(ask("bytes=0-9,20-29")).toEqual({ status: 200 });
  });

  it("If-None-Match with the ETag (weakly compared) is a 304 before any range", () => {
    expect(ask("bytes=0-9", { ifNoneMatch: 'W/"abc"' })).toEqual({ status: 304 });
    expect(ask(null, { ifNoneMatch: '"x", "abc"' })).toEqual({ status: 304 });
    expect(noneMatch("*", '"abc"')).toBe(true);
    expect(ask(null, { ifNoneMatch: '"other"' })).toEqual({ status: 200 });
  });

  it("If-Range: the range only while the strong ETag or the exact date is current", () => {
    expect(ask("bytes=0-9", { ifRange: '"abc"' })).toEqual({ status: 206, start: 0, end: 9 });
    expect(ask("bytes=0-9", { ifRange: file.lastModified })).toEqual({ status: 206, start: 0, end: 9 });
    expect(ask("bytes=0-9", { ifRange: '"old"' })).toEqual({ status: 200 });
    expect(ask("bytes=0-9", { ifRange: 'W/"abc"' })).toEqual({ status: 200 });
  });
});
