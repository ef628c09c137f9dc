// The fetch the generated client sends through: ETag revalidation of repeated reads (If-None-Match; a 304 is
// answered from memory as the 200 it confirms) and waiting out 429 and 503 for as long as Retry-After says.
// Nothing here knows an endpoint: it works for any GET the document describes, today's and tomorrow's.

export interface RetryOptions {
  /** Further attempts after the first (default 4). */
  attempts?: number;
  /** A Retry-After longer than this is not waited for: the error goes to the caller (default 60 s). */
  maxWaitMs?: number;
  /** Statuses worth waiting out (default 429 Too Many Requests and 503 Service Unavailable). */
  statuses?: number[];
}

export interface HttpOptions {
  /** The fetch to send with (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Revalidate repeated reads with If-None-Match (default on, up to 500 answers kept; false: off). */
  etag?: boolean | { maxEntries?: number };
  /** Wait and retry on 429/503 as Retry-After asks (default on; false: off). */
  retry?: boolean | RetryOptions;
}

export interface HttpStats {
  /** Requests sent (retries included). */
  requests: number;
  /** 304s answered from memory. */
  revalidated: number;
  /** Retries after a 429 or 503. */
  retries: number;
}

interface Cached {
  etag: string;
  body: ArrayBuffer;
  status: number;
  statusText: string;
  headers: [string, string][];
}

/** Retry-After in ms (seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => (signal?.removeEventListener("abort", onAbort), resolve()), ms);
    const onAbort = () => (clearTimeout(t), reject(signal?.reason));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A Response made here from a remembered body, with the URL it answers (a constructed Response has none). */
function answer(body: ArrayBuffer, status: number, statusText: string, headers: Headers, url: string): Response {
  const response = new Response(body.slice(0), { status, statusText, headers });
  Object.defineProperty(response, "url", { value: url });
  return response;
}

export function createHttp(options: HttpOptions = {}): { fetch: typeof fetch; stats: HttpStats } {
  const base = options.fetch ?? globalThis.fetch.bind(globalThis);
  const etag = options.etag ?? true;
  const maxEntries = typeof etag === "object" ? (etag.maxEntries ?? 500) : 500;
  const cache = etag ? new Map<string, Cached>() : null;
  const retry = options.retry ?? true;
  const { attempts = 4, maxWaitMs = 60_000, statuses = [429, 503] } = typeof retry === "object" ? retry : {};
  const maxAttempts = retry ? attempts : 0;
  const stats: HttpStats = { requests: 0, revalidated: 0, retries: 0 };

  const remember = (key: string, entry: Cached) => {
    cache!.delete(key);
    cache!.set(key, entry); // Map order is the LRU order: the oldest first
    while (cache!.size > maxEntries) cache!.delete(cache!.keys().next().value!);
  };

  const send: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.method !== "GET" && request.method !== "HEAD") return base(request);
    // The variant is chosen by Accept, so it is part of the key (the server's Vary: Accept).
    const key = `${request.url}\n${request.headers.get("accept") ?? ""}`;
    const callerValidates = request.headers.has("if-none-match");
    for (let attempt = 0; ; attempt++) {
      const cached = callerValidates ? undefined : cache?.get(key);
      const headers = new Headers(request.headers);
      if (cached) headers.set("if-none-match", cached.etag);
      stats.requests++;
      const response = await base(request.url, { method: request.method, headers, signal: request.signal, redirect: request.redirect });
      if (response.status === 304 && cached) {
        stats.revalidated++;
        remember(key, cached);
        // The 304's own fields (Cache-Control, X-Cache, RateLimit …) update the remembered ones, as a cache does.
        const headers = new Headers(cached.headers);
        for (const [name, value] of response.headers) if (name !== "content-length" && name !== "content-encoding") headers.set(name, value);
        return answer(cached.body, cached.status, cached.statusText, headers, request.url);
      }
      if (statuses.includes(response.status) && attempt < maxAttempts) {
        const wait = retryAfterMs(response.headers.get("retry-after")) ?? Math.min(1000 * 2 ** attempt, 10_000);
        if (wait <= maxWaitMs) {
          await response.body?.cancel();
          stats.retries++;
          await sleep(wait, request.signal);
          continue;
        }
      }
      const tag = response.headers.get("etag");
      if (cache && response.status === 200 && tag && !callerValidates && request.method === "GET") {
        const body = await response.arrayBuffer();
        // The body is decoded already: its encoding and length headers no longer describe it.
        const kept = [...response.headers].filter(([name]) => name !== "content-encoding" && name !== "content-length");
        const entry = { etag: tag, body, status: response.status, statusText: response.statusText, headers: kept };
        remember(key, entry);
        return answer(body, entry.status, entry.statusText, new Headers(entry.headers), request.url);
      }
      return response;
    }
  };
  return { fetch: send, stats };
}
