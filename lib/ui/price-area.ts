// Geometry of the price chart's SVG area (components/markets/price-chart-frame.tsx): the y scale with
// its price ticks (shared by the candle and outcome-lines SVGs) and the line and area paths. Pure, unit-tested.
import type { PricePoint } from "@/lib/markets/schemas";

/** Plot margins as the canvas chart's (scaleMargins top 0.1, bottom 0.08), so the two draw alike. */
const TOP = 0.1;
const BOTTOM = 0.08;
/** The SVG's viewBox (stretched to the box with preserveAspectRatio="none"). */
export const AREA_W = 1000;
export const AREA_H = 300;
const STEPS = [0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25];

/** The y range of the points (a flat line gets a little room) and 3–5 price ticks inside it. */
export function priceScale(points: PricePoint[]) {
  return valueScale(points.map((p) => p.p));
}

/**
 * The y scale of prices (0..1) drawn between the margins (fractions of the box height left free at the
 * top and bottom, as the canvas chart's scaleMargins), with 3–5 round price ticks inside the range.
 */
export function valueScale(values: number[], margins: { top: number; bottom: number } = { top: TOP, bottom: BOTTOM }) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 0.01) {
    lo = Math.max(0, lo - 0.02);
    hi = Math.min(1, hi + 0.02);
  }
  const span = hi - lo || 1;
  const step = STEPS.find((s) => span / s <= 4) ?? 0.25;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + 1e-9; v += step) ticks.push(Math.round(v * 1000) / 1000);
  /** y as a fraction of the box height, 0 at the top. */
  const y = (p: number) => margins.top + ((hi - p) / span) * (1 - margins.top - margins.bottom);
  return { ticks, y };
}

/** The line through the points and the area under it, in viewBox units; null without points. */
export function areaPaths(points: PricePoint[]) {
  if (points.length === 0) return null;
  const { y } = priceScale(points);
  // Evenly spaced, one step per point, as the canvas chart's time scale draws them.
  const step = points.length > 1 ? AREA_W / (points.length - 1) : 0;
  const xy = points.map((p, i) => `${(i * step).toFixed(1)},${(y(p.p) * AREA_H).toFixed(1)}`);
  // One point is a level line across the box.
  if (points.length === 1) xy.push(`${AREA_W},${xy[0].split(",")[1]}`);
  const line = `M${xy.join("L")}`;
  return { line, area: `${line}L${AREA_W},${AREA_H}L0,${AREA_H}Z` };
}
