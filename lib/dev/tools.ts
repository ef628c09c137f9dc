// Small helpers of the scripts, the tests and the embedded database, kept in one place. Nothing under
// app/ imports this module, so it never reaches a Next bundle.
import net from "node:net";

/** A port nobody listens on at the moment (the OS picks it; closed again before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The nearest-rank `p`th percentile (0–100) of numbers sorted ascending; undefined when there are none. */
export function percentile(sorted: readonly number[], p: number): number | undefined {
  if (!sorted.length) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Times `cases` (run one after another in each round, so that a machine shared with other work slows them
 * alike): `warmup` rounds first, then `runs`; returns each case's milliseconds, sorted ascending.
 */
export async function sampleTimes(cases: ReadonlyArray<() => Promise<unknown>>, { runs, warmup = 1 }: { runs: number; warmup?: number }): Promise<number[][]> {
  for (let i = 0; i < warmup; i++) for (const run of cases) await run();
  const times = cases.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [k, run] of cases.entries()) {
      const t0 = performance.now();
      await run();
      times[k].push(performance.now() - t0);
    }
  }
  for (const t of times) t.sort((a, b) => a - b);
  return times;
}

/** A deterministic PRNG (mulberry32): numbers in [0, 1) that repeat for a seed, so that a failure or a benchmark repeats. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
