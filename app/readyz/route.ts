// GET /readyz – readiness for load balancers: the database answers and every migration is applied.
// 503 with the reasons otherwise, so an instance is taken out of rotation instead of serving 500s.
import { db } from "@/lib/db/client";
import { pendingMigrations } from "@/lib/db/migrate";

export const dynamic = "force-dynamic";

/** Load balancers give up after a few seconds; answer before they do. */
const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function GET() {
  const reasons: string[] = [];
  try {
    const sql = db();
    await withTimeout(sql`SELECT 1`, "database");
    const pending = await withTimeout(pendingMigrations(sql), "migration check");
    if (pending.length) reasons.push(`pending migrations: ${pending.join(", ")}`);
  } catch (err) {
    // The reason names the failing check, never a connection string.
    reasons.push(`database unreachable: ${err instanceof Error && /timed out/.test(err.message) ? err.message : "connection failed"}`);
  }
  const ready = reasons.length === 0;
  return Response.json(
    ready ? { status: "ready" } : { status: "unavailable", reasons },
    { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
