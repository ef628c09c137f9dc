import { describe, expect, it } from "vitest";
import { OutcomeMismatch, OutcomeNotFound } from "@/lib/markets/errors";
import { orderBooksQuery, outcomeIdsParam } from "@/lib/markets/schemas";
import { answerEach, camelBatch } from "./batch";
import { ApiError } from "./errors";
import { parseQuery } from "./query";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("outcomeIds – comma-separated uuids, at most 50 distinct", () => {
  it("keeps the first appearance of each id, lower-cased, in order", () => {
    expect(outcomeIdsParam.parse(`${id(2)},${id(1)},${id(2).toUpperCase()}, ${id(3)}`)).toEqual([id(2), id(1), id(3)]);
  });
  it("accepts 50 distinct ids, and 60 that are 50 distinct", () => {
    expect(outcomeIdsParam.parse(Array.from({ length: 50 }, (_, i) => id(i)).join(","))).toHaveLength(50);
    expect(outcomeIdsParam.parse(Array.from({ length: 60 }, (_, i) => id(i % 50)).join(","))).toHaveLength(50);
  });
  it.each([
    ["51 distinct ids", Array.from({ length: 51 }, (_, i) => id(i)).join(","), "outcomeIds must not hold more than 50 distinct ids"],
    ["an empty value", "", "outcomeIds[0] is empty"],
    ["a trailing comma", `${id(1)},`, "outcomeIds[1] is empty"],
    ["a malformed id", `${id(1)},nope`, "outcomeIds[1] must be a UUID"],
  ])("refuses %s", (_, raw, message) => {
    expect(() => parseQuery(orderBooksQuery, { outcomeIds: raw })).toThrow(expect.objectContaining({ status: 400, detail: [message] }));
  });
  it("refuses a repeated key, a missing one and unknown parameters", () => {
    expect(() => parseQuery(orderBooksQuery, { outcomeIds: [id(1), id(2)] })).toThrow(
      expect.objectContaining({ detail: ["outcomeIds must be given once, as comma-separated ids"] }),
    );
    expect(() => parseQuery(orderBooksQuery, {})).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => parseQuery(orderBooksQuery, { outcomeIds: id(1), outcomeId: id(1) })).toThrow(
      expect.objectContaining({ detail: ["property outcomeId should not exist"] }),
    );
  });
});

describe("answerEach – one item per id, a 4xx per item, anything else for the whole call", () => {
  it("answers values and the single endpoint's errors item by item, in order", async () => {
    const read = async (x: string) => {
      if (x === "b") throw new OutcomeNotFound();
      if (x === "c") throw new OutcomeMismatch();
      return { v: x };
    };
    expect(await answerEach(["a", "b", "c"], "book", read)).toEqual({
      items: [
        { outcome_id: "a", book: { v: "a" }, error: null },
        { outcome_id: "b", book: null, error: { statusCode: 404, message: "Outcome not found" } },
        { outcome_id: "c", book: null, error: { statusCode: 400, message: "Outcome does not belong to this market" } },
      ],
    });
  });
  it("fails whole on an error that is not the request's", async () => {
    await expect(answerEach(["a", "b"], "book", async (x) => (x === "b" ? Promise.reject(new Error("boom")) : x))).rejects.toThrow("boom");
    await expect(answerEach(["a"], "book", () => Promise.reject(new ApiError(503, "away")))).rejects.toThrow("away");
  });
  it("camelBatch maps the field's name and each value", async () => {
    const batch = await answerEach(["a", "b"], "prices_history", async (x) => {
      if (x === "b") throw new OutcomeNotFound();
      return { n: 1 };
    });
    expect(camelBatch("prices_history", (v: { n: number }) => ({ m: v.n }))(batch)).toEqual({
      items: [
        { outcomeId: "a", pricesHistory: { m: 1 }, error: null },
        { outcomeId: "b", pricesHistory: null, error: { statusCode: 404, message: "Outcome not found" } },
      ],
    });
  });
});
