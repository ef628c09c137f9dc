// Batch endpoints (GET /v1/candles?outcomeIds=a,b,…): a list of ids in one query parameter, each
// answered as its own request would be, and a failure that belongs to one id (unknown, malformed)
// reported in its item instead of failing the whole answer.
import { apiErrorOf, badQuery } from "./errors";

/**
 * The ids of a comma-separated list, trimmed, without empty entries and repeats (first occurrence
 * order); more than `max` non-empty entries (repeats count), or none, is the 400 of a query validation failure.
 */
export function parseIdList(name: string, value: string, max: number): string[] {
  const entries = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length > max) throw badQuery(`${name} must contain at most ${max} ids`);
  const ids = [...new Set(entries)];
  if (!ids.length) throw badQuery(`${name} is required`);
  return ids;
}

export interface ItemError {
  statusCode: number;
  message: string;
}

export type ItemResult<T> = { id: string; value: T; error?: undefined } | { id: string; value?: undefined; error: ItemError };

/**
 * Answers every id at once (the answers may share one query underneath). An id whose answer fails
 * with an API error (404, 400) gets that error as its item; any other failure (the database away, a
 * bug) fails the whole request, as it would fail a single one.
 */
export async function answerEach<T>(ids: readonly string[], answer: (id: string) => Promise<T>): Promise<ItemResult<T>[]> {
  return Promise.all(
    ids.map(async (id): Promise<ItemResult<T>> => {
      try {
        return { id, value: await answer(id) };
      } catch (err) {
        const api = apiErrorOf(err);
        if (!api) throw err;
        return { id, error: { statusCode: api.status, message: Array.isArray(api.detail) ? api.detail.join("; ") : api.detail } };
      }
    }),
  );
}
