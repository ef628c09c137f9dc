// GET /readyz – readiness for load balancers: the database answers and every migration is applied.
// 503 with the reasons otherwise, so an instance is taken out of rotation instead of serving 500s.
import { breaker, withTimeout } from "@/lib/db/breaker";
import { db } from "@/lib/db/client";
import { isConnectionFailure } from "@/lib/db/errors";
import { pendingMigrations } from "@/lib/db/migrate";

export const dynamic = "force-dynamic";

/** Load balancers give up after a few seconds; answer before they do. */
const CHECK_TIMEOUT_MS = 2000;

export async function GET() {
  const reasons: string[] = [];
  const b = breaker();
  // While the breaker is open the answer is known: no connect attempt, no wait.
  if (b.isOpen) reasons.push("database unreachable: connection failed");
  else {
    try {
      const sql = db();
      await withTimeout(sql`SELECT 1`.execute(), CHECK_TIMEOUT_MS, "database");
      const pending = await withTimeout(pendingMigrations(sql), CHECK_TIMEOUT_MS, "migration check");
      if (pending.length) reasons.push(`pending migrations: ${pending.join(", ")}`);
    } catch (err) {
      if (isConnectionFailure(err)) b.trip(err);
      // The reason names the failing check, never a connection string.
      reasons.push(`database unreachable: ${err instanceof Error && /within/.test(err.message) ? err.message : "connection failed"}`);
    }
  }
  const ready = reasons.length === 0;
  return Response.json(ready ? { status: "ready" } : { status: "unavailable", reasons }, {
    status: ready ? 200 : 503,
    headers: { "Cache-Control": "no-store", ...(ready ? {} : { "Retry-After": String(b.retryAfterS) }) },
  });
}
