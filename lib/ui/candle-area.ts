// Geometry of the candle chart's SVG (components/markets/candle-chart-frame.tsx): bodies, wicks and volume
// bars as a few paths in the price chart's viewBox, rising and falling candles apart (two colours). Laid
// out as the canvas chart draws them: candles evenly spaced by index, prices between the candle series'
// margins, volume in the bottom fifth. Pure, unit-tested.
import type { Candle } from "@/lib/markets/schemas";
import { AREA_H, AREA_W, valueScale } from "./price-area";

/** The candle series' scaleMargins on the canvas chart; the volume histogram takes the bottom VOLUME_SHARE. */
export const CANDLE_MARGINS = { top: 0.1, bottom: 0.25 };
export const VOLUME_SHARE = 0.2;
/** A body's width as a share of the space per candle. */
const BODY = 0.6;
/** A flat candle (open = close) is still a visible dash. */
const MIN_BODY_H = 1.5;

export interface CandlePaths {
  body: string;
  wick: string;
  volume: string;
}

const f = (n: number) => n.toFixed(1);

/** Paths of rising (close ≥ open) and falling candles, the price scale's ticks and y; null without candles. */
export function candlePaths(candles: Pick<Candle, "open" | "high" | "low" | "close" | "volume">[]) {
  if (candles.length === 0) return null;
  const { ticks, y } = valueScale(
    candles.flatMap((c) => [c.low, c.high]),
    CANDLE_MARGINS,
  );
  const step = AREA_W / candles.length;
  const half = (step * BODY) / 2;
  const maxVolume = Math.max(...candles.map((c) => Number(c.volume))) || 1;
  const up: CandlePaths = { body: "", wick: "", volume: "" };
  const down: CandlePaths = { body: "", wick: "", volume: "" };
  candles.forEach((c, i) => {
    const to = c.close >= c.open ? up : down;
    const x = (i + 0.5) * step;
    const top = y(Math.max(c.open, c.close)) * AREA_H;
    const h = Math.max(MIN_BODY_H, (y(Math.min(c.open, c.close)) - y(Math.max(c.open, c.close))) * AREA_H);
    to.body += `M${f(x - half)},${f(top)}h${f(2 * half)}v${f(h)}h${f(-2 * half)}Z`;
    to.wick += `M${f(x)},${f(y(c.high) * AREA_H)}V${f(y(c.low) * AREA_H)}`;
    const vh = (Number(c.volume) / maxVolume) * VOLUME_SHARE * AREA_H;
    to.volume += `M${f(x - half)},${f(AREA_H - vh)}h${f(2 * half)}V${AREA_H}h${f(-2 * half)}Z`;
  });
  return { up, down, ticks, y };
}
