// What server.ts's http handler does before Next sees a request: the guard (lib/http/http-guard.ts)
// and, on /v1, the per-client rate limit with its headers on every answer.
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BlockList } from "node:net";
import { apiErrorAnswer } from "@/lib/api/headers";
import { checkRequest, type Answer } from "./http-guard";
import { clientAddress, clientKey, rateLimitHeaders, type RateLimitConfig } from "./rate-limit";
import { TokenBuckets } from "./token-bucket";
import { requestCost } from "./request-cost";

export interface FrontDoorOptions {
  /** null: no rate limit (RATE_LIMIT=off). */
  rateLimit: RateLimitConfig | null;
  trustProxy: BlockList | null;
}

function send(req: IncomingMessage, res: ServerResponse, answer: Answer) {
  res.writeHead(answer.status, { ...answer.headers, "Content-Length": Buffer.byteLength(answer.body) });
  res.end(req.method === "HEAD" ? undefined : answer.body);
}

/** Returns a handler that answers the request itself (true) or prepares it for Next (false). */
export function frontDoor({ rateLimit, trustProxy }: FrontDoorOptions) {
  const buckets = rateLimit ? new TokenBuckets(rateLimit) : null;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const checked = checkRequest(req.method, req.url);
    // JSON is never to be read as anything else (pages get theirs, with the CSP, from document-security.ts).
    if (checked.api) res.setHeader("X-Content-Type-Options", "nosniff");
    if (checked.api && buckets) {
      const client = clientKey(clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustProxy));
      // Preflights are free (browsers cache them a day) but still report the state; a batch costs one per id,
      // never more than a whole bucket (which would refuse it for ever).
      const decision = buckets.take(client, Math.min(requestCost(req.method, req.url), buckets.limits.burst));
      const headers = rateLimitHeaders(buckets.limits, decision);
      if (!decision.allowed) {
        send(req, res, apiErrorAnswer(429, "Too many requests", { ...headers, "Retry-After": String(decision.retryAfterS) }));
        return true;
      }
      // Next keeps headers set before it writes, so every /v1 answer carries them.
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    }
    if (checked.answer) {
      send(req, res, checked.answer);
      return true;
    }
    return false;
  };
}
