// Resumable streams (docs/api.md "Push channels", "Positions"): GET /v1/stream sends every change of the
// channels it follows with its position as the event id; a client that comes back with Last-Event-ID gets
// exactly what it missed, in order, then the live events; the data equals the REST answer of that moment.
// Serial: the per-client cap on streams counts every stream this file opens from 127.0.0.1.
import { randomUUID } from "node:crypto";
import type { Socket } from "socket.io-client";
import { expect, test, testRun } from "../fixtures";
import { connectClient, emitAck, waitFor } from "../realtime-helpers";
import { addOrder, addTrades, makeMarket } from "../support/markets";
import { openStream, type SseEvent, type SseStream } from "../support/sse";

test.describe.configure({ mode: "serial" });

const streams: SseStream[] = [];
const sockets: Socket[] = [];
test.afterEach(() => {
  for (const s of streams.splice(0)) s.close();
  for (const s of sockets.splice(0)) s.disconnect();
});

const streamUrl = (channels: string[], extra = "") => `${testRun().baseURL}/v1/stream?channels=${encodeURIComponent(channels.join(","))}${extra}`;
async function open(channels: string[], extra = "", headers: Record<string, string> = {}) {
  const s = await openStream(streamUrl(channels, extra), headers);
  streams.push(s);
  return s;
}
const channelsOf = (slug: string) => [`market:${slug}:orderbook`, `market:${slug}:trades`, `market:${slug}:price`];
const brief = (e: SseEvent) => `${e.id} ${e.event} ${e.data.channel}`;

test("stream – events carry their position as id, in commit order; a book event carries the book GET …/orderbook answers at that version", async ({
  sql,
  request,
}) => {
  const m = await makeMarket(sql, { prefix: "sse-live", status: "ACTIVE" });
  const s = await open(channelsOf(m.slug));
  expect(s.status).toBe(200);
  expect(s.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  await s.waitFor((ev) => ev.some((e) => e.event === "heartbeat"), 5_000, "the opening heartbeat");

  await addOrder(sql, m, { price: "0.420", shares: "15.00" });
  await s.waitFor((ev) => ev.some((e) => e.event === "orderbook"), 10_000, "the book event");
  const book = s.changes().find((e) => e.event === "orderbook") as SseEvent;
  const rest = await request.get(`/v1/markets/slug/${m.slug}/orderbook?outcomeId=${m.yes}`);
  expect(book.data.book).toEqual(await rest.json());
  expect(String(book.data.version)).toBe(rest.headers()["book-version"]);
  expect(String(book.data.checksum)).toBe(rest.headers()["book-checksum"]);
  expect(book.data).toMatchObject({ channel: `market:${m.slug}:orderbook`, slug: m.slug, outcomeId: m.yes, position: Number(book.id) });

  const ids = await addTrades(sql, m, [{ price: "0.430" }, { price: "0.440", outcome: m.no }]);
  await s.waitFor((ev) => ev.filter((e) => e.event === "trades").length >= 2, 10_000, "the trades events");
  const carried = s
    .changes()
    .filter((e) => e.event === "trades")
    .flatMap((e) => e.data.trades as Array<{ id: string }>);
  expect(new Set(carried.map((t) => t.id))).toEqual(new Set(ids));
  const tape = (await (await request.get(`/v1/markets/slug/${m.slug}/trades?limit=10`)).json()) as { trades: Array<{ id: string }> };
  for (const t of carried) expect(t).toEqual(tape.trades.find((x) => x.id === t.id));
  await s.waitFor((ev) => ev.some((e) => e.event === "price"), 10_000, "a price event");

  // Positions never go back; the events of one position come together.
  const positions = s.changes().map((e) => Number(e.id));
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  const [{ max }] = await sql<{ max: string }[]>`SELECT max(position)::text AS max FROM change_log`;
  expect(Number(max)).toBeGreaterThanOrEqual(positions.at(-1) as number);
});

test("stream – a client that reconnects with Last-Event-ID gets exactly the events it missed, in order, none twice", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "sse-resume", status: "ACTIVE" });
  const channels = channelsOf(m.slug);
  const all = await open(channels); // never disconnects: what the resumed client must end up with
  const first = await open(channels);
  await Promise.all([all, first].map((s) => s.waitFor((ev) => ev.length > 0, 5_000, "the opening heartbeat")));

  await addOrder(sql, m, { price: "0.300" });
  await first.waitFor((ev) => ev.some((e) => e.event === "orderbook"), 10_000, "the first book event");
  first.close();
  const lastId = first.lastId() as string;
  // Missed while away: books, trades, a probability.
  for (let i = 0; i < 4; i++) {
    await addOrder(sql, m, { price: `0.3${i + 1}0`, outcome: i % 2 ? m.no : m.yes });
    await addTrades(sql, m, [{ price: "0.500" }]);
  }
  await sql`UPDATE outcomes SET probability = 55.5 WHERE id = ${m.yes}`;
  const again = await open(channels, "", { "Last-Event-ID": lastId });
  await addOrder(sql, m, { price: "0.390" }); // and one after it came back
  const want = async () => {
    await all.waitFor((ev) => ev.filter((e) => e.event === "orderbook").length === 6, 15_000, "every book event on the continuous stream");
    return all.changes().filter((e) => Number(e.id) > Number(lastId));
  };
  const expected = await want();
  await again.waitFor((ev) => ev.filter((e) => e.event !== "heartbeat").length >= expected.length, 15_000, "the missed events and the live one");
  await new Promise((r) => setTimeout(r, 300)); // nothing more may come
  expect(again.changes().map(brief)).toEqual(expected.map(brief));
  expect(again.changes().map((e) => e.data)).toEqual(expected.map((e) => e.data));
});

