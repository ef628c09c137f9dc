import { describe, expect, it } from "vitest";
import { AREA_W } from "./price-area";
import { outcomeColor } from "./outcome-color";
import { outcomeLinePaths } from "./outcome-lines";

const xs = (d: string | null) =>
  (d ?? "")
    .replace(/^M/, "")
    .split("L")
    .map((xy) => Number(xy.split(",")[0]));

describe("all-outcomes chart SVG", () => {
  it("spaces every distinct time of any line one step apart, as the canvas chart's shared time scale", () => {
    const p = outcomeLinePaths([
      {
        id: "a",
        points: [
          { t: 100, p: 0.5 },
          { t: 300, p: 0.6 },
        ],
      },
      {
        id: "b",
        points: [
          { t: 200, p: 0.3 },
          { t: 300, p: 0.2 },
          { t: 400, p: 0.25 },
        ],
      },
    ])!;
    expect(xs(p.lines[0].d)).toEqual([0, (2 * AREA_W) / 3].map((x) => Number(x.toFixed(1))));
    expect(xs(p.lines[1].d)).toEqual([AREA_W / 3, (2 * AREA_W) / 3, AREA_W].map((x) => Number(x.toFixed(1))));
  });

  it("draws every line on one price scale", () => {
    const p = outcomeLinePaths([
      { id: "a", points: [{ t: 1, p: 0.9 }] },
      { id: "b", points: [{ t: 1, p: 0.1 }] },
    ])!;
    expect(p.y(0.9)).toBeCloseTo(0.1);
    expect(p.y(0.1)).toBeCloseTo(0.92);
  });

  it("a line without points is null; none at all draws nothing", () => {
    const p = outcomeLinePaths([
      { id: "a", points: [] },
      { id: "b", points: [{ t: 1, p: 0.4 }] },
    ])!;
    expect(p.lines[0].d).toBeNull();
    expect(xs(p.lines[1].d)).toEqual([0, AREA_W]); // a lone point: a level line
    expect(outcomeLinePaths([{ id: "a", points: [] }])).toBeNull();
  });

  it("an outcome without a colour gets one of the palette by its index", () => {
    expect(outcomeColor({ color: "#123456", index: 3 })).toBe("#123456");
    expect(outcomeColor({ color: null, index: 0 })).not.toBe(outcomeColor({ color: null, index: 1 }));
  });
});
