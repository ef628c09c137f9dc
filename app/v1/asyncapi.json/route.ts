// GET /v1/asyncapi.json – the AsyncAPI 3.0 document of the push channels (SSE and Socket.IO), generated from their payload schemas
import { asyncApiJson } from "@/lib/api/asyncapi";
import { preflight, route } from "@/lib/api/route";

export const GET = route({ cache: "document", offline: true }, async () => asyncApiJson());
export const OPTIONS = preflight;
