"use client";
// What every live chart mode (price, candles, all outcomes) does around its own query and series: the
// minute its range ends at, and the frame's state taken from the query and the canvas layer.
import { useState } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { nowMinute } from "@/lib/ui/chart-ranges";
import type { ShellState } from "./price-chart-frame";
import type { ChartCommonProps, useCanvasChart } from "./use-canvas-chart";

/**
 * The minute the chart's range ends at: the server's at first (so the first query key is the one the
 * server filled), the present minute once the reader picks another range.
 */
export function useRangeEnd({ initialNowS, onRangeChange }: Pick<ChartCommonProps, "initialNowS" | "onRangeChange">) {
  const [nowS, setNowS] = useState(() => initialNowS ?? nowMinute());
  return {
    nowS,
    onRangeChange: (r: Parameters<ChartCommonProps["onRangeChange"]>[0]) => {
      setNowS(nowMinute());
      onRangeChange(r);
    },
  };
}

/**
 * The frame's props from the chart's query and canvas: pending, stale (a previous range's data shown
 * while the new one loads), empty (answered with nothing in the range), an error with a retry while there
 * is no data, the range and mode controls, and the canvas layer with the handlers that ask for it.
 */
export function liveFrameState<D>(
  props: ChartCommonProps,
  onRangeChange: ChartCommonProps["onRangeChange"],
  query: UseQueryResult<D>,
  isEmpty: (data: D) => boolean,
  canvas: ReturnType<typeof useCanvasChart>,
  canvasTestId: string,
): ShellState & { stale: boolean; canvas: React.ReactNode; canvasReady: boolean } {
  return {
    range: props.range,
    pending: query.isPending,
    stale: query.isPlaceholderData,
    notTradingYet: props.notTradingYet,
    empty: query.isSuccess && !query.isPlaceholderData && isEmpty(query.data),
    error: query.isError && !query.data ? { onRetry: () => void query.refetch() } : null,
    rangeHref: props.rangeHref,
    onRangeChange,
    modes: props.modes,
    canvas: <div ref={canvas.box} className="absolute inset-0" data-testid={canvasTestId} />,
    canvasReady: canvas.ready,
    boxProps: canvas.boxProps,
  };
}
