import { describe, expect, it } from "vitest";
import { TagIndex } from "./tag-index";

describe("TagIndex", () => {
  it("gives back every key a tag was added with, once, and forgets the tag", () => {
    const index = new TagIndex();
    index.add("market:a", "k1");
    index.add("market:a", "k2");
    index.add("market:a", "k2");
    index.add("market:b", "k3");
    expect([...index.take("market:a")].sort()).toEqual(["k1", "k2"]);
    expect([...index.take("market:a")]).toEqual([]);
    expect([...index.take("market:b")]).toEqual(["k3"]);
    expect(index.size).toBe(0);
  });

  it("removes a key from its tag, through one key, two and back to one", () => {
    const index = new TagIndex();
    index.add("t", "k1");
    index.remove("t", "other"); // not held: nothing changes
    expect(index.size).toBe(1);
    index.add("t", "k2");
    index.add("t", "k3");
    index.remove("t", "k2");
    index.remove("t", "k2");
    expect([...index.take("t")].sort()).toEqual(["k1", "k3"]);
    index.add("t", "k1");
    index.add("t", "k2");
    index.remove("t", "k1");
    index.add("t", "k4");
    index.remove("t", "k2");
    expect([...index.take("t")]).toEqual(["k4"]);
    index.add("u", "k1");
    index.remove("u", "k1");
    expect(index.size).toBe(0);
    expect([...index.take("u")]).toEqual([]);
  });

  it("clears every tag", () => {
    const index = new TagIndex();
    index.add("a", "1");
    index.add("b", "2");
    index.add("b", "3");
    index.clear();
    expect(index.size).toBe(0);
    expect([...index.take("b")]).toEqual([]);
  });
});
