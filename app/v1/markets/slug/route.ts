// GET /v1/markets/slug – no slug given: the path reads as a market id, which does not exist
import { errorResponse, route } from "@/lib/api/route";

export const GET = route(async () => errorResponse(404, "Market not found: slug"));
