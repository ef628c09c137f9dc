import { describe, expect, it } from "vitest";
import { decimalString, unitProbability } from "./camel";

describe("unitProbability – percent with two decimals → exact 0..1 string with four", () => {
  it.each([
    [63.45, "0.6345"],
    [100, "1.0000"],
    [0, "0.0000"],
    [0.29, "0.0029"], // 0.29 / 100 in floating point is 0.0029000000000000002
    [50, "0.5000"],
    [33.33, "0.3333"],
    [99.99, "0.9999"],
  ])("%s → %s", (percent, expected) => expect(unitProbability(percent)).toBe(expected));
});

describe("decimalString – a JSON number as a plain decimal string", () => {
  it.each([
    [0.02, "0.02"],
    [1, "1"],
    [12345.678901, "12345.678901"],
    [0, "0"],
    [1e21, "1000000000000000000000"],
    [1e-7, "0.0000001"],
  ])("%s → %s", (n, expected) => expect(decimalString(n)).toBe(expected));

  it("never uses exponent notation and round-trips through Number", () => {
    for (const n of [123456789012345680000, 0.00000123, 5e-7, 98765.4321]) {
      const s = decimalString(n);
      expect(s).toMatch(/^-?\d+(\.\d+)?$/);
      expect(Number(s)).toBe(n);
    }
  });
});
