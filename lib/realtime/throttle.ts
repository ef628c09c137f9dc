// Per-key leading+trailing throttle: the first value goes out at once, later ones within the
// interval collapse into one that goes out when the interval ends, so the last change is never lost.

export interface Timers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface Throttle<V> {
  push: (key: string, value: V) => void;
  /** Keys in their cool-down window (for tests and stats). */
  size: () => number;
  close: () => void;
}

/**
 * `merge` folds a value pushed during the cool-down into the pending one (default: keep the newer).
 */
export function createThrottle<V>(
  intervalMs: number,
  emit: (key: string, value: V) => void,
  { merge = (_old: V, next: V) => next, timers = realTimers }: { merge?: (pending: V, next: V) => V; timers?: Timers } = {},
): Throttle<V> {
  const windows = new Map<string, { pending?: { value: V }; timer: unknown }>();

  const open = (key: string) => {
    const w = { pending: undefined as { value: V } | undefined, timer: undefined as unknown };
    const tick = () => {
      if (!w.pending) {
        windows.delete(key);
        return;
      }
      const { value } = w.pending;
      w.pending = undefined;
      w.timer = timers.setTimeout(tick, intervalMs);
      emit(key, value);
    };
    w.timer = timers.setTimeout(tick, intervalMs);
    windows.set(key, w);
  };

  return {
    push(key, value) {
      const w = windows.get(key);
      if (w) {
        w.pending = { value: w.pending ? merge(w.pending.value, value) : value };
        return;
      }
      open(key);
      emit(key, value);
    },
    size: () => windows.size,
    close() {
      for (const w of windows.values()) timers.clearTimeout(w.timer);
      windows.clear();
    },
  };
}
