// Pages rendered before the server takes traffic. A new process renders its pages slower while V8 is
// still compiling and optimizing React's render path and ours, so the first people after every start or
// deploy would wait on the compiler. server.ts renders the first list pages and the trending markets'
// pages through its own handler on a private loopback port before it opens the public one, then the same
// pages again from memory, pass after pass (`renders`), until the render path is optimized: the reads of
// the markets people open first are in the response cache (the rendered pages are not kept: see
// server.ts). Measured at 100k markets, a fresh process's first 8 s of cold market pages (16
// connections): 83–87 req/s after 100 renders, 93 after 600 (the next 8 s: 94–97 against 107–112); 600
// different pages did no better than 100 pages six times. Bounded by a deadline, so a slow or absent
// database delays the start by the deadline at most; a failed page is counted, never fatal.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Sql } from "postgres";

export interface WarmUpResult {
  /** Requests answered 2xx (a page asked again counts again). */
  rendered: number;
  /** Pages that failed or answered otherwise. */
  failed: number;
  /** Requests not made, or not finished, because the deadline came first. */
  skipped: number;
  ms: number;
}

export interface WarmUpOptions {
  /** Requests in flight at once. */
  concurrency?: number;
  /**
   * Requests in all, at least one per path: past the paths' count the paths are asked again, in order,
   * pass after pass. A page asked again renders from the reads its first render put in memory.
   */
  renders?: number;
  /** No new request after this long; those in flight are aborted, and it returns without waiting for them. */
  deadlineMs?: number;
  /** Tests: the fetch it asks with (a request that never settles). */
  fetch?: typeof fetch;
}

/** The paths to render: the first list pages, then the market pages of the most traded markets of the last 24 hours. */
export async function warmUpPaths(sql: Sql, pages: number): Promise<string[]> {
  if (pages <= 0) return [];
  const lists = Math.min(pages, Math.max(1, Math.floor(pages / 20)));
  const rows = await sql<{ slug: string }[]>`
    SELECT slug FROM markets WHERE status = 'ACTIVE' ORDER BY volume_24h DESC, id DESC LIMIT ${pages - lists}`;
  const listPaths = Array.from({ length: lists }, (_, i) => (i === 0 ? "/" : `/?page=${i + 1}`));
  return [...listPaths, ...rows.map((r) => `/markets/${encodeURIComponent(r.slug)}`)];
}

/** Asks `listener` for each path over HTTP on 127.0.0.1 (an ephemeral port, closed before it returns). */
export async function warmUp(listener: http.RequestListener, paths: readonly string[], options: WarmUpOptions = {}): Promise<WarmUpResult> {
  const { concurrency = 4, deadlineMs = 20_000, fetch: ask = fetch } = options;
  const renders = Math.max(paths.length, options.renders ?? 0);
  const started = performance.now();
  const result: WarmUpResult = { rendered: 0, failed: 0, skipped: 0, ms: 0 };
  if (paths.length === 0) return result;
  const server = http.createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The deadline is a timer of its own, not AbortSignal.timeout, and it does not wait for the requests it
  // aborts. Three starts on 2 cores (two of them two processes at once) never opened their port: the
  // warm-up's loopback port was still open, with no request on it and nothing left to run. Node clears an
  // AbortSignal.timeout's timer once the signal itself is collected, so a request that never settles and
  // is held by nothing else would never be aborted; whatever the cause, a request cannot hold the start now.
  const stop = new AbortController();
  const deadline = stop.signal;
  const timer = setTimeout(() => stop.abort(new DOMException("the warm-up's deadline", "TimeoutError")), deadlineMs);
  const aborted = new Promise<void>((resolve) => deadline.addEventListener("abort", () => resolve(), { once: true }));
  let next = 0;
  let inFlight = 0;
  let returned = false;
  const worker = async () => {
    while (next < renders && !deadline.aborted) {
      const path = paths[next++ % paths.length];
      inFlight++;
      try {
        const res = await ask(base + path, { signal: deadline, headers: { accept: "text/html" } });
        await res.arrayBuffer();
        if (returned) return;
        if (res.ok) result.rendered++;
        else result.failed++;
      } catch {
        if (returned) return;
        if (deadline.aborted) result.skipped++;
        else result.failed++;
      } finally {
        inFlight--;
      }
    }
  };
  try {
    await Promise.race([Promise.all(Array.from({ length: Math.min(concurrency, renders) }, worker)), aborted]);
  } finally {
    returned = true;
    result.skipped += inFlight + (renders - next); // what the deadline left out: counted now, as the late ones count nothing
    clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}
