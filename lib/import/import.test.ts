import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { crossCheck, formatPath, noExistingRows, parseImportFile } from "./import";
import type { ImportFile } from "../markets/import-schemas";

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(__dirname, "../../e2e/fixtures", name), "utf8"));
const sample = () => fixture("import-sample.json");

/** The sample with one change applied, parsed: the first error or "ok". */
function errorOf(change: (d: any) => void): string {
  const d = sample();
  change(d);
  const r = parseImportFile(d);
  if (!r.ok) return r.error;
  return crossCheck(r.file, noExistingRows()) ?? "ok";
}

describe("formatPath", () => {
  it.each([
    [[], "(root)"],
    [["users"], "users"],
    [["markets", 3, "outcomes", 1, "side"], "markets[3].outcomes[1].side"],
    [["orders", 0, "filled_shares"], "orders[0].filled_shares"],
    [["markets", 0, "price_market", "odd key"], 'markets[0].price_market["odd key"]'],
  ] as [PropertyKey[], string][])("%j → %s", (p, expected) => expect(formatPath(p)).toBe(expected));
});

describe("import fixtures", () => {
  it("import-sample.json is valid", () => expect(errorOf(() => {})).toBe("ok"));
  it("import-bad.json names the JSON path of its one bad value", () => {
    const r = parseImportFile(fixture("import-bad.json"));
    expect(r).toEqual({ ok: false, error: "markets[1].outcomes[1].side: expected YES or NO" });
  });
});

