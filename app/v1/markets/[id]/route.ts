// GET /v1/markets/{id} – one market with outcomes, comments and top traders
import { json, route } from "@/lib/api/route";
import { getMarket } from "@/lib/markets/queries";

export const GET = route<{ id: string }>(async (_req, { params }) => json(await getMarket({ id: (await params).id })));
