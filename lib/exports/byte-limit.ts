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
import { seconds, TokenBuckets } from "@/lib/http/token-bucket";

export interface ByteLimitOptions {
  bytesPerS: number;
  burstBytes: number;
  trustProxy: BlockList | null;
  /** Clients remembered at most. */
  maxKeys: number;
  now?: () => number;
}

const FILE_PATH = /^\/v1\/exports\/[^/?]+\/[^/?]+\.parquet(\?|$)/;

/** Whether `req` asks for an export file (not the index). */
export const isExportFileRequest = (req: IncomingMessage) => FILE_PATH.test(req.url ?? "");

/** A handler that refuses a file download past the client's byte budget (true: answered) and charges the ones it lets through. */
export function exportByteLimit(o: ByteLimitOptions) {
  const buckets = new TokenBuckets({ burst: o.burstBytes, ratePerS: o.bytesPerS, maxKeys: o.maxKeys }, o.now ?? seconds);
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" || !isExportFileRequest(req)) return false;
    const key = clientKey(clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], o.trustProxy));
    const retryAfterS = buckets.charge(key, 0);
    if (retryAfterS > 0) {
      const answer = apiErrorAnswer(429, "Too many bytes requested", { "Retry-After": String(retryAfterS) });
      res.writeHead(answer.status, { ...answer.headers, "Content-Length": Buffer.byteLength(answer.body) });
      res.end(answer.body);
      return true;
    }
    res.once("finish", () => {
      if (res.statusCode !== 200 && res.statusCode !== 206) return;
      buckets.charge(key, Number(res.getHeader("content-length") ?? 0));
    });
    return false;
  };
}
