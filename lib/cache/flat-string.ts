// A string kept for long as one piece of memory. V8 keeps a string built by concatenation (a template
// literal, `a + b`) as a tree of its pieces ("cons strings") while it lives: a tag (`market:${id}`) is
// three heap objects, a list order's sort key five. The response cache's keys and tags and the list
// orders' strings are copied flat when kept (with the tag index, 3.89 -> 2.52 million heap objects at
// 100k markets after 40 s of cold /v1 reads): fewer objects for every major collection to walk. Only
// for short strings kept for long: the copy costs about a microsecond a kilobyte.

/** `s` as one flat string (a copy when it is long enough to be a tree). */
export function flatString(s: string): string {
  // Shorter strings are never made trees (V8's ConsString::kMinLength is 13). UTF-8 round-trips every
  // well-formed string exactly; one with a lone surrogate (never a JSON text) is kept as it is.
  if (s.length < 13 || !s.isWellFormed()) return s;
  return Buffer.from(s, "utf8").toString("utf8");
}
