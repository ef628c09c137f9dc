import { describe, expect, it } from "vitest";
import { isSafeUrl, safeUrl } from "./urls";

describe("isSafeUrl – http(s) and relative URLs only", () => {
  it.each([
    ["https://cdn.example/a.png", true],
    ["http://cdn.example/a.png", true],
    ["HTTPS://CDN.EXAMPLE/A.PNG", true],
    ["/market-images/a.webp", true],
    ["market-images/a.webp", true],
    ["//cdn.example/a.png", true],
    ["", true],
    ["javascript:alert(1)", false],
    ["JavaScript:alert(1)", false],
    [" javascript:alert(1)", false],
    ["\u0001javascript:alert(1)", false],
    ["java\tscript:alert(1)", false],
    ["java\nscript:alert(1)", false],
    ["data:image/svg+xml,<svg onload=alert(1)>", false],
    ["vbscript:msgbox(1)", false],
    ["file:///etc/passwd", false],
    ["ftp://example.com/a.png", false],
    ["http://[::1", false],
  ])("%j → %s", (value, expected) => expect(isSafeUrl(value)).toBe(expected));

  it("safeUrl keeps safe values and nulls the rest", () => {
    expect(safeUrl("https://x/a.png")).toBe("https://x/a.png");
    expect(safeUrl("javascript:alert(1)")).toBeNull();
    expect(safeUrl(null)).toBeNull();
  });
});

describe("isSafeUrl – the fast path for same-origin paths", () => {
  it.each([
    ["/a", true],
    ["/\\evil.example/x", true], // a browser reads it as //evil.example: still https, the parse decides
    ["//evil.example/x", true],
  ])("%j → %s", (value, expected) => expect(isSafeUrl(value)).toBe(expected));
});
