// Minimal typing of the autocannon programmatic API used by scripts/bench-api.ts and bench-new-markets.ts (the
// package ships none).
declare module "autocannon" {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    /** Asked in turn by each connection. */
    requests?: Array<{ method?: string; path: string }>;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    "2xx": number;
    /** Seconds the run lasted. */
    duration: number;
    errors: number;
    timeouts: number;
  }
  /** The run: its events while it lasts, and its result when awaited. */
  interface Instance extends Promise<Result> {
    /** Each answer: its status and how long it took (ms). */
    on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
