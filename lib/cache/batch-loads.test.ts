import { describe, expect, it } from "vitest";
import { batchLoads } from "./batch-loads";

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A loader that records each call's keys and answers every key but "gone" with its upper case. */
function recording(fail?: (keys: string[]) => boolean) {
  const calls: string[][] = [];
  const load = batchLoads(
    async (keys: string[]) => {
      calls.push(keys);
      if (fail?.(keys)) throw new Error("database away");
      return new Map(keys.filter((k) => k !== "gone").map((k) => [k, k.toUpperCase()]));
    },
    (k) => k,
    3,
  );
  return { calls, load };
}

describe("batchLoads", () => {
  it("puts together the keys of separate callers in one turn, each key once, each caller getting its own value", async () => {
    const { calls, load } = recording();
    // Two callers (two requests) in the same turn, one of them asking for a key twice and one that is gone.
    const first = Promise.all([load("a"), load("b")]);
    const second = Promise.all([load("a"), load("gone")]);
    expect(calls).toEqual([]); // nothing goes out before the turn ends
    expect(await first).toEqual(["A", "B"]);
    expect(await second).toEqual(["A", undefined]);
    expect(calls).toEqual([["a", "b", "gone"]]); // "a" once: the second caller shares the first one's
  });

  it("sends at most maxKeys in one load, and keys asked in a later turn in a load of their own", async () => {
    const { calls, load } = recording();
    const now = Promise.all(["a", "b", "c", "d", "e", "f", "g"].map(load));
    await turn();
    const later = load("h");
    expect(await now).toEqual(["A", "B", "C", "D", "E", "F", "G"]);
    expect(await later).toBe("H");
    expect(calls).toEqual([["a", "b", "c"], ["d", "e", "f"], ["g"], ["h"]]);
  });

  it("fails the callers of a failed load, and only them", async () => {
    const { calls, load } = recording((keys) => keys.includes("x"));
    const failed = Promise.allSettled([load("x"), load("y")]);
    await turn();
    const next = load("z");
    expect((await failed).map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await next).toBe("Z");
    expect(calls).toEqual([["x", "y"], ["z"]]);
  });
});
