// One structured JSON line per HTTP request on stdout (method, path, status, duration), for log
// pipelines. On by default; LOG_REQUESTS=0 switches it off (the test server does; lib/config.ts).
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";

export function logRequest(req: IncomingMessage, res: ServerResponse, write: (line: string) => void = (l) => process.stdout.write(l)) {
  const started = process.hrtime.bigint();
  // "close" fires for finished and aborted responses alike, so a client that hangs up is logged too.
  res.once("close", () => {
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    write(
      JSON.stringify({
        time: new Date().toISOString(),
        method: req.method,
        // The path only: query strings may carry search terms that do not belong in logs.
        path: (req.url ?? "/").split("?")[0],
        status: res.statusCode,
        durationMs: Math.round(durationMs * 100) / 100,
        ...(res.writableFinished ? {} : { aborted: true }),
      }) + "\n",
    );
  });
}