describe("import schema – row rules", () => {
  const order = (patch: object) => (d: any) => Object.assign(d.orders[0], patch);
  const trade = (patch: object) => (d: any) => Object.assign(d.trades[0], patch);
  const outcome = (patch: object) => (d: any) => Object.assign(d.markets[0].outcomes[0], patch);
  const market = (patch: object) => (d: any) => Object.assign(d.markets[0], patch);

  it.each([
    ["order price 0.5", order({ price: "0.5" }), "ok"],
    ["order price 0.001", order({ price: "0.001" }), "ok"],
    ["order price 0.000", order({ price: "0.000" }), "orders[0].price: expected a decimal string 0.001..0.999 with at most 3 decimals"],
    ["order price 1.000", order({ price: "1.000" }), "orders[0].price: expected a decimal string 0.001..0.999 with at most 3 decimals"],
    ["order price with 4 decimals", order({ price: "0.5555" }), "orders[0].price: expected a decimal string 0.001..0.999 with at most 3 decimals"],
    ["order price as a number", order({ price: 0.5 }), "orders[0].price: expected a decimal string 0.001..0.999 with at most 3 decimals"],
    ["order shares with 3 decimals", order({ shares: "1.005" }), "orders[0].shares: expected a decimal string > 0 with at most 2 decimals"],
    ["order shares 0", order({ shares: "0.00" }), "orders[0].shares: expected a decimal string > 0 with at most 2 decimals"],
    ["filled above shares", order({ filled_shares: "100.01" }), "orders[0].filled_shares: must not exceed shares"],
    ["OPEN with fills", order({ filled_shares: "1" }), "orders[0].filled_shares: must be 0 when status is OPEN"],
    ["unknown order status", order({ status: "DONE" }), "orders[0].status: expected OPEN, PARTIALLY_FILLED, FILLED or CANCELLED"],
    ["trade price 1", trade({ price: "1" }), "ok"],
    ["trade price 0.000", trade({ price: "0.000" }), "ok"],
    ["trade price 1.001", trade({ price: "1.001" }), "trades[0].price: expected a decimal string 0..1 with at most 3 decimals"],
    ["trade shares 0", trade({ shares: "0" }), "trades[0].shares: expected a decimal string > 0 with at most 6 decimals"],
    ["timestamp without offset", trade({ executed_at: "2026-01-01T12:00:00" }), "trades[0].executed_at: expected an ISO 8601 timestamp with offset"],
    ["probability 100.00", outcome({ probability: "100.00" }), "ok"],
    ["probability 100.01", outcome({ probability: "100.01" }), "markets[0].outcomes[0].probability: expected a decimal string 0..100 with at most 2 decimals"],
    [
      "probability with 3 decimals",
      outcome({ probability: "50.123" }),
      "markets[0].outcomes[0].probability: expected a decimal string 0..100 with at most 2 decimals",
    ],
    ["missing outcome name", (d: any) => delete d.markets[0].outcomes[0].name, "markets[0].outcomes[0].name: is required"],
    ["unknown key", outcome({ colour: "red" }), "markets[0].outcomes[0].colour: unknown key"],
    ["bad slug", market({ slug: "Fixture Slug" }), "markets[0].slug: expected 1..200 characters of a-z, 0-9 and -"],
    ["derived key given", market({ comments_count: 2 }), "markets[0].comments_count: is derived from the other rows; leave it out"],
    ["bad category", market({ category: "WEATHER" }), "markets[0].category: expected CRYPTO, SPORTS, POLITICS, ENTERTAINMENT, SCIENCE, FINANCE or OTHER"],
    ["platform fee 1", market({ platform_fee: "1" }), "markets[0].platform_fee: expected a decimal string 0 <= fee < 1 with at most 6 decimals"],
    [
      "RESOLVED without winner",
      market({ status: "RESOLVED", resolved_at: "2026-02-01T00:00:00Z" }),
      "markets[0].winning_outcome_id: is required when status is RESOLVED",
    ],
    [
      "RESOLVED without resolved_at",
      market({ status: "RESOLVED", winning_outcome_id: "f2000000-0000-4000-8000-000000000001" }),
      "markets[0].resolved_at: is required when status is RESOLVED",
    ],
    [
      "winner on an ACTIVE market",
      market({ winning_outcome_id: "f2000000-0000-4000-8000-000000000001" }),
      "markets[0].winning_outcome_id: must be null unless status is RESOLVED",
    ],
    ["CANCELLED without settled_at", market({ status: "CANCELLED" }), "markets[0].settled_at: is required when status is CANCELLED"],
    [
      "CANCELLED with resolved_at",
      market({ status: "CANCELLED", settled_at: "2026-02-01T00:00:00Z", resolved_at: "2026-02-01T00:00:00Z" }),
      "markets[0].resolved_at: must be null when status is CANCELLED",
    ],
    ["ends before it starts", market({ trading_ends_at: "2025-01-01T00:00:00Z" }), "markets[0].trading_ends_at: must not be before trading_starts_at"],
    ["top level not an object", (d: any) => (d.users = "nope"), "users: expected an array of users"],
    ["market image https", market({ image_url: "https://cdn.example/a.png" }), "ok"],
    ["market image relative", market({ image_url: "/market-images/a.webp" }), "ok"],
    ["market image javascript:", market({ image_url: "javascript:alert(1)" }), "markets[0].image_url: expected an http(s) URL or a relative URL"],
    [
      "market video data:",
      market({ video_url: "data:text/html,<script>alert(1)</script>" }),
      "markets[0].video_url: expected an http(s) URL or a relative URL",
    ],
    [
      "outcome image javascript:",
      outcome({ image_url: " JavaScript:alert(1)" }),
      "markets[0].outcomes[0].image_url: expected an http(s) URL or a relative URL",
    ],
    [
      "profile image javascript:",
      (d: any) => (d.users[0].profile_image_url = "java\tscript:alert(1)"),
      "users[0].profile_image_url: expected an http(s) URL or a relative URL",
    ],
  ])("%s", (_name, change, expected) => expect(errorOf(change)).toBe(expected));

  it("fills the documented defaults", () => {
    const r = parseImportFile(sample());
    if (!r.ok) throw new Error(r.error);
    const m = r.file.markets[1];
    expect([m.views, m.verified, m.featured, m.tags, m.video_url, m.video_status]).toEqual([0, false, false, [], null, null]);
    expect(r.file.markets[0].external_source).toBeNull();
    expect(r.file.markets[0].comments[1].likes_count).toBe(0);
  });
});

