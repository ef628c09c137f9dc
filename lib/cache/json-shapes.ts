// JSON texts kept without their keys: a value's shape (its keys, punctuation, nulls and booleans) is held
// once per process, and each value keeps only its strings and numbers. The list items are the long
// tail's memory (lib/markets/reads/lists/items.ts): at 100,000 markets a list item's JSON is about 2.9 KB, and
// 1.2 KB of that is keys, quotes and nulls every item repeats (35 keys, 15 per outcome). Packed, the
// `wide` mix's ~62,000 items fit the budget that held 43,000 of them as JSON (docs/performance.md,
// "List items as packed bytes"); unpacking a page of 20 costs about 0.15 ms, where a page's missing items (a third of
// them) had cost the main thread ~0.5 ms to read and the database more.
//
// Exact by construction: the shape and the values are cut from JSON.stringify's own text (a Date, anything
// with toJSON, is what that text says), and unpacking puts the same pieces back in order. Values of shapes
// past the table's bound are kept as their JSON text: the table only grows (what it holds is tiny), and a
// producer of ever new shapes must not grow it without end. Cutting the text costs a list item about a
// third of walking the value and checking the result against JSON.stringify, as this did before
// (docs/performance.md "List items as packed bytes").
import { shared } from "@/lib/process-state";
import { flatString } from "./flat-string";

/** A packed value whose shape is not in the table: the rest is its JSON text itself. */
const RAW = 0xffff;

/** Shapes held at most (each a few hundred bytes to a few KB: its keys): past it, values are kept as JSON. */
const MAX_SHAPES = 4096;

export interface Shape {
  /** The text between values: pieces.length is one more than the values. */
  pieces: string[];
  /** Characters of its pieces (for the memory stated). */
  chars: number;
}

/** Shapes by their pieces joined, and in the order they came (a packed value names its shape by that place). */
export interface ShapeTable {
  ids: Map<string, number>;
  shapes: Shape[];
}

/** One table per process (lib/process-state.ts): a value packed in one bundle is unpacked in another. */
const table = () => shared<ShapeTable>("jsonShapes", () => ({ ids: new Map(), shapes: [] }));

/**
 * `value`'s JSON (exactly JSON.stringify(value)) as UTF-8 bytes outside V8's heap: two bytes naming its
 * shape, then its strings' JSON contents (between the quotes, escaped as JSON.stringify escapes them)
 * and its numbers' texts, each ended by a zero byte (JSON escapes U+0000: no string's contents hold one).
 * An array of plain values (tags, a list of names) is one value: its JSON text.
 */
export function packJson(value: object): Buffer {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError("packJson: the value has no JSON text");
  const { pieces, values } = cut(text);
  const rest = values.join("\0");
  const { ids, shapes } = table();
  const key = pieces.join("\0"); // no piece holds a zero character: JSON escapes U+0000
  const known = ids.get(key);
  if (known !== undefined) return withId(known, rest);
  if (shapes.length >= MAX_SHAPES) return withId(RAW, text);
  ids.set(key, shapes.length);
  shapes.push({ pieces: pieces.map(flatString), chars: key.length });
  return withId(shapes.length - 1, rest);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const MINUS = 0x2d;

/** The index of the quote that ends the JSON string opened at `open`. */
function stringEnd(text: string, open: number): number {
  let i = open + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === QUOTE) return i;
    else i++;
  }
}

/**
 * A JSON text (JSON.stringify's: no whitespace) cut into its shape and its values, in order, so that
 * pieces[0] + values[0] + pieces[1] + … is the text itself: a string that is not a key is a value (its
 * contents; its quotes stay with the pieces), a number is a value, and so is an array holding no object
 * or array (its whole text); keys, punctuation, true, false and null are the shape's.
 */
function cut(text: string): { pieces: string[]; values: string[] } {
  const pieces: string[] = [];
  const values: string[] = [];
  let from = 0; // where the current piece began
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (text.charCodeAt(end + 1) === COLON) {
        i = end + 2; // a key: the shape's
        continue;
      }
      pieces.push(text.slice(from, i + 1));
      values.push(text.slice(i + 1, end));
      from = end;
      i = end + 1;
    } else if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      for (let d = text.charCodeAt(end); end < n && d !== COMMA && d !== CLOSE_OBJECT && d !== CLOSE_ARRAY; d = text.charCodeAt(++end));
      pieces.push(text.slice(from, i));
      values.push(text.slice(i, end));
      from = end;
      i = end;
    } else if (c === OPEN_ARRAY) {
      // An array of plain values is one value; one that holds an object or an array is walked into.
      let j = i + 1;
      let flat = true;
      for (;;) {
        const d = text.charCodeAt(j);
        if (d === QUOTE) j = stringEnd(text, j) + 1;
        else if (d === OPEN_OBJECT || d === OPEN_ARRAY) {
          flat = false;
          break;
        } else if (d === CLOSE_ARRAY) break;
        else j++;
      }
      if (!flat) {
        i++;
        continue;
      }
      pieces.push(text.slice(from, i));
      values.push(text.slice(i, j + 1));
      from = j + 1;
      i = j + 1;
    } else i++;
  }
  pieces.push(text.slice(from));
  return { pieces, values };
}

function withId(id: number, rest: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(2 + Buffer.byteLength(rest));
  bytes.writeUInt16LE(id, 0);
  bytes.write(rest, 2);
  return bytes;
}

/** The JSON text `bytes` (from packJson) were packed from. */
export function unpackJson(bytes: Buffer): string {
  const out: string[] = [];
  unpackJsonInto(bytes, out);
  return out.join("");
}

/**
 * The same text, as pieces pushed onto `out`: a page of items made with one join of all their pieces is
 * one flat string, its only copy (concatenated, each item's text would be a tree of its pieces to
 * flatten and copy again, and several times the garbage a request in flight holds through a scavenge).
 */
export function unpackJsonInto(bytes: Buffer, out: string[]): void {
  const id = bytes.readUInt16LE(0);
  const rest = bytes.toString("utf8", 2);
  if (id === RAW) out.push(rest);
  else pushPieces(table().shapes[id].pieces, rest, out);
}

/** A shape's pieces with its values (each ended by a zero byte, the last by the end) between them. */
function pushPieces(pieces: readonly string[], rest: string, out: string[]) {
  out.push(pieces[0]);
  let at = 0;
  for (let i = 1; i < pieces.length; i++) {
    let end = rest.indexOf("\0", at);
    if (end < 0) end = rest.length;
    out.push(rest.slice(at, end), pieces[i]);
    at = end + 1;
  }
}

/** The shapes held, and the memory they take (characters of their pieces, twice for the table's key and pieces). */
export function shapeStats() {
  const { shapes } = table();
  let chars = 0;
  for (const s of shapes) chars += s.chars;
  return { shapes: shapes.length, bytes: chars * 2 + shapes.length * 200 };
}
