// Values that carry their own JSON text: an answer parsed from a text kept (lib/cache/response-cache.ts),
// and a list page put together from items kept packed (lib/markets/list-page.ts), are written out without
// being serialized again. lib/api/route.ts uses it for the primary shape; everything else reads the value
// as usual.
// Symbol.for: the same key in every bundle.
export const JSON_TEXT = Symbol.for("markets.json-text");

/** The JSON text a value carries (exactly JSON.stringify(value)), if it carries one. */
export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? (value as { [JSON_TEXT]?: string })[JSON_TEXT] : undefined;
}
