// /v1 without Next's request machinery: server.ts hands every /v1 GET, HEAD and OPTIONS that the
// front door let through to the route modules under app/v1 directly, the same handlers Next would call,
// matched by the same file-system rules. Next's app-route pipeline cost about a millisecond a request,
// most of the CPU of an answer from memory. What Next added is done here: HEAD from GET without the body,
// gzip for clients that take it (once per representation of a cached answer, on the thread pool), and
// Vary: Accept-Encoding. Everything else (status, ETag/304, Cache-Control, CORS, X-Cache, errors) is the
// route wrapper's (lib/api/route.ts): a /v1 handler's `reply` gives the Reply it made (its body a
// Representation, lib/cache/representation.ts), written here as it is; other handlers give a Response. The load balancers' probes (/healthz, /readyz) go the same
// way: through Next a probe allocated about 230 KB, here about 37 KB.
import "server-only";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { apiErrorAnswer } from "@/lib/api/headers";
import { type ApiRouteHandler, type Reply, representationIn } from "@/lib/api/route";
import type { Body } from "@/lib/cache/representation";
import { acceptsGzip } from "@/lib/pages/page-cache";

type Params = { params: Promise<Record<string, string | string[] | undefined>> };
type Handler = ((req: Request, ctx: Params) => Response | Promise<Response>) &
  Partial<Pick<ApiRouteHandler<Record<string, string | string[] | undefined>>, "reply">>;
type RouteModule = Partial<Record<"GET" | "HEAD" | "OPTIONS", Handler>>;

type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "catchAll"; name: string; optional: boolean };

export interface ApiRoute {
  /** The folder under the app directory, e.g. `v1/markets/[id]/orderbook`. */
  folder: string;
  segments: Segment[];
  module: RouteModule;
}

/** Bodies smaller than this are sent as they are (what Next's compression did: 1 KB). */
const GZIP_THRESHOLD = 1024;
const gzip = promisify(zlib.gzip);

function segmentOf(name: string): Segment {
  const catchAll = /^\[\[?\.\.\.([^\]]+)\]\]?$/.exec(name);
  if (catchAll) return { kind: "catchAll", name: catchAll[1], optional: name.startsWith("[[") };
  const param = /^\[([^\]]+)\]$/.exec(name);
  if (param) return { kind: "param", name: param[1] };
  return { kind: "static", value: name };
}

/** Next's order: at the first segment where two routes differ, static before dynamic before catch-all. */
const rank = (s: Segment | undefined) => (s === undefined ? -1 : s.kind === "static" ? 0 : s.kind === "param" ? 1 : 2);
export function bySpecificity(a: Pick<ApiRoute, "segments">, b: Pick<ApiRoute, "segments">): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const d = rank(a.segments[i]) - rank(b.segments[i]);
    if (d !== 0) return d;
  }
  return 0;
}

/** The folders of the app directory whose routes are answered here: the API and the load balancers' probes. */
export const ROUTED_FOLDERS = ["v1", "healthz", "readyz"] as const;

/** Every route.ts under each of ROUTED_FOLDERS, most specific first, not loaded. Route groups `(x)` add no segment; `_private` folders are not routes. */
export function scanApiRoutes(appDir: string): Array<Omit<ApiRoute, "module"> & { file: string }> {
  const found: Array<Omit<ApiRoute, "module"> & { file: string }> = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(appDir, folder), { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith("_")) walk(path.join(folder, entry.name));
      else if (entry.isFile() && /^route\.(ts|js)$/.test(entry.name)) {
        const names = folder.split(path.sep);
        const segments = names.filter((name) => !/^\(.*\)$/.test(name)).map(segmentOf);
        found.push({ folder: names.join("/"), segments, file: path.join(appDir, folder, entry.name) });
      }
    }
  };
  for (const folder of ROUTED_FOLDERS) walk(folder);
  return found.sort(bySpecificity);
}

/** The routes of scanApiRoutes with their modules (under tsx, the sources Next builds from). */
export async function loadApiRoutes(appDir: string): Promise<ApiRoute[]> {
  return Promise.all(scanApiRoutes(appDir).map(async ({ file, ...route }) => ({ ...route, module: (await import(pathToFileURL(file).href)) as RouteModule })));
}

/** The route a path names and its params (decoded), or null. `path` is the request's path, not decoded. */
export function matchRoute<R extends Pick<ApiRoute, "segments">>(
  routes: R[],
  pathname: string,
): { route: R; params: Record<string, string | string[]> } | null {
  const parts = pathname.split("/").slice(1);
  for (const route of routes) {
    const params: Record<string, string | string[]> = {};
    let i = 0;
    let ok = true;
    for (const segment of route.segments) {
      if (segment.kind === "catchAll") {
        const rest = parts.slice(i).map(decodeURIComponent);
        if (rest.length === 0 && !segment.optional) ok = false;
        else if (rest.length) params[segment.name] = rest;
        i = parts.length;
        break;
      }
      const part = parts[i++];
      if (part === undefined || part === "") {
        ok = false;
        break;
      }
      if (segment.kind === "static" ? part !== segment.value : ((params[segment.name] = decodeURIComponent(part)), false)) {
        ok = false;
        break;
      }
    }
    if (ok && i === parts.length) return { route, params };
  }
  return null;
}

