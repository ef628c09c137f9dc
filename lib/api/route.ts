// The wrapper every /v1 handler goes through: it owns error mapping (ApiError → its status and body,
// anything else → a logged 500 with a bland body), so no handler has a try/catch of its own.
import { ApiError, errorBody } from "./errors";

type Ctx<P> = { params: Promise<P> };
type Handler<P> = (req: Request, ctx: Ctx<P>) => Promise<Response>;

export function json(data: unknown, init: ResponseInit = {}): Response {
  return Response.json(data, init);
}

export function errorResponse(status: number, message: string | string[]): Response {
  return json(errorBody(status, message), { status });
}

export function route<P = unknown>(handler: Handler<P>): Handler<P> {
  return async (req, ctx) => {
    try {
      return await handler(req, ctx);
    } catch (err) {
      if (err instanceof ApiError) return errorResponse(err.status, err.detail);
      // Never leak SQL, stack traces or connection strings to the client.
      console.error(`[api] ${req.method} ${new URL(req.url).pathname} failed:`, err);
      return errorResponse(500, "Internal server error");
    }
  };
}
