// GET /readyz – readiness for load balancers: this instance can serve reads. That is the primary answering
// with every migration applied, or, while the primary cannot be reached, a streaming replica that is up
// (docs/api.md "Reads without the primary"). 503 with the reasons otherwise, so an instance is taken out
// of rotation instead of serving 500s; 503 "draining" once the instance is shutting down. `primary` reports
// the writer either way.
import { breaker, withTimeout } from "@/lib/db/breaker";
import { db, replicaStates, replicaUp } from "@/lib/db/client";
import { isConnectionFailure } from "@/lib/db/errors";
import { pendingMigrations } from "@/lib/db/migrate";
import { config } from "@/lib/config";
import { isDraining } from "@/lib/http/draining";

export const dynamic = "force-dynamic";

/** Load balancers give up after a few seconds; answer before they do. */
const CHECK_TIMEOUT_MS = 2000;

export async function GET() {
  // Shutting down: out of rotation first, while every request still sent here is answered (lib/http/draining.ts).
  if (isDraining()) return Response.json({ status: "draining" }, { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": "1" } });
  const reasons: string[] = [];
  const b = breaker();
  let primary: "up" | "unreachable" = "up";
  let failure = "connection failed";
  // While the breaker is open the answer is known: no connect attempt, no wait.
  if (b.isOpen) primary = "unreachable";
  else {
    try {
      const sql = db();
      await withTimeout(sql`SELECT 1`.execute(), CHECK_TIMEOUT_MS, "database");
      const pending = await withTimeout(pendingMigrations(sql), CHECK_TIMEOUT_MS, "migration check");
      if (pending.length) reasons.push(`pending migrations: ${pending.join(", ")}`);
    } catch (err) {
      if (isConnectionFailure(err)) b.trip(err);
      primary = "unreachable";
      // The reason names the failing check, never a connection string.
      if (err instanceof Error && /within/.test(err.message)) failure = err.message;
    }
  }
  if (primary === "unreachable" && !replicaUp()) reasons.push(`database unreachable: ${failure}`);
  // `behind`: replicas up that failed to replay a commit this instance announced in time, read again once they have.
  const states = replicaStates();
  const replicas = config().DATABASE_REPLICA_URLS.length
    ? {
        replicas: {
          up: states.filter((r) => r.up).length,
          behind: states.filter((r) => r.up && r.lagging).length,
          total: config().DATABASE_REPLICA_URLS.length,
        },
      }
    : {};
  const ready = reasons.length === 0;
  return Response.json(ready ? { status: "ready", primary, ...replicas } : { status: "unavailable", reasons, primary, ...replicas }, {
    status: ready ? 200 : 503,
    headers: { "Cache-Control": "no-store", ...(ready ? {} : { "Retry-After": String(b.retryAfterS) }) },
  });
}
