// The NestJS-style error body of decisions.md, and the one exception type handlers throw.
import { InvalidCursor, MarketNotFound, OutcomeMismatch, OutcomeNotFound } from "@/lib/markets/errors";
import type { ErrorBody } from "@/lib/markets/schemas";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | string[],
  ) {
    super(Array.isArray(detail) ? detail.join("; ") : detail);
  }
}

export const notFound = (message: string) => new ApiError(404, message);
/** Query validation failures carry message as an array (decisions.md). */
export const badQuery = (...messages: string[]) => new ApiError(400, messages);

/** The HTTP answer to an error: ApiError as it is, domain errors by the spec's rules, anything else none. */
export function apiErrorOf(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  // By name as well as by class: a cached load may have been begun by another bundle's copy of the class.
  const name = (err as Error | null)?.name;
  if (err instanceof MarketNotFound || err instanceof OutcomeNotFound || name === "MarketNotFound" || name === "OutcomeNotFound") {
    return notFound((err as Error).message);
  }
  // The spec words this one as a query validation failure: message is an array.
  if (err instanceof OutcomeMismatch || name === "OutcomeMismatch") return badQuery((err as Error).message);
  if (err instanceof InvalidCursor || name === "InvalidCursor") return badQuery((err as Error).message);
  return null;
}

export function errorBody(status: number, message: string | string[]): ErrorBody {
  return { statusCode: status, message, error: REASONS[status] ?? "Error" };
}