test("stream – since older than the retention window or past every position: a reset that says where to carry on", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "sse-reset", status: "ACTIVE" });
  await addOrder(sql, m);
  await sql`UPDATE change_log_state SET horizon = greatest(horizon, 1)`;
  const old = await open([`market:${m.slug}:orderbook`], "&since=0");
  await old.waitFor((ev) => ev.some((e) => e.event === "reset"), 10_000, "the reset");
  const reset = old.events.find((e) => e.event === "reset") as SseEvent;
  expect(reset.data).toMatchObject({ reason: "retention" });
  expect(Number(reset.id)).toBe(reset.data.position);
  const [{ horizon }] = await sql<{ horizon: string }[]>`SELECT horizon::text FROM change_log_state`;
  expect(reset.data.horizon).toBe(Number(horizon));

  const ahead = await open([`market:${m.slug}:orderbook`], "&since=9007199254740");
  await ahead.waitFor((ev) => ev.some((e) => e.event === "reset"), 10_000, "the reset");
  expect(ahead.events.find((e) => e.event === "reset")?.data).toMatchObject({ reason: "unknown" });
  // After the reset the stream is live.
  await addOrder(sql, m, { price: "0.250" });
  await ahead.waitFor((ev) => ev.some((e) => e.event === "orderbook"), 10_000, "a live book event after the reset");
});

test("stream – a users change (a name) resets no stream: the stream goes on with the next book, and the market page shows the new name", async ({
  sql,
  request,
}) => {
  const m = await makeMarket(sql, { prefix: "sse-users", status: "ACTIVE" });
  await addTrades(sql, m, [{ price: "0.450" }]);
  const s = await open(channelsOf(m.slug));
  await s.waitFor((ev) => ev.some((e) => e.event === "heartbeat"), 5_000, "the opening heartbeat");
  const renamed = `sse-user-${randomUUID().slice(0, 8)}`;
  await sql`UPDATE users SET username = ${renamed} WHERE id = ${m.users[0]}`;
  await addOrder(sql, m, { price: "0.410", shares: "12.00" });
  await s.waitFor((ev) => ev.some((e) => e.event === "orderbook"), 10_000, "the book after the users change");
  expect(s.events.filter((e) => e.event === "reset").map(brief)).toEqual([]);
  await expect.poll(async () => JSON.stringify(await (await request.get(`/v1/markets/${m.id}`)).json()).includes(renamed), { timeout: 10_000 }).toBe(true);
});

test("stream – the markets channel: created, changed, resolved and deleted markets with their list item", async ({ sql, request }) => {
  const s = await open(["markets"]);
  await s.waitFor((ev) => ev.length > 0, 5_000, "the opening heartbeat");
  const m = await makeMarket(sql, { prefix: "sse-markets", status: "ACTIVE" });
  const mine = () => s.changes().filter((e) => e.data.id === m.id);
  await s.waitFor(() => mine().some((e) => e.data.type === "created"), 10_000, "created");
  await sql`UPDATE markets SET status = 'RESOLVED', winning_outcome_id = ${m.yes}, resolved_at = now() WHERE id = ${m.id}`;
  await s.waitFor(() => mine().some((e) => e.data.type === "resolved"), 10_000, "resolved");
  const resolved = mine().find((e) => e.data.type === "resolved") as SseEvent;
  const list = (await (await request.get(`/v1/markets?status=RESOLVED&q=${encodeURIComponent(m.slug)}&limit=100`)).json()) as {
    markets: Array<{ id: string }>;
  };
  expect(resolved.data.market).toEqual(list.markets.find((x) => x.id === m.id));
  expect((resolved.data.market as { status: string }).status).toBe("RESOLVED");
  await sql`DELETE FROM markets WHERE id = ${m.id}`;
  await s.waitFor(() => mine().some((e) => e.data.type === "deleted"), 10_000, "deleted");
  expect(mine().find((e) => e.data.type === "deleted")?.data.market).toBeNull();
});

