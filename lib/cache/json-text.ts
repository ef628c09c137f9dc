// Values that carry their own JSON text: an answer parsed from a text kept (lib/cache/response-cache.ts)
// is written out without being serialized again, and one put together from parts kept as UTF-8 bytes (the
// list pages of lib/markets/list-page.ts) without parsing the parts or joining them. lib/api/route.ts uses
// them for the primary shape; everything else reads the value as usual.
// Symbol.for: the same key in every bundle.
export const JSON_TEXT = Symbol.for("markets.json-text");

/** The JSON text a value carries (exactly JSON.stringify(value)), if it carries one. */
export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? (value as { [JSON_TEXT]?: string })[JSON_TEXT] : undefined;
}

/**
 * A value put together from parts kept as UTF-8 bytes (the list pages of lib/markets/list-page.ts) may
 * also carry those bytes in pieces, in order: their concatenation is exactly its JSON text's UTF-8. /v1
 * hashes and writes them as they are, so the page is never a string, decoded, or copied.
 */
export const JSON_PARTS = Symbol.for("markets.json-parts");

/** The UTF-8 pieces of the JSON text a value carries, if it carries them. */
export function jsonPartsOf(value: unknown): readonly Buffer[] | undefined {
  return typeof value === "object" && value !== null ? (value as { [JSON_PARTS]?: readonly Buffer[] })[JSON_PARTS] : undefined;
}
