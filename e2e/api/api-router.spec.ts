// /v1 answered by its route modules without Next's request pipeline (lib/http/api-router.ts): gzip
// when the client takes it and the body is 1 KB or more, compressed once per cached representation and
// never older than the last change the instance heard of; HEAD as GET without a body; Vary that names
// what the answer varies by and nothing of Next's router.
import http from "node:http";
import zlib from "node:zlib";
import { expect, test, testRun } from "../fixtures";
import { collect, connectClient, join, waitFor } from "../realtime-helpers";
import { makeMarket } from "../support/markets";

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly these headers (fetch would add and decode its own Accept-Encoding). */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${testRun().baseURL}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Two answers of one URL that carry the same representation (same ETag): other specs write to the lists meanwhile. */
async function samePair(first: () => Promise<Raw>, second: () => Promise<Raw>): Promise<[Raw, Raw]> {
  let pair: [Raw, Raw] = [await first(), await second()];
  for (let tries = 0; tries < 10 && pair[0].headers.etag !== pair[1].headers.etag; tries++) pair = [await first(), await second()];
  return pair;
}

const json = (r: Raw) => JSON.parse((r.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(r.body) : r.body).toString("utf8"));

test("api router – gzip for clients that take it on bodies of 1 KB or more, the same JSON either way, Vary without Next's router headers", async ({ sql }) => {
  const list = "/v1/markets?limit=20";
  const [plain, gz] = await samePair(
    () => raw(list),
    () => raw(list, { "accept-encoding": "gzip, br" }),
  );
  expect(plain.status).toBe(200);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(gz.headers["content-encoding"]).toBe("gzip");
  expect(Number(gz.headers["content-length"])).toBe(gz.body.length);
  expect(gz.body.length).toBeLessThan(plain.body.length);
  expect(json(gz)).toEqual(json(plain));
  for (const r of [plain, gz]) {
    expect(r.headers.vary).toBe("Accept, Accept-Encoding");
    expect(r.headers.etag).toBe(plain.headers.etag);
  }
  // gzip refused by weight: identity.
  expect((await raw(list, { "accept-encoding": "gzip;q=0, identity" })).headers["content-encoding"]).toBeUndefined();
  // A small body (an error) is sent as it is, in the API's error shape and headers.
  const small = await raw("/v1/markets?limit=abc", { "accept-encoding": "gzip" });
  expect(small.status).toBe(400);
  expect(small.headers["content-encoding"]).toBeUndefined();
  expect(small.headers["cache-control"]).toBe("no-store");
  expect(small.headers["access-control-allow-origin"]).toBe("*");
  expect(json(small)).toMatchObject({ statusCode: 400, error: "Bad Request" });
  // A 304 carries the same validators and Vary, no body. On a market of this test's own: other specs
  // write to the live list between any two requests (CI saw its ETag move under this check).
  const m = await makeMarket(sql, { prefix: "api-router-304", status: "ACTIVE", description: "A market of the api-router spec. ".repeat(40) });
  const market = `/v1/markets/slug/${m.slug}`;
  const current = await raw(market, { "accept-encoding": "gzip" });
  expect(current.headers["content-encoding"]).toBe("gzip");
  const notModified = await raw(market, { "accept-encoding": "gzip", "if-none-match": String(current.headers.etag) });
  expect(notModified.status).toBe(304);
  expect(notModified.body.length).toBe(0);
  expect(notModified.headers.vary).toBe("Accept, Accept-Encoding");
  expect(notModified.headers.etag).toBe(current.headers.etag);
});

test("api router – HEAD answers GET's status and headers without a body, also for errors and unknown paths", async () => {
  for (const path of ["/v1/markets?limit=5", "/v1/markets?limit=abc", "/v1/no-such-thing", "/v1/openapi.json"]) {
    const [get, head] = await samePair(
      () => raw(path, { "accept-encoding": "gzip" }),
      () => raw(path, { "accept-encoding": "gzip" }, "HEAD"),
    );
    expect(head.status, path).toBe(get.status);
    expect(head.body.length, path).toBe(0);
    for (const name of ["content-type", "content-encoding", "content-length", "etag", "vary", "cache-control", "access-control-allow-origin"])
      expect(head.headers[name], `${path} ${name}`).toBe(get.headers[name]);
  }
});

test("api router – the compressed answer of a cached market is never older than the last change the instance heard of", async ({ sql }) => {
  // A description long enough that the answer is compressed (1 KB or more).
  const question = "Asked by the api-router spec?";
  const m = await makeMarket(sql, { prefix: "api-router", status: "ACTIVE", question, description: "A market of the api-router spec. ".repeat(40) });
  const path = `/v1/markets/${m.id}`;
  const gz = () => raw(path, { "accept-encoding": "gzip" });
  const socket = await connectClient(testRun().baseURL);
  try {
    expect(await join(socket, `market:${m.slug}:price`)).toEqual({ ok: true });
    const got = collect(socket);
    // Asked until memory answers it, so that what follows reads a cached representation and its gzip.
    await expect.poll(async () => (await gz()).headers["x-cache"]).toBe("HIT");
    const before = await gz();
    expect(before.headers["content-encoding"]).toBe("gzip");
    expect(json(before).question).toBe(question);
    for (let i = 1; i <= 5; i++) {
      const renamed = `Renamed ${i} by the api-router spec?`;
      const seen = got.length;
      await sql`UPDATE markets SET question = ${renamed} WHERE id = ${m.id}`;
      await waitFor(() => got.length > seen, 15_000, `the signal of rename ${i}`);
      const after = await gz();
      expect(after.headers["content-encoding"]).toBe("gzip");
      expect(json(after).question).toBe(renamed);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      // The new representation is cached and compressed again for the next reader.
      expect(json(await gz()).question).toBe(renamed);
    }
  } finally {
    socket.close();
  }
});
