import { describe, expect, it } from "vitest";
import { Batcher } from "./batcher";
import { parseLine } from "./schemas";
import { micros } from "./writer";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("batcher", () => {
  it("closes a batch at maxSize, and the rest after maxWaitMs, writing them in order", async () => {
    const written: number[][] = [];
    const b = new Batcher<number>({ maxSize: 3, maxWaitMs: 20, write: async (xs) => void written.push(xs) });
    for (const x of [1, 2, 3, 4, 5]) b.push(x);
    await sleep(5);
    expect(written).toEqual([[1, 2, 3]]);
    await sleep(40);
    expect(written).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it("merges batches that piled up behind a slow write, up to maxSize", async () => {
    const written: number[][] = [];
    const b = new Batcher<number>({
      maxSize: 4,
      maxWaitMs: 1,
      write: async (xs) => {
        written.push(xs);
        await sleep(30);
      },
    });
    b.push(1);
    await sleep(5);
    for (const x of [2, 3]) b.push(x), await sleep(5);
    b.push(4);
    await b.flush();
    expect(written).toEqual([[1], [2, 3, 4]]);
  });

  it("asks the producer to wait above the high-water mark, and lets it go when the writer catches up", async () => {
    let release = () => {};
    const b = new Batcher<number>({ maxSize: 2, maxWaitMs: 1, highWater: 4, write: () => new Promise<void>((r) => (release = r)) });
    expect([1, 2, 3].map((x) => b.push(x))).toEqual([true, true, true]);
    expect(b.push(4)).toBe(false);
    let roomy = false;
    void b.room().then(() => (roomy = true));
    await sleep(5);
    expect(roomy).toBe(false);
    release();
    await sleep(5);
    expect(roomy).toBe(true);
    release();
  });

  it("a failed write fails flush and every later push", async () => {
    const b = new Batcher<number>({ maxSize: 1, maxWaitMs: 1, write: async () => Promise.reject(new Error("down")) });
    b.push(1);
    await expect(b.flush()).rejects.toThrow("down");
    expect(() => b.push(2)).toThrow("down");
  });
});

describe("ingest lines", () => {
  it.each([
    ["not JSON", "{", /^\(root\): not JSON/],
    ["an array", "[]", /^\(root\): expected an object with one key: user, market, order, trade$/],
    ["two kinds", '{"user":{},"trade":{}}', /^\(root\): expected an object with one key/],
    ["an unknown kind", '{"comment":{}}', /^comment: unknown event kind/],
    ["a missing field", '{"user":{"id":"8c1e0000-0000-4000-8000-000000000001","profile_image_url":null}}', /^user\.username: is required$/],
    ["an unknown field", '{"user":{"id":"8c1e0000-0000-4000-8000-000000000001","username":"a","profile_image_url":null,"x":1}}', /^user\.x: unknown key$/],
  ])("%s is reported with its JSON path", (_name, line, error) => {
    const r = parseLine(line);
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.error).toMatch(error);
  });

  it("micros orders ISO instants to the microsecond", () => {
    expect(micros("2026-11-29T00:00:00.000001Z") - micros("2026-11-29T00:00:00Z")).toBe(1);
    expect(micros("2026-11-29T00:00:00.123456+00:00") - micros("2026-11-29T00:00:00.123Z")).toBe(456);
  });
});
