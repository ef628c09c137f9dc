// GET /v1/openapi.json – the OpenAPI 3.1 document of this API, generated from the route schemas
import { openApiJson } from "@/lib/api/openapi";
import { preflight, route } from "@/lib/api/route";

export const GET = route({ cache: "document", offline: true }, async () => openApiJson());
export const OPTIONS = preflight;
