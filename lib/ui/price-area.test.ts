import { describe, expect, it } from "vitest";
import { AREA_H, AREA_W, areaPaths, priceScale } from "./price-area";

const pts = (ps: number[]) => ps.map((p, i) => ({ t: 1_700_000_000 + i * 3600, p }));
const coords = (d: string) =>
  d
    .replace(/^M/, "")
    .split(/[LZ]/)
    .filter(Boolean)
    .map((xy) => xy.split(",").map(Number));

describe("priceScale", () => {
  it("puts the highest price at the top margin and the lowest at the bottom margin", () => {
    const { y } = priceScale(pts([0.3, 0.7, 0.5]));
    expect(y(0.7)).toBeCloseTo(0.1);
    expect(y(0.3)).toBeCloseTo(0.92);
  });

  it("ticks fall on round cents inside the range, 2 to 5 of them", () => {
    const { ticks } = priceScale(pts([0.27, 0.64]));
    expect(ticks).toEqual([0.3, 0.4, 0.5, 0.6]);
    for (const points of [pts([0.5, 0.51]), pts([0.01, 0.99]), pts([0.431, 0.437])]) {
      const t = priceScale(points).ticks;
      expect(t.length).toBeGreaterThanOrEqual(2);
      expect(t.length).toBeLessThanOrEqual(5);
    }
  });

  it("gives a flat line room above and below instead of dividing by zero", () => {
    const { y, ticks } = priceScale(pts([0.5, 0.5, 0.5]));
    expect(y(0.5)).toBeGreaterThan(0.1);
    expect(y(0.5)).toBeLessThan(0.92);
    expect(ticks).toContain(0.5);
  });
});

describe("areaPaths", () => {
  it("spaces the points evenly across the box, one step per point, as the canvas chart does", () => {
    const paths = areaPaths(pts([0.2, 0.4, 0.6, 0.8, 0.6]));
    const xs = coords(paths?.line ?? "").map(([x]) => x);
    expect(xs).toEqual([0, 250, 500, 750, 1000]);
  });

  it("closes the area along the bottom edge", () => {
    const paths = areaPaths(pts([0.2, 0.4]));
    expect(paths?.area.endsWith(`L${AREA_W},${AREA_H}L0,${AREA_H}Z`)).toBe(true);
  });

  it("draws one point as a level line and nothing as null", () => {
    const one = coords(areaPaths(pts([0.4]))?.line ?? "");
    expect(one).toHaveLength(2);
    expect(one[0][1]).toBe(one[1][1]);
    expect(one[1][0]).toBe(AREA_W);
    expect(areaPaths([])).toBeNull();
  });
});
