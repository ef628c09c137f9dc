import { describe, expect, it } from "vitest";
import { AREA_H, AREA_W } from "./price-area";
import { CANDLE_MARGINS, candlePaths, VOLUME_SHARE } from "./candle-area";

const candle = (open: number, high: number, low: number, close: number, volume = "10.000000") => ({ open, high, low, close, volume });
/** The numbers of a path, in order. */
const nums = (d: string) => (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);

describe("candle chart SVG", () => {
  it("draws rising and falling candles apart, evenly spaced by index", () => {
    const p = candlePaths([candle(0.4, 0.6, 0.3, 0.5), candle(0.5, 0.55, 0.2, 0.3), candle(0.3, 0.45, 0.3, 0.45)])!;
    // Wicks: M x,yHigh V yLow; the centres fall on (i + 0.5) of a third of the width.
    const upX = [...p.up.wick.matchAll(/M([\d.]+),/g)].map((m) => Number(m[1]));
    const downX = [...p.down.wick.matchAll(/M([\d.]+),/g)].map((m) => Number(m[1]));
    expect(upX).toEqual([AREA_W / 6, (5 * AREA_W) / 6].map((x) => Number(x.toFixed(1))));
    expect(downX).toEqual([Number((AREA_W / 2).toFixed(1))]);
  });

  it("puts the highest high at the top margin and the lowest low at the candles' bottom margin", () => {
    const p = candlePaths([candle(0.4, 0.6, 0.3, 0.5), candle(0.5, 0.55, 0.2, 0.3)])!;
    expect(p.y(0.6)).toBeCloseTo(CANDLE_MARGINS.top);
    expect(p.y(0.2)).toBeCloseTo(1 - CANDLE_MARGINS.bottom);
    const [, high, low] = nums(p.up.wick);
    expect(high).toBeCloseTo(p.y(0.6) * AREA_H, 0);
    expect(low).toBeCloseTo(p.y(0.3) * AREA_H, 0);
  });

  it("a body spans open to close; a flat one is still a visible dash", () => {
    const p = candlePaths([candle(0.4, 0.6, 0.3, 0.5), candle(0.45, 0.45, 0.45, 0.45)])!;
    const [, top, , h] = nums(p.up.body); // M x,top h w v h …
    expect(top).toBeCloseTo(p.y(0.5) * AREA_H, 0);
    expect(h).toBeCloseTo((p.y(0.4) - p.y(0.5)) * AREA_H, 0);
    const flat = nums(p.up.body.split("Z")[1]);
    expect(flat[3]).toBeGreaterThan(1);
  });

  it("scales volume bars to the largest, in the bottom fifth", () => {
    const p = candlePaths([candle(0.4, 0.5, 0.4, 0.5, "30.000000"), candle(0.5, 0.5, 0.4, 0.45, "15.000000")])!;
    const [, tallTop] = nums(p.up.volume);
    const [, shortTop] = nums(p.down.volume);
    expect(tallTop).toBeCloseTo(AREA_H * (1 - VOLUME_SHARE), 0);
    expect(shortTop).toBeCloseTo(AREA_H * (1 - VOLUME_SHARE / 2), 0);
  });

  it("no candles, no drawing", () => {
    expect(candlePaths([])).toBeNull();
  });
});
