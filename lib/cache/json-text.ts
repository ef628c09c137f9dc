// Values that carry their own JSON text: an answer parsed from a text kept (lib/cache/response-cache.ts),
// and a list page put together from items kept packed (lib/markets/list-page.ts), are written out without
// being serialized again; a list page kept for its key's next request carries the text's UTF-8 instead,
// written again and again without being encoded again. lib/api/route.ts uses them for the primary shape;
// everything else reads the value as usual.
// Symbol.for: the same key in every bundle.
export const JSON_TEXT = Symbol.for("markets.json-text");

/** The JSON text a value carries (exactly JSON.stringify(value)), if it carries one. */
export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? (value as { [JSON_TEXT]?: string })[JSON_TEXT] : undefined;
}

/** Its JSON text's UTF-8 bytes (exactly those of JSON.stringify(value)), for a value carried as bytes. */
export const JSON_BYTES = Symbol.for("markets.json-bytes");

/** The UTF-8 of the JSON text a value carries, if it carries it as bytes. */
export function jsonBytesOf(value: unknown): Buffer | undefined {
  return typeof value === "object" && value !== null ? (value as { [JSON_BYTES]?: Buffer })[JSON_BYTES] : undefined;
}