function requestOf(req: IncomingMessage, method: "GET" | "OPTIONS"): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    // HTTP/2 pseudo-headers and anything the fetch Headers refuse are not the handlers' business.
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {}
  }
  return new Request(`http://localhost${req.url}`, { method, headers });
}

function withVary(headers: Record<string, string>) {
  const vary = headers.vary;
  headers.vary = vary ? (/\baccept-encoding\b/i.test(vary) ? vary : `${vary}, Accept-Encoding`) : "Accept-Encoding";
}

/** A body that is not JSON or text (an export's Parquet bytes): streamed as the handler sized it, never read into memory. */
const isFile = (response: Response) => response.body !== null && !/json|text/.test(response.headers.get("content-type") ?? "");

async function sendFile(req: IncomingMessage, res: ServerResponse, response: Response) {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  withVary(headers);
  res.writeHead(response.status, headers);
  const body = response.body as WebReadableStream<Uint8Array>;
  if (req.method === "HEAD") {
    await body.cancel();
    res.end();
    return;
  }
  // A client that goes away midway is not a failure of the server.
  await pipeline(Readable.fromWeb(body), res).catch((err) => {
    if (!res.destroyed && (err as NodeJS.ErrnoException).code !== "ERR_STREAM_PREMATURE_CLOSE") throw err;
  });
}

/** A Response (a handler that is not the route wrapper's: the probes, a preflight) as a Reply. */
async function replyOfResponse(response: Response): Promise<Reply> {
  return { status: response.status, headers: response.headers, body: response.body ? Buffer.from(await response.arrayBuffer()) : null };
}

async function send(req: IncomingMessage, res: ServerResponse, reply: Reply) {
  const headers: Record<string, string> = {};
  reply.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const rep = representationIn(reply);
  let body: Body = rep ? rep.body : ((reply.body as Body | null) ?? "");
  // Every answer of a URL varies by Accept-Encoding (a 304 as much as its 200), whether or not this one is compressed.
  withVary(headers);
  let length = rep ? rep.length : Buffer.byteLength(body);
  if (length >= GZIP_THRESHOLD && /json|text/.test(headers["content-type"] ?? "") && acceptsGzip(req.headers["accept-encoding"])) {
    // A representation is compressed once, for every request that is sent it.
    body = rep ? await rep.gzipped() : await gzip(body);
    length = body.length;
    headers["content-encoding"] = "gzip";
  }
  if (reply.status !== 204 && reply.status !== 304) headers["content-length"] = String(length);
  res.writeHead(reply.status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

function fail(req: IncomingMessage, res: ServerResponse, err: unknown) {
  console.error(`[api] ${req.method} ${(req.url ?? "").split("?")[0]} failed:`, err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const answer = apiErrorAnswer(500, "Internal server error");
  res.writeHead(answer.status, { ...answer.headers, "Content-Length": Buffer.byteLength(answer.body) });
  res.end(req.method === "HEAD" ? undefined : answer.body);
}

/**
 * A handler that answers a request under a routed folder (true) from the routes, or leaves it to Next
 * (false): a request in absolute form, a path no route names (none under /v1: app/v1 has its catch-all), a
 * method no module exports. The front door (lib/http/front-door.ts) has already refused malformed paths
 * and other methods.
 */
export function apiRouter(routes: ApiRoute[]) {
  // "/v1", "/healthz", …: a path is routed when it is one of them or goes on from one with "/" or "?".
  const prefixes = [...new Set(routes.flatMap((r) => (r.segments[0]?.kind === "static" ? [`/${r.segments[0].value}`] : [])))];
  const routed = (url: string) => prefixes.some((p) => url.startsWith(p) && (url.length === p.length || url[p.length] === "/" || url[p.length] === "?"));
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? "";
    if (!routed(url)) return false;
    const method = req.method;
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") return false;
    try {
      const q = url.indexOf("?");
      const match = matchRoute(routes, q < 0 ? url : url.slice(0, q));
      const handler = match && (method === "OPTIONS" ? match.route.module.OPTIONS : (match.route.module[method] ?? match.route.module.GET));
      if (!match || !handler) return false;
      const request = requestOf(req, method === "OPTIONS" ? "OPTIONS" : "GET");
      const ctx = { params: Promise.resolve(match.params) };
      // A /v1 handler's Reply as it is; any other handler's Response, which may come without a promise (the probes' do), as Next allows.
      const { reply } = handler;
      const answered = reply
        ? reply(request, ctx).then((r) => send(req, res, r))
        : Promise.resolve(handler(request, ctx)).then((response) =>
            isFile(response) ? sendFile(req, res, response) : replyOfResponse(response).then((r) => send(req, res, r)),
          );
      answered.catch((err) => fail(req, res, err));
    } catch (err) {
      fail(req, res, err);
    }
    return true;
  };
}
