// The chunked sorted list against a plain sorted array: random inserts and removes through many chunk splits
// and joins, every page from both ends, and a remove of what is not there.
import { describe, expect, it } from "vitest";
import { prng } from "../dev/tools";
import { SortedChunks } from "./sorted-chunks";

interface Item {
  key: number;
  id: number;
}
const compare = (a: Item, b: Item) => a.key - b.key || a.id - b.id;

function expectSame(list: SortedChunks<Item>, reference: Item[], random: () => number) {
  expect(list.length).toBe(reference.length);
  expect(list.toArray()).toEqual(reference);
  for (let k = 0; k < 20; k++) {
    const offset = Math.floor(random() * (reference.length + 10));
    const limit = 1 + Math.floor(random() * 60);
    expect(list.page(offset, limit)).toEqual(reference.slice(offset, offset + limit));
    expect(list.page(offset, limit, true)).toEqual([...reference].reverse().slice(offset, offset + limit));
  }
}

describe("SortedChunks", () => {
  it("stays in order through inserts and removes that split and join its chunks, every page from both ends as a sorted array's", () => {
    const random = prng(54);
    let id = 0;
    const item = (): Item => ({ key: Math.floor(random() * 500), id: id++ });
    const initial = Array.from({ length: 3_000 }, item).sort(compare);
    const list = SortedChunks.from(initial, compare);
    let reference = [...initial];
    expectSame(list, reference, random);
    // Grow to 9,000 (chunks split), shrink to 150 (chunks join), grow to 2,000; moves in between.
    for (const target of [9_000, 150, 2_000]) {
      const grow = target > reference.length;
      for (let r = 0; reference.length !== target; r++) {
        if (grow ? random() < 0.8 : random() < 0.1) {
          const x = item();
          list.insert(x);
          reference.push(x);
        } else if (reference.length) {
          const x = reference[Math.floor(random() * reference.length)];
          expect(list.remove(x)).toBe(true);
          reference = reference.filter((y) => y !== x);
          if (random() < 0.3) {
            x.key = Math.floor(random() * 500); // a move: out by its old keys, in by its new ones
            list.insert(x);
            reference.push(x);
          }
        }
        if (r % 500 === 0) reference.sort(compare), expectSame(list, reference, random);
      }
      reference.sort(compare);
      expectSame(list, reference, random);
    }
  });

  it("a remove of an element not held, or held under other keys, changes nothing and says so", () => {
    const held = Array.from({ length: 2_000 }, (_, i) => ({ key: i % 97, id: i })).sort(compare);
    const list = SortedChunks.from(held, compare);
    expect(list.remove({ key: 5, id: 5 })).toBe(false); // equal keys, another object
    const moved = held[700];
    const was = moved.key;
    moved.key = was + 1; // its keys changed while held: not found by them
    expect(list.remove(moved)).toBe(false);
    moved.key = was;
    expect(list.remove(moved)).toBe(true);
    expect(list.length).toBe(1_999);
    expect(list.toArray()).toEqual(held.filter((x) => x !== moved));
  });

  it("empty, and emptied: pages are empty, an insert starts it again", () => {
    const list = SortedChunks.from<Item>([], compare);
    expect(list.page(0, 10)).toEqual([]);
    const x = { key: 1, id: 1 };
    list.insert(x);
    expect(list.page(0, 10, true)).toEqual([x]);
    expect(list.remove(x)).toBe(true);
    expect(list.length).toBe(0);
    expect(list.page(0, 10)).toEqual([]);
    list.insert(x);
    expect(list.toArray()).toEqual([x]);
  });
});