test("stream – shape=camel carries the camelCase variant of the book", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "sse-camel", status: "ACTIVE" });
  const s = await open([`market:${m.slug}:orderbook`], "&shape=camel");
  await s.waitFor((ev) => ev.length > 0, 5_000, "the opening heartbeat");
  await addOrder(sql, m, { price: "0.410" });
  await s.waitFor((ev) => ev.some((e) => e.event === "orderbook"), 10_000, "the book event");
  expect((s.changes()[0].data.book as Record<string, unknown>).outcomeId).toBe(m.yes);
});

test("stream – bad requests get the API's 4xx; a client holds at most 10 streams", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "sse-bad", status: "ACTIVE" });
  const ch = `market:${m.slug}:orderbook`;
  const cases: Array<[string, Record<string, string>, number, string]> = [
    [`/v1/stream`, {}, 400, "channels is required"],
    [`/v1/stream?channels=nope`, {}, 400, "Invalid channel: nope"],
    [`/v1/stream?channels=market:no-such-market-${randomUUID()}:price`, {}, 404, "Unknown market"],
    [`/v1/stream?channels=${ch}&since=abc`, {}, 400, "since must be a position"],
    [`/v1/stream?channels=${ch}&since=-1`, {}, 400, "since must be a position"],
    [`/v1/stream?channels=${ch}&colour=red`, {}, 400, "property colour should not exist"],
    [`/v1/stream?channels=${ch}&shape=xml`, {}, 400, "shape must be one of"],
    [`/v1/stream?channels=${ch}`, { "Last-Event-ID": "x1" }, 400, "Last-Event-ID must be a position"],
    [`/v1/stream?channels=${Array.from({ length: 21 }, (_, i) => `market:${m.slug}-${i}:price`).join(",")}`, {}, 400, "Too many channels"],
  ];
  for (const [path, headers, status, message] of cases) {
    const res = await fetch(`${testRun().baseURL}${path}`, { headers });
    expect(res.status, path).toBe(status);
    expect(JSON.stringify(await res.json()), path).toContain(message);
  }
  for (let i = 0; i < 10; i++) expect((await open([ch])).status).toBe(200);
  const eleventh = await fetch(streamUrl([ch]));
  expect(eleventh.status).toBe(429);
  expect(((await eleventh.json()) as { message: string }).message).toContain("Too many streams");
});

test("socket.io – join with since replays the missed events of the channel (as the stream sends them), then live signals carry positions", async ({ sql }) => {
  const m = await makeMarket(sql, { prefix: "sio-resume", status: "ACTIVE" });
  const ch = `market:${m.slug}:orderbook`;
  const sse = await open([ch]);
  await sse.waitFor((ev) => ev.length > 0, 5_000, "the opening heartbeat");
  const since = Number(sse.lastId());
  for (let i = 0; i < 3; i++) await addOrder(sql, m, { price: `0.2${i}0` });
  await sse.waitFor((ev) => ev.filter((e) => e.event === "orderbook").length === 3, 10_000, "three book events");

  const socket = await connectClient(testRun().baseURL);
  sockets.push(socket);
  const got: Array<Record<string, unknown>> = [];
  socket.on("orderbook", (sig: Record<string, unknown>) => got.push(sig));
  const ack = await emitAck(socket, "join", { channel: ch, since });
  expect(ack).toMatchObject({ ok: true });
  const replayed = got.filter((g) => g.replay);
  expect(replayed.map((g) => g.position)).toEqual(sse.changes().map((e) => Number(e.id)));
  expect(replayed.map(({ replay, ...rest }) => rest)).toEqual(sse.changes().map((e) => e.data));
  expect((ack as { position: number }).position).toBeGreaterThanOrEqual(replayed.at(-1)?.position as number);

  await addOrder(sql, m, { price: "0.290" });
  await waitFor(() => got.some((g) => !g.replay), 10_000, "a live signal");
  const live = got.find((g) => !g.replay) as Record<string, unknown>;
  expect(typeof live.position).toBe("number");
  expect(live.position as number).toBeGreaterThan(replayed.at(-1)?.position as number);

  await sql`UPDATE change_log_state SET horizon = greatest(horizon, 1)`;
  const old = await emitAck(socket, "join", { channel: `market:${m.slug}:price`, since: 0 });
  expect(old).toMatchObject({ ok: true, reset: true });
});

test("socket.io – the markets channel: a created market arrives as a `market` event with its list item", async ({ sql }) => {
  const socket = await connectClient(testRun().baseURL);
  sockets.push(socket);
  const got: Array<Record<string, unknown>> = [];
  socket.on("market", (e: Record<string, unknown>) => got.push(e));
  expect(await emitAck(socket, "join", { channel: "markets" })).toEqual({ ok: true });
  const m = await makeMarket(sql, { prefix: "sio-markets", status: "ACTIVE" });
  await waitFor(() => got.some((e) => e.id === m.id && e.type === "created"), 10_000, "the created market");
  const created = got.find((e) => e.id === m.id) as Record<string, unknown>;
  expect(created).toMatchObject({ channel: "markets", slug: m.slug, market: { id: m.id, slug: m.slug, status: "ACTIVE" } });
  expect(typeof created.position).toBe("number");
});
