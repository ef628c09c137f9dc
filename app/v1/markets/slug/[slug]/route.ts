// GET /v1/markets/slug/{slug} – one market, selected by slug
import { json, route } from "@/lib/api/route";
import { getMarket } from "@/lib/markets/queries";

export const GET = route<{ slug: string }>(async (_req, { params }) => json(await getMarket({ slug: (await params).slug })));
