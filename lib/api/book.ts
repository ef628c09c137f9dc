// A book's facts beyond its body, in headers (docs/api.md "Book versions", "Past books"): the body stays the
// contract's book in both shapes.
import type { PastBook } from "@/lib/markets/sql/book-log";
import type { VersionedBook } from "@/lib/markets/sql/books";
import { Answer } from "./route";

export const BOOK_VERSION = "Book-Version";
export const BOOK_CHECKSUM = "Book-Checksum";
export const BOOK_VERSION_TIME = "Book-Version-Time";

/** The current book with its version and checksum. */
export function bookAnswer(v: VersionedBook) {
  return new Answer(v.book, { [BOOK_VERSION]: String(v.version), [BOOK_CHECKSUM]: String(v.checksum) });
}

/** A past book: also its version's time; kept for a year by anyone once a later version exists. */
export function pastBookAnswer(p: PastBook) {
  const headers: Record<string, string> = { [BOOK_VERSION]: String(p.version), [BOOK_CHECKSUM]: String(p.checksum) };
  if (p.versionAt) headers[BOOK_VERSION_TIME] = p.versionAt;
  return new Answer(p.book, headers, p.final ? "final" : undefined);
}
