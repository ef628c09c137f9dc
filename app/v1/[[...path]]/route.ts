// Any other /v1 path: a JSON 404 in the API's error shape instead of the site's HTML page
import { notFound } from "@/lib/api/errors";
import { preflight, route } from "@/lib/api/route";

export const GET = route<{ path?: string[] }>({ cache: "error", offline: true }, async (req) => {
  throw notFound(`Cannot GET ${new URL(req.url).pathname}`);
});
export const OPTIONS = preflight;
