// Case folding for the in-memory search of the market lists (lib/markets/list-index.ts), exactly as the
// database's ILIKE folds: `q` is "a case-insensitive substring of question or description" (docs/api.md),
// which the SQL path asks as `question ILIKE '%q%' OR description ILIKE '%q%'` (lib/markets/sql/lists.ts), and
// ILIKE lowers both sides with the database's collation. Memory answers only a q of plain ASCII (after the
// NULs the SQL path strips), and for such a needle only the ASCII of the folded text can match. So a
// market's text is kept folded to ASCII: ASCII letters lowered (the probe checks that the database lowers
// them the same way: not so under a Turkish locale), every other character replaced by a placeholder no
// needle holds, except the few whose lower case contains ASCII in this database (U+0130 İ and U+212A K in
// most collations, a Lithuanian one's accented I), which the probe asks the database for.
import "server-only";
import { flatString } from "@/lib/cache/flat-string";
import { readDb } from "@/lib/db/client";
import { stripNul } from "./sql/lists";

/** How this database folds case for ILIKE, as far as an ASCII needle can tell. */
export interface Folding {
  /** A market's searchable text: question and description folded, with a separator no needle can match across. */
  text(question: string, description: string): string;
}

/** Stands for any character that folds to no ASCII: never in a needle. */
const OTHER = "\u0002";
/** Between question and description: never in a needle either, so no match spans the two. */
const BETWEEN = "\u0001";
/** What a needle may hold: printable ASCII, tab and line breaks. */
const NEEDLE = /^[\t\n\r -~]*$/;
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;
const holdsAscii = (s: string) => Array.from(s).some((c) => c.charCodeAt(0) < 0x80);

/** The needle of a q (lower case, NULs removed as the SQL path does), or null when memory cannot answer it exactly. */
export function searchNeedle(q: string): string | null {
  const stripped = stripNul(q);
  return NEEDLE.test(stripped) ? stripped.toLowerCase() : null;
}

/** Printable ASCII and the whitespace a needle may hold. */
const ASCII = `\t\n\r${Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join("")}`;

/**
 * Characters whose lower case may contain ASCII under some collation: Latin-1 Supplement, Latin Extended-A
 * and B, Latin Extended Additional, Letterlike Symbols (U+212A KELVIN SIGN), fullwidth Latin. Unicode's only
 * lowercase mappings into ASCII are U+0130 and U+212A; locale tailorings (Lithuanian) add accented Is.
 */
const CANDIDATES = [
  [0x80, 0x24f],
  [0x1e00, 0x1eff],
  [0x2100, 0x214f],
  [0xff21, 0xff5a],
].flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i)));

/** A folding from what the database answered: lower() of the ASCII and of every candidate character. */
export function foldingOf(asciiLowered: string, candidatesLowered: string[]): Folding | null {
  if (asciiLowered !== ASCII.toLowerCase()) return null; // ASCII letters fold otherwise here: SQL answers
  const special = new Map<string, string>();
  candidatesLowered.forEach((lowered, i) => {
    if (holdsAscii(lowered)) special.set(CANDIDATES[i], lowered.replace(NON_ASCII_ALL, OTHER));
  });
  const fold = (s: string) => (NON_ASCII.test(s) ? s.replace(NON_ASCII_ALL, (c) => special.get(c) ?? OTHER) : s).toLowerCase();
  return {
    text: (question, description) => {
      // V8 keeps a concatenation as a rope of its parts: flat now, at the load, rather than all at once
      // (45 MB at 100,000 markets) during the first search, and without the rope's node left over.
      return flatString(`${fold(question)}${BETWEEN}${fold(description)}`);
    },
  };
}

/** Asks the database how it lowers (the markets' columns use its default collation). */
export async function probeFolding(): Promise<Folding | null> {
  const sql = await readDb();
  const [row] = await sql<{ ascii: string; chars: string[] }[]>`
    SELECT lower(${ASCII}::text) AS ascii,
           (SELECT array_agg(lower(c) ORDER BY n) FROM unnest(${CANDIDATES}::text[]) WITH ORDINALITY AS t(c, n)) AS chars`;
  return row && row.chars?.length === CANDIDATES.length ? foldingOf(row.ascii, row.chars) : null;
}

export const FOLD_TEST = { ASCII, CANDIDATES, OTHER, BETWEEN };
