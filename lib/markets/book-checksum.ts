// The checksum of a book's top levels (docs/api.md "Book checksum"), so that a client that keeps its own
// book can prove it equals the server's. Pure and browser-safe: clients may import it as it is.

/** How many levels of each side the checksum covers. */
export const CHECKSUM_DEPTH = 10;

interface Level {
  price: string;
  shares: string;
}

/**
 * The string the checksum is taken of: the first 10 bids and the first 10 asks, each level
 * `price:shares` in the book's own strings and order, levels joined by `|`, bids and asks joined by `#`.
 * `{bids: [{price: "0.550", shares: "120.00"}], asks: []}` → `"0.550:120.00#"`.
 */
export function checksumInput(book: { bids: readonly Level[]; asks: readonly Level[] }): string {
  const side = (levels: readonly Level[]) =>
    levels
      .slice(0, CHECKSUM_DEPTH)
      .map((l) => `${l.price}:${l.shares}`)
      .join("|");
  return `${side(book.bids)}#${side(book.asks)}`;
}

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE 802.3, as zlib's crc32 and PHP's crc32) of an ASCII string, unsigned. */
export function crc32(s: string): number {
  let c = 0xffffffff;
  for (let i = 0; i < s.length; i++) c = TABLE[(c ^ s.charCodeAt(i)) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The book's checksum: CRC-32 of checksumInput(book), an unsigned 32-bit integer. */
export function bookChecksum(book: { bids: readonly Level[]; asks: readonly Level[] }): number {
  return crc32(checksumInput(book));
}
