import { describe, expect, it } from "vitest";
import { answerEach, parseIdList } from "./batch";
import { ApiError, notFound } from "./errors";
import { OutcomeNotFound } from "@/lib/markets/errors";

const rejection = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return [(e as ApiError).status, (e as ApiError).detail];
  }
  throw new Error("expected a 400");
};

describe("batch ids", () => {
  it("splits, trims, drops empty entries and repeats, keeping the first order", () => {
    expect(parseIdList("ids", " b, a,,b ,c", 5)).toEqual(["b", "a", "c"]);
  });

  it.each([
    ["", "ids is required"],
    [",, ,", "ids is required"],
    ["a,b,c,d", "ids must contain at most 3 ids"],
    ["a,a,a,a", "ids must contain at most 3 ids"],
  ])("%j is a 400: %s", (value, message) => {
    expect(rejection(() => parseIdList("ids", value, 3))).toEqual([400, [message]]);
  });

  it("answers each id; API and domain errors become that item's error, in order", async () => {
    const items = await answerEach(["a", "b", "c"], async (id) => {
      if (id === "b") throw new OutcomeNotFound();
      if (id === "c") throw notFound("gone");
      return id.toUpperCase();
    });
    expect(items).toEqual([
      { id: "a", value: "A" },
      { id: "b", error: { statusCode: 404, message: "Outcome not found" } },
      { id: "c", error: { statusCode: 404, message: "gone" } },
    ]);
  });

  it("any other failure fails the whole answer", async () => {
    await expect(answerEach(["a"], async () => Promise.reject(new Error("database away")))).rejects.toThrow("database away");
  });
});
