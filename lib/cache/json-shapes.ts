// JSON texts kept without their keys: a value's shape (its keys, punctuation, nulls and booleans) is held
// once per process, and each value keeps only its strings and numbers. The list items are the long
// tail's memory (lib/markets/reads/lists/items.ts): at 100,000 markets a list item's JSON is about 2.9 KB, and
// 1.2 KB of that is keys, quotes and nulls every item repeats (35 keys, 15 per outcome). Packed, the
// `wide` mix's ~62,000 items fit the budget that held 43,000 of them as JSON (docs/performance.md,
// "List items as packed bytes"); unpacking a page of 20 costs about 0.15 ms, where a page's missing items (a third of
// them) had cost the main thread ~0.5 ms to read and the database more.
//
// Exact by construction and checked: a value whose packed form does not unpack to its JSON.stringify
// (a Date, anything with toJSON, a class instance) is kept as that JSON text itself. So are the values
// of shapes past the table's bound: the table only grows (what it holds is tiny), and a producer of ever
// new shapes must not grow it without end.
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
  const text = JSON.stringify(value);
  const pieces: string[] = [];
  const values: string[] = [];
  let piece = "";
  const walk = (x: unknown) => {
    if (x === null || typeof x === "boolean" || (typeof x === "number" && !Number.isFinite(x))) piece += JSON.stringify(x);
    else if (typeof x === "number") {
      pieces.push(piece);
      values.push(String(x));
      piece = "";
    } else if (typeof x === "string") {
      pieces.push(`${piece}"`);
      values.push(JSON.stringify(x).slice(1, -1));
      piece = '"';
    } else if (Array.isArray(x)) {
      if (x.every((e) => e === null || typeof e !== "object")) {
        pieces.push(piece);
        values.push(JSON.stringify(x));
        piece = "";
        return;
      }
      piece += "[";
      x.forEach((e, i) => {
        if (i) piece += ",";
        walk(e);
      });
      piece += "]";
    } else if (typeof x === "object") {
      piece += "{";
      let first = true;
      for (const [k, v] of Object.entries(x)) {
        if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
        piece += `${first ? "" : ","}${JSON.stringify(k)}:`;
        first = false;
        walk(v);
      }
      piece += "}";
    }
    // Anything else (undefined, a function inside an array) is not JSON data: the check below keeps the text.
  };
  walk(value);
  pieces.push(piece);
  const rest = values.join("\0");
  const { ids, shapes } = table();
  const key = pieces.join("\0"); // no piece holds a zero character: keys are JSON-escaped
  const known = ids.get(key);
  if (known !== undefined) return joined(shapes[known].pieces, rest) === text ? withId(known, rest) : withId(RAW, text);
  // A shape is kept only once a value of it unpacks to its text.
  if (shapes.length >= MAX_SHAPES || joined(pieces, rest) !== text) return withId(RAW, text);
  ids.set(key, shapes.length);
  shapes.push({ pieces: pieces.map(flatString), chars: key.length });
  return withId(shapes.length - 1, rest);
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

function joined(pieces: readonly string[], rest: string): string {
  const out: string[] = [];
  pushPieces(pieces, rest, out);
  return out.join("");
}

/** The shapes held, and the memory they take (characters of their pieces, twice for the table's key and pieces). */
export function shapeStats() {
  const { shapes } = table();
  let chars = 0;
  for (const s of shapes) chars += s.chars;
  return { shapes: shapes.length, bytes: chars * 2 + shapes.length * 200 };
}
