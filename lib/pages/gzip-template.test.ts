import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { fillGzip, gzipTemplate } from "./gzip-template";

/** `n` cards of a page, a script with the nonce's hole after every `every`-th. */
const page = (n: number, every = 1) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<div class="card">market ${i}: ${(i * 7919).toString(36)}</div>${i % every === 0 ? `<script nonce="HOLE">self.__next_f.push([1,"${i}"])</script>` : ""}`,
  ).join("\n");

describe("gzip template – parts compressed once, holes filled per response", () => {
  it.each([
    ["holes inside", page(200)],
    ["a hole first and last", `HOLE${page(3)}HOLE`],
    ["holes side by side", `a HOLEHOLE b`],
    ["no hole", page(5)],
    ["only a hole", "HOLE"],
  ])("%s: gunzips to the body with the fill in every hole", (_name, body) => {
    const parts = body.split("HOLE").map((p) => Buffer.from(p));
    const t = gzipTemplate(parts, 32);
    for (const fill of ["0123456789abcdef0123456789abcdef", "ffffffffffffffffffffffffffffffff"]) {
      const gz = fillGzip(t, Buffer.from(fill));
      expect(zlib.gunzipSync(gz).toString()).toBe(body.replaceAll("HOLE", fill));
    }
  });

  it("compresses a page with a nonce on every script about as well as gzip of the whole", () => {
    const body = page(3000, 200);
    const t = gzipTemplate(
      body.split("HOLE").map((p) => Buffer.from(p)),
      32,
    );
    const whole = zlib.gzipSync(body.replaceAll("HOLE", "x".repeat(32))).length;
    expect(fillGzip(t, Buffer.from("x".repeat(32))).length).toBeLessThan(whole * 1.1);
  });

  it("refuses a fill of another length than the holes (references across a hole would land elsewhere)", () => {
    const t = gzipTemplate(
      ["a", "b"].map((p) => Buffer.from(p)),
      2,
    );
    expect(() => fillGzip(t, Buffer.from("xyz"))).toThrow(/3 bytes for holes of 2/);
  });

  it("parts that repeat across holes still decode right (references reach back over a hole), NUL bytes included", () => {
    const chunk = "<script src=/_next/static/chunks/0123456789abcdef.js async></script>".repeat(3);
    for (const body of [`${chunk}HOLE${chunk}HOLE${chunk}`, `${chunk}\0HOLE\0${chunk}HOLE${chunk}`]) {
      const t = gzipTemplate(
        body.split("HOLE").map((p) => Buffer.from(p)),
        4,
      );
      expect(zlib.gunzipSync(fillGzip(t, Buffer.from("9z9z"))).toString()).toBe(body.replaceAll("HOLE", "9z9z"));
    }
  });
});
