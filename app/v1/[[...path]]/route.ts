// Any other /v1 path: a JSON 404 in the API's error shape instead of the site's HTML page
import { errorResponse, route } from "@/lib/api/route";

export const GET = route(async (req) => errorResponse(404, `Cannot GET ${new URL(req.url).pathname}`));
