import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { parseQuery, searchParamsOf } from "./query";
import { marketListQuery, orderBookQuery, priceHistoryQuery } from "@/lib/markets/schemas";

const list = (qs: string) => parseQuery(marketListQuery, searchParamsOf(qs));
const messages = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).detail;
  }
  throw new Error("expected a 400");
};

describe("GET /v1/markets query", () => {
  it("applies the defaults", () => {
    expect(list("")).toEqual({ status: "ACTIVE", sortBy: "CREATED", sortOrder: "DESC", limit: 20, offset: 0 });
  });

  it("parses every parameter", () => {
    expect(list("status=RESOLVED&category=SPORTS&subCategory=NBA&q=lakers&sortBy=TRENDING&sortOrder=ASC&limit=100&offset=40")).toEqual({
      status: "RESOLVED",
      category: "SPORTS",
      subCategory: "NBA",
      q: "lakers",
      sortBy: "TRENDING",
      sortOrder: "ASC",
      limit: 100,
      offset: 40,
    });
  });

  it.each([
    ["foo=1", ["property foo should not exist"]],
    ["foo=1&Status=ACTIVE", ["property foo should not exist", "property Status should not exist"]],
    ["status=LOCKED", ["status must be one of the following values: ACTIVE, RESOLVED, CANCELLED"]],
    ["status=PENDING", ["status must be one of the following values: ACTIVE, RESOLVED, CANCELLED"]],
    ["status=active", ["status must be one of the following values: ACTIVE, RESOLVED, CANCELLED"]],
    ["limit=0", ["limit must not be less than 1"]],
    ["limit=101", ["limit must not be greater than 100"]],
    ["limit=1.5", ["limit must be an integer number"]],
    ["limit=", ["limit must be an integer number"]],
    ["offset=-1", ["offset must not be less than 0"]],
    ["category=SPACE", ["category must be one of the following values: CRYPTO, SPORTS, POLITICS, ENTERTAINMENT, SCIENCE, FINANCE, OTHER"]],
    [`subCategory=${"x".repeat(51)}`, ["subCategory must be shorter than or equal to 50 characters"]],
    ["sortBy=PRICE", ["sortBy must be one of the following values: VOLUME, LIQUIDITY, CREATED, TRENDING, ENDING"]],
    ["sortOrder=up", ["sortOrder must be one of the following values: ASC, DESC"]],
    ["limit=5&limit=6", ["limit must be an integer number"]],
    ["__proto__=1", ["property __proto__ should not exist"]],
    ["constructor=1&toString=1", ["property constructor should not exist", "property toString should not exist"]],
    ["__proto__[status]=x", ["property __proto__[status] should not exist"]],
  ])("rejects %s", (qs, expected) => {
    expect(messages(() => list(qs))).toEqual(expected);
  });

  it("accepts a subCategory of exactly 50 characters", () => {
    expect(list(`subCategory=${"x".repeat(50)}`).subCategory).toHaveLength(50);
  });
});

describe("outcomeId and history query", () => {
  it("requires outcomeId as one plain string", () => {
    expect(messages(() => parseQuery(orderBookQuery, searchParamsOf("")))).toEqual(["outcomeId is required"]);
    expect(messages(() => parseQuery(orderBookQuery, searchParamsOf("outcomeId=a&outcomeId=b")))).toEqual(["outcomeId is required"]);
    expect(messages(() => parseQuery(orderBookQuery, searchParamsOf("outcomeId=")))).toEqual(["outcomeId is required"]);
  });

  it("ignores unknown parameters on book and history", () => {
    expect(parseQuery(orderBookQuery, searchParamsOf("outcomeId=x&foo=1")).outcomeId).toBe("x");
  });

  it.each([
    ["fidelity=0", "fidelity must not be less than 1"],
    ["fidelity=10081", "fidelity must not be greater than 10080"],
    ["fidelity=1.5", "fidelity must be an integer number"],
    ["startTs=-1", "startTs must not be less than 0"],
    ["endTs=abc", "endTs must be an integer number"],
    ["startTs=10&endTs=5", "startTs must not be greater than endTs"],
  ])("rejects %s naming the parameter", (qs, expected) => {
    expect(messages(() => parseQuery(priceHistoryQuery, searchParamsOf(`outcomeId=x&${qs}`)))).toEqual([expected]);
  });

  it("defaults fidelity to 1 and leaves the window open", () => {
    expect(parseQuery(priceHistoryQuery, searchParamsOf("outcomeId=x"))).toEqual({ outcomeId: "x", fidelity: 1 });
  });
});
