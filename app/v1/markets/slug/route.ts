// GET /v1/markets/slug – no slug given: the path reads as a market id, which does not exist
import { notFound } from "@/lib/api/errors";
import { preflight, route } from "@/lib/api/route";

export const GET = route({ cache: "error" }, async () => {
  throw notFound("Market not found: slug");
});
export const OPTIONS = preflight;
