// The conditional and range rules of a file download (RFC 9110 §13 and §14), pure: which status a request
// for a file of `size` bytes with validator `etag` gets, and which bytes. One range is answered with 206; a
// request for several that do not touch is answered whole (200), which RFC 9110 §14.2 allows (a server MAY
// ignore Range).

export interface FileValidators {
  size: number;
  /** Strong: `"<hex>"`. */
  etag: string;
  /** HTTP date. */
  lastModified: string;
}

export type RangeDecision = { status: 304 } | { status: 200 } | { status: 206; start: number; end: number } | { status: 416 };

/** If-None-Match, weak comparison (RFC 9110 §13.1.2): W/ ignored, "*" matches. */
export function noneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === bare;
  });
}

/**
 * One `bytes=` range set as [start, end] pairs (inclusive), clipped to the file; null when the header is not
 * a bytes range set this server understands (then Range is ignored, RFC 9110 §14.2); [] when none of its
 * ranges is satisfiable.
 */
export function parseRanges(header: string, size: number): Array<[number, number]> | null {
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return null;
  const out: Array<[number, number]> = [];
  for (const part of m[1].split(",")) {
    const spec = part.trim();
    if (!spec) continue;
    const r = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
    if (!r || (r[1] === "" && r[2] === "")) return null;
    if (r[1] === "") {
      // A suffix: the last n bytes (n = 0 is unsatisfiable).
      const n = Number(r[2]);
      if (n > 0 && size > 0) out.push([Math.max(0, size - n), size - 1]);
      continue;
    }
    const start = Number(r[1]);
    const end = r[2] === "" ? size - 1 : Number(r[2]);
    if (r[2] !== "" && end < start) return null;
    if (start < size) out.push([start, Math.min(end, size - 1)]);
  }
  return out;
}

/**
 * The answer to a GET or HEAD of a file: 304 when If-None-Match names it; with Range (and an If-Range that
 * matches, or none), 206 for one satisfiable range, 416 when none is; otherwise 200.
 */
export function decideRange(headers: { ifNoneMatch: string | null; range: string | null; ifRange: string | null }, file: FileValidators): RangeDecision {
  if (noneMatch(headers.ifNoneMatch, file.etag)) return { status: 304 };
  if (!headers.range) return { status: 200 };
  // If-Range: a strong ETag compared strongly, or the exact Last-Modified date; anything else sends the whole file.
  if (headers.ifRange !== null) {
    const v = headers.ifRange.trim();
    if (v.startsWith("W/") || (v !== file.etag && v !== file.lastModified)) return { status: 200 };
  }
  const ranges = parseRanges(headers.range, file.size);
  if (ranges === null) return { status: 200 };
  if (ranges.length === 0) return { status: 416 };
  // Overlapping or adjacent ranges are one range (RFC 9110 §14.2 lets a server coalesce them).
  const merged = [...ranges]
    .sort((a, b) => a[0] - b[0])
    .reduce<Array<[number, number]>>((acc, r) => {
      const last = acc[acc.length - 1];
      if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
      else acc.push([r[0], r[1]]);
      return acc;
    }, []);
  if (merged.length > 1) return { status: 200 };
  return { status: 206, start: merged[0][0], end: merged[0][1] };
}
