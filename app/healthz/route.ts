// GET /healthz – liveness for load balancers: the process answers. Touches nothing else (no database).
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
