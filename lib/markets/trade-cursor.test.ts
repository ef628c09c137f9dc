import { describe, expect, it } from "vitest";
import { decodeTradeCursor, encodeTradeCursor } from "./trade-cursor";

describe("trade cursor", () => {
  it.each([
    [0n, "00000000-0000-0000-0000-000000000000"],
    [1_767_225_600_123_456n, "3f1c2a4e-8b7d-4c1e-9a2f-5d6e7f8a9b0c"],
    [-86_400_000_000n, "ffffffff-ffff-ffff-ffff-ffffffffffff"],
    [10n ** 17n, "d874dcdb-0000-43e6-8000-00bb6e03a307"],
  ])("round-trips %s µs and %s in 32 url-safe characters", (us, id) => {
    const s = encodeTradeCursor({ us, id });
    expect(s).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(decodeTradeCursor(s)).toEqual({ us, id });
  });

  it.each([
    ["empty", ""],
    ["too short", "AAAA"],
    ["too long", "A".repeat(33)],
    ["padding", `${"A".repeat(30)}==`],
    ["standard base64 alphabet", `${"A".repeat(31)}+`],
    ["µs beyond the range", encodeTradeCursor({ us: 10n ** 17n + 1n, id: "00000000-0000-0000-0000-000000000000" })],
    ["µs below the range", encodeTradeCursor({ us: -(10n ** 17n) - 1n, id: "00000000-0000-0000-0000-000000000000" })],
  ])("refuses %s", (_, s) => expect(decodeTradeCursor(s)).toBeNull());

  it("keeps microseconds that a JavaScript Date would lose", () => {
    const c = decodeTradeCursor(encodeTradeCursor({ us: 1_767_225_600_000_001n, id: "3f1c2a4e-8b7d-4c1e-9a2f-5d6e7f8a9b0c" }));
    expect(c?.us).toBe(1_767_225_600_000_001n);
  });
});
