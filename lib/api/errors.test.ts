import { describe, expect, it } from "vitest";
import { MarketNotFound, OutcomeMismatch, OutcomeNotFound } from "@/lib/markets/errors";
import { ApiError, apiErrorOf } from "./errors";

describe("apiErrorOf – domain errors get the spec's status and body", () => {
  it.each([
    [new MarketNotFound("abc"), 404, "Market not found: abc"],
    [new OutcomeNotFound(), 404, "Outcome not found"],
    [new OutcomeMismatch(), 400, ["Outcome does not belong to this market"]],
    [new ApiError(400, ["limit must not be greater than 100"]), 400, ["limit must not be greater than 100"]],
  ])("%s → %i", (err, status, detail) => {
    expect(apiErrorOf(err)).toMatchObject({ status, detail });
  });

  it("leaves anything else to the 500 path", () => {
    expect(apiErrorOf(new Error("boom"))).toBeNull();
    expect(apiErrorOf("boom")).toBeNull();
  });
});
