import { describe, expect, it } from "vitest";
import { fixed, trimDecimal } from "./decimal";

describe("trimDecimal – trailing zeros dropped, at least the minimum scale kept", () => {
  it.each([
    ["20.500000", 2, "20.50"],
    ["10.000000", 2, "10.00"],
    ["1.123456", 2, "1.123456"],
    ["11.685000", 2, "11.685"],
    ["0.000001", 2, "0.000001"],
    ["7", 2, "7.00"],
    ["5.500000000", 2, "5.50"],
  ])("%s (min %i) → %s", (v, min, out) => expect(trimDecimal(v, min)).toBe(out));
});

describe("fixed – rounds half up to the scale", () => {
  it.each([
    ["0.55", 3, "0.550"],
    ["0.5555", 3, "0.556"],
    ["1", 3, "1.000"],
  ])("%s (scale %i) → %s", (v, scale, out) => expect(fixed(v, scale)).toBe(out));
});