describe("import cross-row rules", () => {
  const M0 = "f1000000-0000-4000-8000-000000000001";
  it.each([
    [
      "duplicate slug",
      (d: any) => (d.markets[1].slug = d.markets[0].slug),
      'markets[1].slug: duplicate slug "fixture-native-binary" (first at markets[0].slug)',
    ],
    [
      "duplicate username",
      (d: any) => (d.users[1].username = "fixture_alice"),
      'users[1].username: duplicate username "fixture_alice" (first at users[0].username)',
    ],
    ["duplicate trade id", (d: any) => (d.trades[1].id = d.trades[0].id), expect.stringMatching(/^trades\[1\]\.id: duplicate trade id/)],
    [
      "dangling user",
      (d: any) => (d.orders[2].user_id = "00000000-0000-4000-8000-000000000000"),
      "orders[2].user_id: unknown user 00000000-0000-4000-8000-000000000000",
    ],
    [
      "dangling market",
      (d: any) => (d.trades[0].market_id = "00000000-0000-4000-8000-000000000000"),
      "trades[0].market_id: unknown market 00000000-0000-4000-8000-000000000000",
    ],
    [
      "outcome of another market",
      (d: any) => (d.orders[0].outcome_id = "f2000000-0000-4000-8000-000000000003"),
      `orders[0].outcome_id: outcome does not belong to market ${M0}`,
    ],
    [
      "winner not among the market's outcomes",
      (d: any) =>
        Object.assign(d.markets[0], { status: "RESOLVED", resolved_at: "2026-02-01T00:00:00Z", winning_outcome_id: "f2000000-0000-4000-8000-000000000003" }),
      "markets[0].winning_outcome_id: not an outcome of this market",
    ],
    [
      "reply to a comment of another market",
      (d: any) => (d.markets[1].comments = [{ ...d.markets[0].comments[1], id: "f3000000-0000-4000-8000-000000000009" }]),
      "markets[1].comments[0].parent_id: the parent comment belongs to another market",
    ],
    [
      "reply to an unknown comment",
      (d: any) => (d.markets[0].comments[1].parent_id = "00000000-0000-4000-8000-000000000000"),
      "markets[0].comments[1].parent_id: unknown comment 00000000-0000-4000-8000-000000000000",
    ],
    ["outcome index twice", (d: any) => (d.markets[0].outcomes[1].index = 0), "markets[0].outcomes[1].index: duplicate index 0 within the market"],
    [
      "book of a native market",
      (d: any) => (d.external_books[0].outcome_id = "f2000000-0000-4000-8000-000000000001"),
      "external_books[0].outcome_id: the market of this outcome is not mirrored (external_source is null)",
    ],
  ])("%s", (_name, change, expected) => expect(errorOf(change)).toEqual(expected));

  it("resolves references against rows already in the database", () => {
    const d = sample();
    const orders = d.orders;
    d.users = [];
    d.markets = [];
    d.trades = [];
    d.external_books = [];
    const r = parseImportFile({ orders });
    if (!r.ok) throw new Error(r.error);
    const existing = noExistingRows();
    expect(crossCheck(r.file, existing)).toMatch(/^orders\[0\]\.market_id: unknown market/);
    existing.markets.set(M0, { external_source: null });
    existing.outcomes.set("f2000000-0000-4000-8000-000000000001", { market_id: M0, external_source: null });
    existing.outcomes.set("f2000000-0000-4000-8000-000000000002", { market_id: M0, external_source: null });
    existing.users.add("f0000000-0000-4000-8000-000000000001").add("f0000000-0000-4000-8000-000000000002");
    expect(crossCheck(r.file as ImportFile, existing)).toBeNull();
  });
});
