"use client";
// The live "All outcomes" chart: every outcome's history in one batch request through react-query (its key
// under the market's histories, so price signals refetch it), one line each in the outcome's colour; the
// legend's buttons switch lines off and on. On the reader's pointer lightweight-charts draws the lines.
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { ISeriesApi, UTCTimestamp } from "lightweight-charts";
import type { PricePoint } from "@/lib/markets/schemas";
import { outcomeHistoriesOptions } from "@/lib/query/chart-modes";
import { marketHistoryRange } from "@/lib/ui/chart-ranges";
import { formatCents } from "@/lib/ui/format";
import { outcomeColor } from "@/lib/ui/outcome-color";
import { liveFrameState, useRangeEnd } from "./live-chart";
import { type LineOutcome, OutcomeLinesFrame } from "./outcome-lines-frame";
import { type ChartCommonProps, type ChartMode, timeTicks, useCanvasChart } from "./use-canvas-chart";

type Drawn = { lines: Record<string, PricePoint[]>; hidden: readonly string[] };

const linesMode = (outcomes: LineOutcome[]): ChartMode<Map<string, ISeriesApi<"Line">>, Drawn> => ({
  build: (lib, chart) => {
    const series = new Map(
      outcomes.map((o) => [
        o.id,
        chart.addSeries(lib.LineSeries, {
          color: outcomeColor(o),
          lineWidth: 2,
          title: o.name,
          priceFormat: { type: "custom", minMove: 0.001, formatter: (p: number) => formatCents(p) },
          priceLineVisible: false,
        }),
      ]),
    );
    return { series };
  },
  draw: (series, { lines, hidden }, chart) => {
    for (const [id, s] of series) {
      s.setData((lines[id] ?? []).map((pt) => ({ time: pt.t as UTCTimestamp, value: pt.p })));
      s.applyOptions({ visible: !hidden.includes(id) });
    }
    chart.timeScale().fitContent();
  },
});

export function OutcomeLinesChart(props: ChartCommonProps & { outcomes: LineOutcome[] }) {
  const { slug, outcomes, tradingStartsAt, range, notTradingYet } = props;
  const end = useRangeEnd(props);
  const sorted = useMemo(() => [...outcomes].sort((a, b) => a.index - b.index), [outcomes]);
  const ids = useMemo(() => sorted.map((o) => o.id), [sorted]);
  const query = useQuery({ ...outcomeHistoriesOptions(slug, ids, marketHistoryRange(range, tradingStartsAt, end.nowS)), enabled: !notTradingYet });
  const [hidden, setHidden] = useState<string[]>([]);
  const data = useMemo(() => ({ lines: query.data ?? {}, hidden }), [query.data, hidden]);
  const [mode] = useState(() => linesMode(sorted));
  const canvas = useCanvasChart(data, mode);
  // The SVG's time axis: the times of the lines shown (outcome-lines.ts).
  const times = useMemo(
    () => [...new Set(ids.filter((id) => !hidden.includes(id)).flatMap((id) => (data.lines[id] ?? []).map((p) => p.t)))].sort((a, b) => a - b),
    [ids, hidden, data.lines],
  );

  return (
    <OutcomeLinesFrame
      outcomes={sorted}
      lines={data.lines}
      hidden={hidden}
      onToggle={(id) => setHidden((h) => (h.includes(id) ? h.filter((x) => x !== id) : [...h, id]))}
      timeTicks={timeTicks(times)}
      {...liveFrameState(props, end.onRangeChange, query, (lines) => Object.values(lines).every((ps) => ps.length === 0), canvas, "outcomes-chart-canvas")}
    />
  );
}
