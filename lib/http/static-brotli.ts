// Next's build assets (/_next/static/**.js and .css: content-hashed, immutable) in Brotli for the browsers
// that accept it (every current one sends `br`): Next compresses them with gzip only, and Brotli at its
// highest quality is about 15% smaller on these files (the market list's scripts: 144.6 kB gzip, 123.7 kB
// Brotli). Each file is compressed once per build and kept beside the build (<distDir>/cache/brotli), so
// only the first start after a build pays for it; the copies are held in memory. Anything else (a browser
// without `br`, a range, a file not compressed) Next answers as before.
import fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

interface Copy {
  body: Buffer;
  type: string;
  etag: string;
  modified: string;
}

const brotli = promisify(zlib.brotliCompress);
const TYPES: Record<string, string> = { ".js": "application/javascript; charset=UTF-8", ".css": "text/css; charset=UTF-8" };
/** Larger files (the API reference's) get a quick quality: the highest takes seconds on each of them. */
const BEST_UP_TO = 512 * 1024;
/** Files compressed at once (zlib's thread pool runs them beside the event loop). */
const AT_ONCE = 2;

/** Whether an Accept-Encoding header takes Brotli (`br`, not `br;q=0`). */
export function acceptsBrotli(header: string | string[] | undefined): boolean {
  if (typeof header !== "string") return false;
  return header.split(",").some((token) => {
    const [name, ...params] = token.split(";").map((s) => s.trim().toLowerCase());
    if (name !== "br") return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The Brotli copy of one file: from the cache beside the build when it is as new as the file, else made and kept there. */
async function copyOf(file: string, cacheFile: string, size: number, mtimeMs: number): Promise<Buffer> {
  const kept = await fs.stat(cacheFile).catch(() => null);
  if (kept && kept.mtimeMs >= mtimeMs) return fs.readFile(cacheFile);
  const body = await brotli(await fs.readFile(file), {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: size <= BEST_UP_TO ? zlib.constants.BROTLI_MAX_QUALITY : 5,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  });
  // Written aside and renamed: instances started together from one build never read half a file.
  await fs.mkdir(path.dirname(cacheFile), { recursive: true });
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  await fs.writeFile(tmp, body);
  await fs.rename(tmp, cacheFile);
  return body;
}

/**
 * Compresses (or loads) every static script and style of the build in `distDir`; the returned handler
 * answers a GET or HEAD of one of them with its Brotli copy and returns true, or returns false.
 */
export async function staticBrotli(distDir: string): Promise<(req: IncomingMessage, res: ServerResponse) => boolean> {
  const root = path.join(distDir, "static");
  const entries = await fs.readdir(root, { withFileTypes: true, recursive: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile() && TYPES[path.extname(e.name)]).map((e) => path.join(e.parentPath, e.name));
  const copies = new Map<string, Copy>();
  const queue = [...files];
  const work = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const rel = path.relative(root, file);
      const { size, mtimeMs } = await fs.stat(file);
      const body = await copyOf(file, path.join(distDir, "cache", "brotli", `${rel}.br`), size, mtimeMs);
      if (body.length >= size) continue;
      copies.set(`/_next/static/${rel.split(path.sep).join("/")}`, {
        body,
        type: TYPES[path.extname(file)],
        // Next's own validator for the file (weak: size and modification time), so either answer revalidates the other's.
        etag: `W/"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`,
        modified: new Date(mtimeMs).toUTCString(),
      });
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, work));

  return (req, res) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !req.url?.startsWith("/_next/static/") || req.headers.range) return false;
    const copy = copies.get(req.url.split("?")[0]);
    if (!copy || !acceptsBrotli(req.headers["accept-encoding"])) return false;
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.setHeader("ETag", copy.etag);
    res.setHeader("Last-Modified", copy.modified);
    res.setHeader("Vary", "Accept-Encoding");
    if (req.headers["if-none-match"] === copy.etag) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    res.setHeader("Content-Type", copy.type);
    res.setHeader("Content-Encoding", "br");
    res.setHeader("Content-Length", copy.body.length);
    res.end(req.method === "HEAD" ? undefined : copy.body);
    return true;
  };
}
