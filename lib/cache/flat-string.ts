// A string kept for long as one piece of memory. V8 keeps a string built by concatenation (a template
// literal, `a + b`, a JSON text put together from parts) as a tree of its pieces ("cons strings"), and
// keeps it so while it lives: a cached answer of 5 KB was a tree of dozens of heap objects, and a tag
// (`market:${id}`) three. At 100k markets the response cache and the list orders held 770,000 such nodes
// and a million pieces below them, a third of the heap's objects, which every major collection walks
// while pages render (heap snapshot after 40 s of cold /v1 reads). A new flat copy has none of that.
// Only for what is kept: the copy costs about a microsecond a kilobyte.

/** `s` as one flat string (a copy when it is long enough to be a tree). */
export function flatString(s: string): string {
  // Shorter strings are never made trees (V8's ConsString::kMinLength is 13). UTF-8 round-trips every
  // well-formed string exactly; one with a lone surrogate (never a JSON text) is kept as it is.
  if (s.length < 13 || !s.isWellFormed()) return s;
  return Buffer.from(s, "utf8").toString("utf8");
}
