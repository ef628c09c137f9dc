// Batch reads (docs/api.md "Batches"): one answer per id, each exactly what the single endpoint answers,
// or the error it would have answered. The ids come from `outcomeIdsParam` (lib/markets/schemas/batches.ts:
// comma-separated, at most BATCH_MAX_IDS distinct, a malformed one a 400 for the whole call); the
// response schema from `batchResponseSchema`; the rate limit charges one token per id
// (lib/http/request-cost.ts).
import type { BatchError } from "@/lib/markets/schemas";
import { apiErrorOf } from "./errors";

export type BatchItem<F extends string, T> = { outcome_id: string } & { [K in F]: T | null } & { error: BatchError | null };

/**
 * Reads every id at once and answers each: `field` holds the value, or null with `error` when the read
 * failed with a 4xx of the single endpoint (unknown outcome …). Anything else (the database away, a
 * bug) fails the whole call, as it would fail the single endpoint.
 */
export async function answerEach<F extends string, T>(
  ids: readonly string[],
  field: F,
  read: (id: string) => Promise<T>,
): Promise<{ items: BatchItem<F, T>[] }> {
  const items = await Promise.all(
    ids.map(async (id) => {
      try {
        return { outcome_id: id, [field]: await read(id), error: null } as BatchItem<F, T>;
      } catch (err) {
        const api = apiErrorOf(err);
        if (!api || api.status >= 500) throw err;
        const message = Array.isArray(api.detail) ? api.detail.join("; ") : api.detail;
        return { outcome_id: id, [field]: null, error: { statusCode: api.status, message } } as BatchItem<F, T>;
      }
    }),
  );
  return { items };
}

/** The camelCase variant of a batch: `outcomeId`, the field camelCased, each value mapped by the single endpoint's own mapping. */
export function camelBatch<F extends string, T>(field: F, camelOne: (value: T) => unknown) {
  const key = field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return (batch: { items: BatchItem<F, T>[] }) => ({
    items: batch.items.map((item) => {
      const value = item[field] as T | null;
      return { outcomeId: item.outcome_id, [key]: value === null ? null : camelOne(value), error: item.error };
    }),
  });
}
