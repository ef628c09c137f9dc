// The related-markets lists' tags (lib/markets/reads/tags.ts): a change drops a list exactly when its market
// could be in it, by the rule listRelatedGroup selects with (same category, and the same non-empty
// sub-category or a shared tag), and every list when the change does not say its market's group.
import { describe, expect, it } from "vitest";
import type { MarketEvent, MarketGroup } from "@/lib/events/market-events";
import { tagsOf } from "./reads/invalidation";
import { relatedTags } from "./reads/tags";

/** listRelatedGroup's WHERE, in words: m.category = g.category AND (m.sub_category = g.sub_category (g's non-empty) OR m.tags && g.tags). */
const selects = (g: MarketGroup, m: MarketGroup) =>
  m.category === g.category && ((g.subCategory !== "" && m.subCategory === g.subCategory) || m.tags.some((t) => g.tags.includes(t)));

const meets = (a: string[], b: string[]) => a.some((t) => b.includes(t));

describe("related-markets tags", () => {
  it("a market's change meets a group's tags exactly when the group's query can select the market", () => {
    const categories = ["CRYPTO", "SPORTS"];
    const subs = ["", "nba", "nfl", "s:x", "t:nba"]; // separators inside values must not make tags meet
    const tagSets = [[], ["a"], ["b"], ["a", "b"], ["nba"], ["s:nba"], ["x:t:a"]];
    const all: MarketGroup[] = categories.flatMap((category) => subs.flatMap((subCategory) => tagSets.map((tags) => ({ category, subCategory, tags }))));
    let selected = 0;
    for (const g of all) {
      for (const m of all) {
        const want = selects(g, m);
        if (want) selected++;
        expect(meets(relatedTags(m), relatedTags(g)), `${JSON.stringify(m)} in ${JSON.stringify(g)}`).toBe(want);
      }
    }
    expect(selected).toBeGreaterThan(100); // the grid has both answers, many times
  });

  const event = (over: Partial<MarketEvent>): MarketEvent => ({ kind: "trade", slug: "a", marketId: null, outcomeId: "o1", ...over });

  it("a change drops the groups it announces (before and after a move), and no other related list", () => {
    const before = { category: "SPORTS", subCategory: "nba", tags: ["finals"] };
    const after = { category: "SPORTS", subCategory: "nfl", tags: [] };
    for (const kind of ["trade", "trade_edit", "price", "detail", "market", "list"] as const) {
      const tags = tagsOf(event({ kind, groups: [after, before] }));
      expect(tags, kind).not.toBe("all");
      expect(tags, kind).toEqual(expect.arrayContaining(["list", "rel:SPORTS:s:nfl", "rel:SPORTS:s:nba", "rel:SPORTS:t:finals"]));
      expect(tags, kind).not.toContain("related");
    }
  });

  it("a change that does not say its market's group drops every related list", () => {
    for (const groups of [undefined, null]) {
      for (const kind of ["trade", "price", "detail", "market", "list"] as const) expect(tagsOf(event({ kind, groups })), kind).toContain("related");
    }
    expect(tagsOf(event({ kind: "flush", slug: null }))).toBe("all");
  });

  it("sub-category counts are dropped only by a change that moved a market between lists (two places), added or removed one", () => {
    const place = { category: "SPORTS", subCategory: "nba", tags: [], status: "ACTIVE" };
    const members = (e: Partial<MarketEvent>) => (tagsOf(event(e)) as string[]).includes("list:members");
    expect(members({ kind: "trade", groups: [place] })).toBe(false);
    expect(members({ kind: "trade", groups: null })).toBe(false); // trades never move a market between lists
    expect(members({ kind: "price", outcomeId: "o1", groups: null })).toBe(false); // an outcome's probability or name
    expect(members({ kind: "price", outcomeId: null, groups: [place] })).toBe(false); // a market's volume, question …
    expect(members({ kind: "price", outcomeId: null, groups: [{ ...place, status: "RESOLVED" }, place] })).toBe(true);
    expect(members({ kind: "price", outcomeId: null, groups: null })).toBe(true); // not said: anything may have moved
    expect(members({ kind: "detail", outcomeId: null, groups: [place] })).toBe(false);
    expect(members({ kind: "list", slug: null, groups: undefined })).toBe(true);
    expect(members({ kind: "market", outcomeId: null, groups: [place] })).toBe(true);
  });

  it("resting orders leave related lists alone, as they leave the lists not sorted by liquidity", () => {
    const tags = tagsOf(event({ kind: "orderbook", groups: [{ category: "SPORTS", subCategory: "nba", tags: [] }] }));
    expect(tags).not.toContain("related");
    expect(tags).not.toContain("rel:SPORTS:s:nba");
  });
});
