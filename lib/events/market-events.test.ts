import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EVENT_KINDS, marketEventOf, parseMarketEvent, pingPayload, pushKindsOf } from "./market-events";

const OUTCOME = "0b7c6c1e-3f0a-4d55-9b1e-2a7f5c9d8e01";
const MARKET = "5d1f3c2a-8e4b-4a6f-9c7d-1e2f3a4b5c6d";

describe("market events – the one parse", () => {
  it.each([
    [`{"k":"orderbook","s":"a-market","m":"${MARKET}","o":"${OUTCOME}"}`, { kind: "orderbook", slug: "a-market", marketId: MARKET, outcomeId: OUTCOME }],
    ['{"k":"price","s":"a-market","o":null}', { kind: "price", slug: "a-market", marketId: null, outcomeId: null }],
    [`{"k":"detail","s":"a-market","m":"${MARKET}"}`, { kind: "detail", slug: "a-market", marketId: MARKET, outcomeId: null }],
    ['{"k":"list"}', { kind: "list", slug: null, marketId: null, outcomeId: null }],
    ['{"k":"flush"}', { kind: "flush", slug: null, marketId: null, outcomeId: null }],
  ])("reads %s", (payload, event) => {
    expect(parseMarketEvent(payload)).toEqual(event);
  });

  it("reads the groups of the named market (migration 0017); groups it cannot read leave the event whole, not saying them", () => {
    const payload = (r: unknown) => JSON.stringify({ k: "trade", s: "a", m: MARKET, o: OUTCOME, r });
    const read = (r: unknown) => parseMarketEvent(payload(r))?.groups;
    expect(
      read([
        ["SPORTS", "nba", ["finals", null], "ACTIVE"],
        ["SPORTS", "", [], "RESOLVED"],
      ]),
    ).toEqual([
      { category: "SPORTS", subCategory: "nba", tags: ["finals"], status: "ACTIVE" },
      { category: "SPORTS", subCategory: "", tags: [], status: "RESOLVED" },
    ]);
    expect(read([["SPORTS", "nba", []]]), "without a status").toEqual([{ category: "SPORTS", subCategory: "nba", tags: [] }]);
    for (const r of [
      [null],
      [["SPORTS", "nba"]],
      [["SPORTS", null, []]],
      [["SPORTS", "nba", [], "ACTIVE", "x"]],
      [["SPORTS", "nba", [], null]],
      "x",
      [],
      null,
    ]) {
      const event = parseMarketEvent(payload(r));
      expect(event, JSON.stringify(r)).toMatchObject({ kind: "trade", slug: "a", marketId: MARKET, outcomeId: OUTCOME, groups: null });
    }
    expect(parseMarketEvent(JSON.stringify({ k: "trade", s: "a" }))?.groups).toBeUndefined();
  });

  it("reads a position, a book version and (from change_log, migration 0021) new trade ids", () => {
    const raw = { k: "trade", s: "a", m: MARKET, o: OUTCOME, p: 42, i: ["t1", "t2"] };
    expect(marketEventOf(raw)).toEqual({ kind: "trade", slug: "a", marketId: MARKET, outcomeId: OUTCOME, position: 42, tradeIds: ["t1", "t2"] });
    expect(parseMarketEvent(JSON.stringify({ k: "orderbook", s: "a", o: OUTCOME, p: 7, v: 3 }))).toMatchObject({ position: 7, version: 3 });
    expect(marketEventOf({ k: "trade", s: "a", i: [1] }), "trade ids that are not strings").toBeNull();
  });

  it("reads a kind it does not know as a flush: a consumer that cannot tell what changed assumes anything did", () => {
    expect(parseMarketEvent('{"k":"from-a-newer-migration","s":"a"}')).toMatchObject({ kind: "flush", slug: "a" });
  });

  it.each([
    [pingPayload("123-abc"), "a listener's ping"],
    ['{"s":"a","o":null}', "no kind"],
    ['{"k":"price","s":7}', "a slug that is not a string"],
    ["not json", "not JSON"],
    ["null", "JSON null"],
    ["[1]", "an array"],
  ])("ignores %j (%s)", (payload) => {
    expect(parseMarketEvent(payload)).toBeNull();
  });

  it("maps a market's events to the channels they signal: a trade moves the price and the tape", () => {
    const base = { slug: "a", marketId: null, outcomeId: null };
    expect(pushKindsOf({ ...base, kind: "trade" })).toEqual(["price", "trades"]);
    expect(pushKindsOf({ ...base, kind: "trade_edit" })).toEqual(["price", "trades"]);
    expect(pushKindsOf({ ...base, kind: "price" })).toEqual(["price"]);
    expect(pushKindsOf({ ...base, kind: "orderbook" })).toEqual(["orderbook"]);
    for (const kind of ["detail", "market", "list", "flush"] as const) expect(pushKindsOf({ ...base, kind })).toEqual([]);
    expect(pushKindsOf({ ...base, slug: null, kind: "price" })).toEqual([]);
  });

  it("the migrations send exactly the kinds declared here", () => {
    const dir = path.join(__dirname, "../db/migrations");
    const sql = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
      .join("\n");
    const sent = new Set<string>();
    // A kind is either a literal in the payload or the argument a trigger hands its notify function.
    for (const m of sql.matchAll(/json_build_object\('k',\s*'([a-z_]+)'/g)) sent.add(m[1]);
    for (const m of sql.matchAll(/EXECUTE FUNCTION notify_\w+\('([a-z_]+)'\)/g)) sent.add(m[1]);
    expect([...sent].sort()).toEqual(Object.keys(EVENT_KINDS).sort());
  });
});
