// The page cache (docs/performance.md, "The page cache"): the HTML of a document request for the market list (/) or a market page
// (/markets/{slug}) is rendered once and served again from memory while nothing it shows has changed.
// The render is the load of an entry of the response cache (marketCache, lib/markets/reads/), tagged
// with what the render read (lib/cache/render-record.ts): the same invalidations drop it, a change
// announced while it renders keeps it from being stored, concurrent requests for one page share one
// render, and it counts in the same byte budget. Its CSP nonce is a placeholder chosen here (handed to the
// render, lib/pages/document-security.ts) that every response replaces with its own, in the header and the
// body; compression is per response too (lib/pages/gzip-template.ts). What is cached and under which
// key: pageKey.
import "server-only";
import { randomBytes } from "node:crypto";
import { type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from "node:http";
import { LRUCache } from "lru-cache";
import { getBotType } from "next/dist/shared/lib/router/utils/is-bot";
import { newRenderRecord, recordingRender, type RenderRecord } from "@/lib/cache/render-record";
import type { CacheResult, Loaded } from "@/lib/cache/response-cache";
import { marketCache } from "@/lib/markets/reads/cache";
import { WATCHLIST_COOKIE } from "@/lib/follow/watchlist";
import { isHtmlDocumentRequest } from "./document-status";
import { fillGzip, type GzipTemplate, gzipTemplate } from "./gzip-template";

/** Renders through Next; `nonce`, when given, is the CSP nonce of the render (a new one otherwise). */
type Render = (req: IncomingMessage, res: ServerResponse, nonce?: string) => Promise<unknown>;
type RequestLike = Pick<IncomingMessage, "method" | "url" | "headers">;

/** The header that says how a page was answered: HIT (memory), MISS (rendered for it), BYPASS (not from the cache). */
export const RENDER_CACHE_HEADER = "X-Render-Cache";

// ------------------------------------------------------------------ which requests, under which key

/** The list and a market page; not /watchlist, /embed, /docs, nor anything under a market (its share image). */
const PAGE_PATH = /^\/(?:markets\/[^/]+)?$/;
/** Cookies a render reads: the watchlist (the stars, the header's count) and Next's draft mode. */
const PRIVATE_COOKIES = [WATCHLIST_COOKIE, "__prerender_bypass", "__next_preview_data"];

/**
 * The cache key of a document request whose render can be shared, "private" for one whose render reads
 * the reader's cookies, null for anything else (Next answers it as ever). The key holds everything else a
 * render depends on besides what it reads through the cache (lib/cache/render-record.ts): the URL as sent
 * (path and query), the host names of absolute URLs (share cards, the CSP's socket origin) and the crawler
 * class Next renders for (bots get their metadata blocking, not streamed).
 *
 * A watchlist cookie is not keyed but passed through: a key per reader would be a private copy that only
 * that reader's next unchanged view could use, filling the shared budget with pages nobody else may see.
 */
export function pageKey(req: RequestLike): string | "private" | null {
  if (req.method !== "GET" || !req.url) return null;
  const q = req.url.indexOf("?");
  if (!PAGE_PATH.test(q < 0 ? req.url : req.url.slice(0, q))) return null;
  if (!isHtmlDocumentRequest(req)) return null; // the client router's payloads, prefetches, server actions
  const h = req.headers;
  if (/prefetch/i.test(`${h.purpose ?? ""} ${h["sec-purpose"] ?? ""}`)) return null; // no document, no CSP
  if (h["sec-fetch-dest"] !== undefined && h["sec-fetch-dest"] !== "document") return null;
  if (PRIVATE_COOKIES.some((name) => h.cookie?.includes(name))) return "private";
  return JSON.stringify(["page", req.url, h.host ?? "", h["x-forwarded-host"] ?? "", h["x-forwarded-proto"] ?? "", getBotType(h["user-agent"] ?? "") ?? ""]);
}

// ------------------------------------------------------------------ a render, captured

/** 128 random bits in hex: no character any escaping (HTML, JSON, JavaScript) would change. */
const newNonce = () => randomBytes(16).toString("hex");

/** A rendered page as Next answered it, its placeholder nonce still in it. */
export interface RenderedPage {
  status: number;
  /** As Next set them (names in lower case), but for the connection's own (length, transfer encoding, date). */
  headers: Array<[string, string | string[]]>;
  nonce: string;
  body: Buffer;
  /** Where the nonce sits in the body. */
  holes: number[];
  /** The gzip form, made when the first reader that accepts gzip asks. */
  gzip?: GzipTemplate;
  /** What must still hold to show it again (RenderRecord.checks): asked before every reuse. */
  checks: (() => Promise<boolean>)[];
}

const CONNECTION_HEADERS = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "date"]);

