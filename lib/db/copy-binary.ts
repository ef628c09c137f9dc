// PostgreSQL's binary COPY format (the COPY reference, "Binary Format"), for bulk loads whose rows are
// mostly timestamps, uuids and numerics: the server then reads each value as it is stored instead of
// parsing its text (a timestamptz's text costs the server more to read than the row costs to store).
// The rows go in fixed-size buffers, handed out as they fill: stream them into
// `COPY table (columns) FROM STDIN (FORMAT binary)`, then the trailer from end().

/** Signature, flags (none) and header extension length (none). */
const HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
/** PostgreSQL's epoch (2000-01-01 UTC) in unix ms: timestamps are µs from it. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 4_294_967_296;
/** No row of ours comes near this: a buffer is handed out once less than this is left. */
const ROW_MAX = 4096;

/** A uuid's 16 bytes from its text (with or without dashes). */
export const uuidBytes = (uuid: string) => Buffer.from(uuid.replace(/-/g, ""), "hex");

export class BinaryCopy {
  private buf: Buffer;
  private pos = 0;
  private readonly digits: number[] = [];

  constructor(private readonly size = 256 * 1024) {
    this.buf = Buffer.allocUnsafe(size);
    HEADER.copy(this.buf);
    this.pos = HEADER.length;
  }

  /** Whether a buffer is full enough to hand out (take()). */
  get ready(): boolean {
    return this.pos > this.size - ROW_MAX;
  }

  /** The buffer filled so far; writing goes on in a fresh one. */
  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(this.size);
    this.pos = 0;
    return out;
  }

  /** The last buffer, with the trailer. */
  end(): Buffer {
    this.pos = this.buf.writeInt16BE(-1, this.pos);
    return this.take();
  }

  /** Starts a row of `fields` values, which the next calls write in column order. */
  row(fields: number): this {
    this.pos = this.buf.writeInt16BE(fields, this.pos);
    return this;
  }

  null(): this {
    this.pos = this.buf.writeInt32BE(-1, this.pos);
    return this;
  }

  int4(n: number): this {
    this.pos = this.buf.writeInt32BE(4, this.pos);
    this.pos = this.buf.writeInt32BE(n, this.pos);
    return this;
  }

  /** A uuid from its 16 bytes. */
  uuid(bytes: Buffer): this {
    this.pos = this.buf.writeInt32BE(16, this.pos);
    this.pos += bytes.copy(this.buf, this.pos, 0, 16);
    return this;
  }

  /** A uuid of 10 leading bytes and a 48-bit integer (≥ 0) as its last 6. */
  uuidWith(head: Buffer, tail: number): this {
    this.pos = this.buf.writeInt32BE(16, this.pos);
    this.pos += head.copy(this.buf, this.pos, 0, 10);
    const hi = Math.floor(tail / TWO_32);
    this.pos = this.buf.writeUInt16BE(hi, this.pos);
    this.pos = this.buf.writeUInt32BE(tail - hi * TWO_32, this.pos);
    return this;
  }

  /** A timestamptz from unix ms (whole ms, within ±285,000 years: exact in a double as µs). */
  timestamptz(ms: number): this {
    const us = (ms - PG_EPOCH_MS) * 1000;
    const hi = Math.floor(us / TWO_32);
    this.pos = this.buf.writeInt32BE(8, this.pos);
    this.pos = this.buf.writeInt32BE(hi, this.pos);
    this.pos = this.buf.writeUInt32BE(us - hi * TWO_32, this.pos);
    return this;
  }

  /**
   * A numeric n / 10^scale, for an integer n ≥ 0 below 2^53 and a scale of at most 12, shown with
   * `dscale` decimals (a column's typmod sets its own): base-10,000 digits, as PostgreSQL stores it.
   */
  numeric(n: number, scale: number, dscale = scale): this {
    const d = this.digits;
    d.length = 0;
    const unit = 10 ** scale;
    let whole = Math.floor(n / unit);
    const groups = Math.ceil(scale / 4);
    let frac = (n - whole * unit) * 10 ** (groups * 4 - scale);
    for (let i = 0; i < groups; i++) {
      d.push(frac % 10_000);
      frac = Math.floor(frac / 10_000);
    }
    let weight = -1;
    for (; whole > 0; weight++) {
      d.push(whole % 10_000);
      whole = Math.floor(whole / 10_000);
    }
    // d holds the digits least significant first; the leading and trailing zeros go.
    let first = d.length - 1;
    while (first >= 0 && d[first] === 0) {
      first--;
      weight--;
    }
    let last = 0;
    while (last <= first && d[last] === 0) last++;
    const count = first < last ? 0 : first - last + 1;
    this.pos = this.buf.writeInt32BE(8 + 2 * count, this.pos);
    this.pos = this.buf.writeInt16BE(count, this.pos);
    this.pos = this.buf.writeInt16BE(count ? weight : 0, this.pos);
    this.pos = this.buf.writeUInt16BE(0, this.pos); // positive
    this.pos = this.buf.writeUInt16BE(dscale, this.pos);
    for (let i = first; i >= last; i--) this.pos = this.buf.writeUInt16BE(d[i], this.pos);
    return this;
  }
}
