// The loop every background job of an instance runs (the sweepers, the markets feed's applier): a pass,
// then the next one an interval after it ended (never two at once), each interval jittered so that
// instances started together drift apart. A failing pass is reported once per run of failures (the
// database being away is reported elsewhere too) and the loop goes on; stop() waits for the pass in flight.
import "server-only";

export interface PeriodicOptions {
  /** Mean time from the end of one pass to the start of the next. */
  intervalMs: number;
  /** Each interval is drawn from intervalMs × (1 ± jitter); default 0. */
  jitter?: number;
  /** Run the first pass at once (default) or after the first interval. */
  immediate?: boolean;
  /** Prefixed to the messages, e.g. "trim" gives "trim failed: …" and "trim works again". */
  what: string;
  log: (message: string) => void;
}

/** Runs `pass` until the returned stop() is called; a pass that returns a string has it logged. */
export function startPeriodic(pass: () => Promise<unknown>, options: PeriodicOptions): () => Promise<void> {
  const { intervalMs, jitter = 0, immediate = true, what, log } = options;
  let failing = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(run, intervalMs * (1 - jitter + 2 * jitter * Math.random()));
    timer.unref();
  };
  const run = () => {
    running = pass()
      .then(
        (message) => {
          if (typeof message === "string") log(message);
          if (failing) log(`${what} works again`);
          failing = false;
        },
        (err) => {
          if (!failing) log(`${what} failed: ${(err as Error).message}`);
          failing = true;
        },
      )
      .finally(schedule);
  };
  if (immediate) run();
  else schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
