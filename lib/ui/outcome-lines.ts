// Geometry of the "All outcomes" chart's SVG (components/markets/outcome-lines-frame.tsx): one line per
// outcome over a shared time axis and price scale. As on the canvas chart, whose series share one time
// scale, every distinct time of any shown line is one evenly spaced step. Pure, unit-tested.
import type { PricePoint } from "@/lib/markets/schemas";
import { AREA_H, AREA_W, valueScale } from "./price-area";

export interface OutcomeSeries {
  id: string;
  points: PricePoint[];
}

/** Each series' line in viewBox units (null for one without points), the price ticks and y; null when no series has points. */
export function outcomeLinePaths(series: OutcomeSeries[]) {
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return null;
  const { ticks, y } = valueScale(all.map((p) => p.p));
  const times = [...new Set(all.map((p) => p.t))].sort((a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const step = times.length > 1 ? AREA_W / (times.length - 1) : 0;
  const lines = series.map(({ id, points }) => {
    if (points.length === 0) return { id, d: null };
    const xy = points.map((p) => `${((index.get(p.t) ?? 0) * step).toFixed(1)},${(y(p.p) * AREA_H).toFixed(1)}`);
    // A lone point is a level line to the right edge (the price has held since).
    if (points.length === 1) xy.push(`${AREA_W},${xy[0].split(",")[1]}`);
    return { id, d: `M${xy.join("L")}` };
  });
  return { lines, ticks, y };
}
