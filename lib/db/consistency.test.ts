import { describe, expect, it } from "vitest";
import { noteCommitPosition, parseLsn, requiredPosition } from "./consistency";

describe("WAL positions", () => {
  it.each([
    ["0/0", 0n],
    ["0/16B3748", 0x16b3748n],
    ["1/0", 1n << 32n],
    ["16/B374D848", (0x16n << 32n) | 0xb374d848n],
  ])("parseLsn – reads %s as %s", (text, value) => {
    expect(parseLsn(text)).toBe(value);
  });

  it("parseLsn – orders positions across the high word, which a string comparison gets wrong", () => {
    expect(parseLsn("A/0") > parseLsn("9/FFFFFFFF")).toBe(true);
  });

  it.each(["", "16B3748", "0/", "x/1", "0/123456789"])("parseLsn – rejects %j", (text) => {
    expect(() => parseLsn(text)).toThrow(/not a WAL position/);
  });

  it("noteCommitPosition – the required position only moves forward", () => {
    noteCommitPosition("5/100");
    noteCommitPosition("4/FFFF");
    expect(requiredPosition()).toBe(parseLsn("5/100"));
    noteCommitPosition(parseLsn("5/200"));
    expect(requiredPosition()).toBe(parseLsn("5/200"));
  });
});