/** Where Next writes a render for the cache: a response without a socket that keeps what is written. */
class CapturedResponse extends ServerResponse {
  private readonly chunks: Buffer[] = [];
  private settle!: { resolve: () => void; reject: (err: unknown) => void };
  readonly ended = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));

  override writeHead(statusCode: number, reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]) {
    const given = typeof reason === "string" ? headers : reason;
    if (Array.isArray(given)) for (let i = 0; i + 1 < given.length; i += 2) this.setHeader(String(given[i]), given[i + 1]);
    else for (const [name, value] of Object.entries(given ?? {})) if (value !== undefined) this.setHeader(name, value);
    this.statusCode = statusCode;
    return this;
  }

  override flushHeaders() {}

  override write(chunk: unknown, encoding?: BufferEncoding | ((err?: Error | null) => void), cb?: (err?: Error | null) => void) {
    this.keep(chunk, typeof encoding === "string" ? encoding : undefined);
    (typeof encoding === "function" ? encoding : cb)?.(null);
    return true;
  }

  override end(chunk?: unknown, encoding?: BufferEncoding | (() => void), cb?: () => void) {
    if (this.finished) return this;
    if (typeof chunk === "function") [cb, chunk] = [chunk as () => void, undefined];
    this.keep(chunk, typeof encoding === "string" ? encoding : undefined);
    this.finished = true; // writableEnded and, with no socket, writableFinished
    process.nextTick(() => {
      this.emit("prefinish");
      this.emit("finish");
      this.emit("close");
      this.settle.resolve();
      (typeof encoding === "function" ? encoding : cb)?.();
    });
    return this;
  }

  override destroy(err?: Error) {
    this.destroyed = true;
    this.settle.reject(err ?? new Error("the render was aborted"));
    return this;
  }

  private keep(chunk: unknown, encoding: BufferEncoding | undefined) {
    if (chunk === undefined || chunk === null) return;
    // A byte chunk is kept as a view, not copied: it is the writer's to give away, as a socket keeps it
    // until flushed; the body is joined (copied) once, at the end.
    if (typeof chunk === "string") this.chunks.push(Buffer.from(chunk, encoding));
    else {
      const bytes = chunk as Uint8Array;
      this.chunks.push(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    }
  }

  page(nonce: string): RenderedPage {
    const body = Buffer.concat(this.chunks);
    const holes: number[] = [];
    for (let at = body.indexOf(nonce); at >= 0; at = body.indexOf(nonce, at + nonce.length)) holes.push(at);
    const headers = this.getHeaderNames()
      .filter((name) => !CONNECTION_HEADERS.has(name))
      .map((name): [string, string | string[]] => {
        const value = this.getHeader(name)!;
        return [name, Array.isArray(value) ? value : String(value)];
      });
    return { status: this.statusCode, headers, nonce, body, holes, checks: [] };
  }
}

const headerOf = (page: RenderedPage, name: string) => page.headers.find(([n]) => n === name)?.[1];

/**
 * The keys asked lately, without their pages: a render is kept only when its key was asked before. A
 * market page a crawler or a shared link opens once would otherwise take ~200 KB of the budget the data
 * entries share (lib/markets/reads/), pushing out a thousand list items to keep a page nobody asks
 * again; a page people read is rendered twice, then served from memory. Keys only: ~5 MB at most.
 */
const asked = new LRUCache<string, true>({ max: 20_000 });

/** Renders the request through Next into memory, recording what the render reads. */
async function renderPage(req: IncomingMessage, render: Render, record: RenderRecord, admit: boolean): Promise<Loaded<RenderedPage>> {
  const nonce = newNonce();
  const acceptEncoding = req.headers["accept-encoding"];
  // Uncompressed and with the placeholder nonce: every response compresses and fills in its own.
  delete req.headers["accept-encoding"];
  const res = new CapturedResponse(req);
  try {
    await recordingRender(record, () => Promise.all([render(req, res, nonce), res.ended]));
  } finally {
    if (acceptEncoding !== undefined) req.headers["accept-encoding"] = acceptEncoding;
  }
  const page = res.page(nonce);
  page.checks = record.checks;
  // Only a whole 200 page, asked before, that read nothing stale or uncached and sets no cookie is shown again.
  const reusable = admit && !record.unfit && page.status === 200 && !headerOf(page, "set-cookie") && !headerOf(page, "content-encoding");
  const headerBytes = page.headers.reduce((n, [name, v]) => n + name.length + String(v).length, 0);
  // Its weight: the body, the headers and an eighth for the gzip form a reader may add later.
  return { value: page, expiresAt: record.expiresAt, noStore: !reusable, bytes: page.body.length + Math.ceil(page.body.length / 8) + headerBytes };
}

