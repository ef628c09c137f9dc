import { describe, expect, it, vi } from "vitest";
import { packJson, shapeStats, unpackJson } from "./json-shapes";

const roundTrips = (value: object) => expect(unpackJson(packJson(value))).toBe(JSON.stringify(value));

/** A deterministic random JSON-ish value (seeded), with the awkward parts JSON has. */
function randomValue(seed: number) {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const strings = ["", "a", 'q"uote', "back\\slash", "nl\n", "\u0000zero", "東京 🚀", "\u2028", "\ud800", "x".repeat(300), "0"];
  const numbers = [0, -0, 1, -1.5, 1e21, 1e-7, 0.1 + 0.2, Number.MAX_SAFE_INTEGER, Number.NaN, Number.POSITIVE_INFINITY];
  const scalar = () => {
    const r = rnd();
    if (r < 0.4) return strings[Math.floor(rnd() * strings.length)];
    if (r < 0.7) return numbers[Math.floor(rnd() * numbers.length)];
    if (r < 0.8) return null;
    if (r < 0.9) return rnd() < 0.5;
    return undefined;
  };
  const any = (depth: number): unknown => {
    const r = rnd();
    if (depth > 3 || r < 0.5) return scalar();
    if (r < 0.7) return Array.from({ length: Math.floor(rnd() * 4) }, () => (rnd() < 0.5 ? scalar() : any(depth + 1)));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(rnd() * 5); i > 0; i--) o[strings[Math.floor(rnd() * strings.length)] + i] = any(depth + 1);
    return o;
  };
  return { v: any(0), n: Math.floor(rnd() * 3) };
}

describe("packJson / unpackJson", () => {
  it("unpacks to exactly JSON.stringify of the value: escapes, unicode, lone surrogates, non-finite numbers, -0, undefined members", () => {
    roundTrips({ a: "", b: 'say "hi"\n\t\\', c: "東京 🚀 ✓", d: "\u0000\u001f\u2028", e: "\udc00 lone", f: -0, g: Number.NaN, h: 1e21, i: 5e-7 });
    roundTrips({ nested: { deeper: [{ x: 1 }, { x: null, y: [true, false] }, []], empty: {} }, skipped: undefined, fn: () => 1 });
    roundTrips({ tags: ["soccer", "match"], none: [], mixed: [1, "two", null, undefined, { three: 3 }] });
    roundTrips({ 2: "integer keys first", 1: "as JSON.stringify orders them", b: 1, a: 2 });
    roundTrips([]);
    roundTrips([{ a: 1 }, { a: "1" }]);
    for (let seed = 1; seed <= 500; seed++) roundTrips(randomValue(seed));
  });

  it("keeps a value's strings and numbers, not its keys: a list item takes about two thirds of its JSON", () => {
    const item = (i: number) => ({
      id: `d874dcdb-000f-4c16-8000-${String(i).padStart(12, "0")}`,
      slug: `market-number-${i}`,
      question: `Will market ${i} resolve yes?`,
      description: null,
      status: "ACTIVE",
      total_volume: 1234.5 + i,
      verified: i % 2 === 0,
      winning_outcome_id: null,
      resolved_at: null,
      video_url: null,
      outcomes: [0, 1].map((n) => ({ id: `o-${i}-${n}`, market_id: `m-${i}`, name: n ? "No" : "Yes", probability: 50, description: null, image_url: null })),
    });
    const texts = Array.from({ length: 50 }, (_, i) => JSON.stringify(item(i)));
    const packed = Array.from({ length: 50 }, (_, i) => packJson(item(i)));
    for (const [i, p] of packed.entries()) expect(unpackJson(p)).toBe(texts[i]);
    const ratio = packed.reduce((n, p) => n + p.length, 0) / texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
    expect(ratio).toBeLessThan(0.55);
  });

  it("packs what JSON.stringify makes of a Date or anything with toJSON, exactly", () => {
    const at = new Date(Date.UTC(2026, 10, 28));
    const withDate = { at, nested: { also: at }, custom: { toJSON: () => "custom" }, undone: { toJSON: () => undefined } };
    const packed = packJson(withDate);
    expect(unpackJson(packed)).toBe(JSON.stringify(withDate));
    expect(packed.readUInt16LE(0)).not.toBe(0xffff);
    expect(() => packJson({ toJSON: () => undefined })).toThrow(TypeError);
  });

  it("cuts strings that look like JSON, escaped keys, nested arrays and every number form", () => {
    roundTrips({ 'k"ey': 'v":[{', "back\\": '\\"', colon: ":", brackets: "[]{}", nested: [[1, [2]], [], [[]], [{ a: [] }]] });
    roundTrips({ n: [-0.5, 1e21, -1.5e-7, 12345678901234567000, 0], m: -3, e: 2e-7, list: ["a,b", "c]d", 'e"f'], o: {} });
    roundTrips({ a: [null, true, false, "x"], b: [{ c: "d" }, "e", 3], c: [[null]], d: null, e: true });
  });

  it("holds a shape once, however many values have it; its memory is stated", () => {
    const before = shapeStats();
    for (let i = 0; i < 200; i++) packJson({ unique_shape_key_for_this_test: i, name: `n${i}` });
    const after = shapeStats();
    expect(after.shapes).toBe(before.shapes + 1);
    expect(after.bytes).toBeGreaterThan(before.bytes);
  });

  it("past the bound of shapes, values are kept as their JSON, still exact", () => {
    let raw = 0;
    for (let i = 0; i < 4200; i++) {
      const value = { [`k${i}`]: i };
      const packed = packJson(value);
      expect(unpackJson(packed)).toBe(JSON.stringify(value));
      if (packed.readUInt16LE(0) === 0xffff) raw++;
    }
    expect(shapeStats().shapes).toBe(4096);
    expect(raw).toBeGreaterThan(0);
    roundTrips({ k1: 7 }); // a shape held before the bound still packs
    expect(packJson({ k1: 7 }).readUInt16LE(0)).not.toBe(0xffff);
  });
});

describe("one table of shapes per process", () => {
  it("a value packed by one copy of the module (server.ts) unpacks in another (a Next bundle)", async () => {
    vi.resetModules();
    const one = await import("./json-shapes");
    vi.resetModules();
    const other = await import("./json-shapes");
    expect(other.packJson).not.toBe(one.packJson);
    const value = { a_key_only_this_test_uses: "v", n: 1 };
    expect(other.unpackJson(one.packJson(value))).toBe(JSON.stringify(value));
  });
});
