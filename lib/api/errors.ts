// The NestJS-style error body (docs/api.md, "Error body"), and the one exception type handlers throw.
import { BookNotRecorded, InvalidCursor, MarketNotFound, OutcomeMismatch, OutcomeNotFound } from "@/lib/markets/errors";
import { isErrorOf } from "@/lib/process-state";
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
  static readonly errorName = "ApiError";
  constructor(
    readonly status: number,
    readonly detail: string | string[],
  ) {
    super(Array.isArray(detail) ? detail.join("; ") : detail);
    this.name = ApiError.errorName;
  }
}

export const notFound = (message: string) => new ApiError(404, message);
/** Query validation failures carry message as an array (docs/api.md, "Error body"). */
export const badQuery = (...messages: string[]) => new ApiError(400, messages);

/** The HTTP answer to an error: ApiError as it is, domain errors by the spec's rules, anything else none. */
export function apiErrorOf(err: unknown): ApiError | null {
  // isErrorOf, not instanceof: a cached load may have been begun by another bundle's copy of the class.
  if (isErrorOf(err, ApiError)) return err;
  if (isErrorOf(err, MarketNotFound) || isErrorOf(err, OutcomeNotFound)) return notFound(err.message);
  if (isErrorOf(err, BookNotRecorded)) return notFound(err.message);
  // The spec words this one as a query validation failure: message is an array.
  if (isErrorOf(err, OutcomeMismatch) || isErrorOf(err, InvalidCursor)) return badQuery(err.message);
  return null;
}

export function errorBody(status: number, message: string | string[]): ErrorBody {
  return { statusCode: status, message, error: REASONS[status] ?? "Error" };
}