// ------------------------------------------------------------------ a response

/** Whether every check of a rendered page still holds (a check that fails counts as not). */
async function holds(page: RenderedPage): Promise<boolean> {
  const answers = await Promise.all(page.checks.map((check) => check().catch(() => false)));
  return answers.every(Boolean);
}

/** Whether Accept-Encoding takes gzip (by name or by *, with a weight above 0). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of String(header ?? "").split(",")) {
    const [token, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (token === "gzip" || token === "x-gzip") gzip = weight;
    else if (token === "*") any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}

/** The page's body with `nonce` in every hole. */
export function fillNonce(page: Pick<RenderedPage, "body" | "holes">, nonce: string): Buffer {
  const body = Buffer.from(page.body);
  for (const at of page.holes) body.write(nonce, at, "latin1");
  return body;
}

function send(res: ServerResponse, page: RenderedPage, how: "HIT" | "MISS" | "BYPASS", gzip: boolean) {
  // Each response its own nonce, the same length as the placeholder: in the CSP and on every script.
  const nonce = newNonce();
  for (const [name, value] of page.headers)
    res.setHeader(name, Array.isArray(value) ? value.map((v) => v.replaceAll(page.nonce, nonce)) : value.replaceAll(page.nonce, nonce));
  res.setHeader(RENDER_CACHE_HEADER, how);
  let body: Buffer;
  if (gzip && !/no-transform/i.test(String(headerOf(page, "cache-control") ?? ""))) {
    page.gzip ??= gzipTemplate(
      [...page.holes, page.body.length].map((end, i) => page.body.subarray(i ? page.holes[i - 1] + page.nonce.length : 0, end)),
      page.nonce.length,
    );
    body = fillGzip(page.gzip, Buffer.from(nonce, "latin1"));
    res.setHeader("Content-Encoding", "gzip");
  } else {
    body = fillNonce(page, nonce);
  }
  res.setHeader("Content-Length", body.length);
  res.statusCode = page.status;
  res.end(body);
}

// ------------------------------------------------------------------ the hook in server.ts

/** Returns a handler that answers a cacheable page request (true) or leaves the request to Next (false). */
export function pageCache(render: Render) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const key = pageKey(req);
    if (key === null) return false;
    if (key === "private") {
      res.setHeader(RENDER_CACHE_HEADER, "BYPASS"); // Next keeps headers set before it writes
      return false;
    }
    void answer(req, res, key, render);
    return true;
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, key: string, render: Render) {
  const gzip = acceptsGzip(req.headers["accept-encoding"]);
  const record = newRenderRecord();
  let mine = false;
  let result: CacheResult<RenderedPage>;
  const admit = asked.has(key);
  if (!admit) asked.set(key, true);
  try {
    for (let tries = 1; ; tries++) {
      result = await marketCache().get(key, record.tags, () => {
        mine = true;
        return renderPage(req, render, record, admit);
      });
      // A render this request did not start (kept, or in flight when it came) is shown only if what no tag
      // covers still holds now; else it is dropped, and the next render (or one started since) is asked.
      if (mine || result.status === "STALE" || result.value.checks.length === 0 || (await holds(result.value))) break;
      marketCache().expire(key, result.value);
      if (tries === 3) {
        // Renders keep going out of date under this request (a list moving on every check): its own, uncached.
        res.setHeader(RENDER_CACHE_HEADER, "BYPASS");
        return void render(req, res);
      }
    }
  } catch (err) {
    // The render this request joined failed: it gets its own, uncached; its own failed: a bland 500.
    if (!mine) return void render(req, res);
    console.error(`[page-cache] rendering ${req.url} failed:`, err);
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    res.end("Internal Server Error\n");
    return;
  }
  send(res, result.value, result.status === "HIT" ? "HIT" : result.status === "BYPASS" ? "BYPASS" : "MISS", gzip);
}
