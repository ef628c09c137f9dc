// Polite HTTP load for fault tests and the outage timeline: N loops, each one request at a time,
// every answer recorded with its time, status and latency (a hang shows as a client timeout, status 0).

export interface Sample {
  /** ms since the load started, when the request was sent */
  at: number;
  path: string;
  status: number;
  ms: number;
  retryAfter: string | null;
  contentType: string | null;
  body: string;
}

export interface Load {
  samples: Sample[];
  stop: () => Promise<void>;
  started: number;
}

export function startLoad(baseURL: string, paths: string[], { connections = 4, pauseMs = 20, timeoutMs = 30_000 } = {}): Load {
  const samples: Sample[] = [];
  const started = Date.now();
  let running = true;
  const loop = async (k: number) => {
    for (let i = k; running; i++) {
      const path = paths[i % paths.length];
      const t0 = Date.now();
      let status = 0;
      let retryAfter: string | null = null;
      let contentType: string | null = null;
      let body = "";
      try {
        const r = await fetch(baseURL + path, { signal: AbortSignal.timeout(timeoutMs), headers: { "accept-encoding": "identity" } });
        status = r.status;
        retryAfter = r.headers.get("retry-after");
        contentType = r.headers.get("content-type");
        body = await r.text();
      } catch {
        status = 0; // client timeout or connection refused
      }
      samples.push({ at: t0 - started, path, status, ms: Date.now() - t0, retryAfter, contentType, body: status === 200 ? "" : body.slice(0, 300) });
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  const loops = Array.from({ length: connections }, (_, k) => loop(k));
  return {
    samples,
    started,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Status counts and worst latency per second, from `fromMs` on (ms since the load started). */
export function timeline(samples: Sample[], fromMs = 0): { second: number; counts: Record<string, number>; maxMs: number }[] {
  const rows = new Map<number, { counts: Record<string, number>; maxMs: number }>();
  for (const s of samples) {
    if (s.at < fromMs) continue;
    const second = Math.floor((s.at - fromMs) / 1000);
    const row = rows.get(second) ?? { counts: {}, maxMs: 0 };
    const key = s.status === 0 ? "timeout" : String(s.status);
    row.counts[key] = (row.counts[key] ?? 0) + 1;
    row.maxMs = Math.max(row.maxMs, s.ms);
    rows.set(second, row);
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([second, r]) => ({ second, ...r }));
}
