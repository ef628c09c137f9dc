// A position on the trade tape (docs/api.md "Trades"): the (executed_at, id) of a trade, the keyset the
// tape is ordered by. Clients see it as an opaque string: base64url of 24 bytes, executed_at in
// microseconds since the epoch (signed, big-endian) then the 16 bytes of the uuid. Any string of that
// form is a valid position (a forged one merely points somewhere); anything else is refused.

export interface TradeCursor {
  /** executed_at in microseconds since 1970 (PostgreSQL's own precision). */
  us: bigint;
  id: string;
}

const FORM = /^[A-Za-z0-9_-]{32}$/;
/** ±1e17 µs (about ±3,000 years around 1970): inside timestamptz's range, so any cursor makes valid SQL. */
const LIMIT = 10n ** 17n;

export function encodeTradeCursor(c: TradeCursor): string {
  const bytes = Buffer.alloc(24);
  bytes.writeBigInt64BE(c.us, 0);
  Buffer.from(c.id.replace(/-/g, ""), "hex").copy(bytes, 8);
  return bytes.toString("base64url");
}

/** The position a cursor names, or null when the string is not a cursor. */
export function decodeTradeCursor(s: string): TradeCursor | null {
  if (!FORM.test(s)) return null;
  const bytes = Buffer.from(s, "base64url");
  if (bytes.length !== 24) return null;
  const us = bytes.readBigInt64BE(0);
  if (us > LIMIT || us < -LIMIT) return null;
  const hex = bytes.subarray(8).toString("hex");
  return { us, id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` };
}
