// The byte rate limit of the export files (docs/api.md "Exports"): beside the request limit of /v1, each
// client has a bucket of bytes (EXPORT_RATE_LIMIT_BURST_MB, refilled at EXPORT_RATE_LIMIT_MBPS). A download
// may start while the bucket is not empty and is charged the bytes it is sent (Content-Length of its 200 or
// 206), so one large file can leave a client in debt: it waits until the bucket is positive again (429 with
// Retry-After meanwhile). HEAD, 304 and errors cost no bytes.
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BlockList } from "node:net";
import { apiErrorAnswer } from "@/lib/api/headers";
import { clientAddress, clientKey } from "@/lib/http/rate-limit";
import { type BucketLimits, type BucketState, seconds, takeTokens } from "@/lib/http/token-bucket";

export interface ByteLimitOptions {
  bytesPerS: number;
  burstBytes: number;
  trustProxy: BlockList | null;
  /** Clients remembered at most. */
  maxKeys: number;
  now?: () => number;
}

const FILE_PATH = /^\/v1\/exports\/[^/?]+\/[^/?]+\.parquet(\?|$)/;

/** A handler that refuses a file download past the client's byte budget (true: answered) and charges the ones it lets through. */
export function exportByteLimit(o: ByteLimitOptions) {
  const limits: BucketLimits = { burst: o.burstBytes, ratePerS: o.bytesPerS };
  const now = o.now ?? seconds;
  const buckets = new Map<string, BucketState>();
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" || !FILE_PATH.test(req.url ?? "")) return false;
    const key = clientKey(clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], o.trustProxy));
    const t = now();
    const state = buckets.get(key) ?? { tokens: limits.burst, at: t };
    takeTokens(state, limits, t, 0);
    if (state.tokens <= 0) {
      const retryAfterS = Math.max(1, Math.ceil((1 - state.tokens) / limits.ratePerS));
      const answer = apiErrorAnswer(429, "Too many bytes requested", { "Retry-After": String(retryAfterS) });
      res.writeHead(answer.status, { ...answer.headers, "Content-Length": Buffer.byteLength(answer.body) });
      res.end(answer.body);
      return true;
    }
    res.once("finish", () => {
      if (res.statusCode !== 200 && res.statusCode !== 206) return;
      const bytes = Number(res.getHeader("content-length") ?? 0);
      takeTokens(state, limits, now(), 0);
      state.tokens -= bytes;
      if (!buckets.has(key)) {
        // Past maxKeys, the clients seen first are forgotten first.
        for (const k of buckets.keys()) {
          if (buckets.size < o.maxKeys) break;
          buckets.delete(k);
        }
        buckets.set(key, state);
      }
    });
    return false;
  };
}
