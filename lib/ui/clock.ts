// Clock readings a page shows ("3 min ago", "2h 10m left", the time a page was read, a chart's window):
// each reading says when it next reads differently, so that the page cache keeps a rendered page no
// longer than what it shows holds (lib/cache/render-record.ts). The helpers that read the clock for
// display (lib/ui/format.ts, nowMinute in lib/ui/chart-ranges.ts, readNow here) tell it themselves; a
// component that shows the time through them cannot forget to. Shared with the browser, where nothing
// listens: the listener is set on the server by lib/cache/render-record.ts, in the process's registry
// (lib/process-state.ts, `clockReading`), which this module reads by its key because it cannot import
// that server-only module.

/** Told, during a recorded page render, when a clock reading it showed next reads differently (Unix ms). */
export type ClockListener = (changesAt: number) => void;

// The key of lib/process-state.ts's registry (Symbol.for: the same in every bundle).
const STATE = Symbol.for("markets.process-state");

/** A reading shown now reads differently from `changesAt` (Unix ms) on. */
export function clockRead(changesAt: number): void {
  (globalThis as Record<symbol, { clockReading?: ClockListener } | undefined>)[STATE]?.clockReading?.(changesAt);
}

/** Date.now(), shown with a resolution of `stepMs` (the time a page was read, to the second): its reading changes at the next step. */
export function readNow(stepMs: number): number {
  const now = Date.now();
  clockRead((Math.floor(now / stepMs) + 1) * stepMs);
  return now;
}
