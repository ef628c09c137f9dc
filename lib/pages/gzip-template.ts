// A gzip body whose holes are filled per response (a cached page's CSP nonce): the parts between the holes
// are compressed once; each response sends them as they are, its fill as a stored block in each hole, and
// a trailer with the CRC of what it sent, instead of compressing the whole page again (a few ms per
// 200 kB page, more than serving it). Deflate (RFC 1951) makes it valid: a part compressed with
// Z_SYNC_FLUSH ends on a byte boundary with no final block, so parts compressed apart concatenate into one
// stream; a stored block carries its bytes verbatim; and a part may refer back into the 32 kB before it
// (given as its dictionary, so the page compresses as well as whole) as long as no reference reaches into
// a hole: there the dictionary holds NUL bytes, which no match can include while the parts hold none,
// and every fill has the hole's length, so the distances stay right.
import zlib from "node:zlib";

export interface GzipTemplate {
  /** The raw parts, and each one compressed (holes sit between consecutive parts). */
  parts: Buffer[];
  compressed: Buffer[];
  holeLength: number;
  /** Bytes of all compressed parts: what the template weighs. */
  bytes: number;
}

// ID1 ID2, CM = deflate, no flags, no mtime, no extra flags, OS unknown (RFC 1952).
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
// A final stored block of no bytes: BFINAL=1 BTYPE=00, LEN 0, NLEN 0xffff.
const LAST_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

const WINDOW = 32 * 1024;

export function gzipTemplate(parts: Buffer[], holeLength: number): GzipTemplate {
  const linked = !parts.some((p) => p.includes(0));
  const hole = Buffer.alloc(holeLength); // NUL bytes
  let before = Buffer.alloc(0);
  const compressed = parts.map((part, i) => {
    if (i > 0) before = Buffer.concat([before.subarray(-WINDOW), hole]).subarray(-WINDOW);
    const out = part.length
      ? zlib.deflateRawSync(part, { finishFlush: zlib.constants.Z_SYNC_FLUSH, ...(linked && before.length ? { dictionary: before } : {}) })
      : Buffer.alloc(0);
    before = Buffer.concat([before, part]).subarray(-WINDOW);
    return out;
  });
  return { parts, compressed, holeLength, bytes: compressed.reduce((n, c) => n + c.length, 0) };
}

/** A non-final stored block holding `bytes` (at most 65,535), starting on a byte boundary. */
function storedBlock(bytes: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt16LE(bytes.length, 1);
  head.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([head, bytes]);
}

/** The gzip member of the parts with `fill` in every hole. */
export function fillGzip(t: GzipTemplate, fill: Buffer): Buffer {
  if (fill.length !== t.holeLength) throw new Error(`gzip template: a fill of ${fill.length} bytes for holes of ${t.holeLength}`);
  const hole = storedBlock(fill);
  const out: Buffer[] = [HEADER];
  let crc = 0;
  let size = 0;
  t.parts.forEach((part, i) => {
    if (i > 0) {
      out.push(hole);
      crc = zlib.crc32(fill, crc);
      size += fill.length;
    }
    out.push(t.compressed[i]);
    crc = zlib.crc32(part, crc);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  out.push(LAST_BLOCK, trailer);
  return Buffer.concat(out);
}
