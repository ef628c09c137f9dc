import { crc32 as zlibCrc32 } from "node:zlib";
import { describe, expect, test } from "vitest";
import { bookChecksum, checksumInput, crc32 } from "./book-checksum";

// docs/api.md "Book checksum": the worked example, word for word.
const example = {
  bids: [
    { price: "0.550", shares: "120.00" },
    { price: "0.540", shares: "80.50" },
  ],
  asks: [
    { price: "0.560", shares: "45.00" },
    { price: "0.580", shares: "300.00" },
  ],
};

describe("book checksum", () => {
  test("the docs' example: its input string and its number", () => {
    expect(checksumInput(example)).toBe("0.550:120.00|0.540:80.50#0.560:45.00|0.580:300.00");
    expect(bookChecksum(example)).toBe(3724392881);
  });

  test("empty sides keep the separator, so a bid is never taken for an ask", () => {
    expect(checksumInput({ bids: [], asks: [] })).toBe("#");
    expect(checksumInput({ bids: [example.bids[0]], asks: [] })).toBe("0.550:120.00#");
    expect(checksumInput({ bids: [], asks: [example.bids[0]] })).toBe("#0.550:120.00");
    expect(bookChecksum({ bids: [example.bids[0]], asks: [] })).not.toBe(bookChecksum({ bids: [], asks: [example.bids[0]] }));
  });

  test("only the first 10 levels of each side count", () => {
    const level = (i: number) => ({ price: (0.5 - i / 1000).toFixed(3), shares: "1.00" });
    const ten = Array.from({ length: 10 }, (_, i) => level(i));
    expect(bookChecksum({ bids: [...ten, level(10)], asks: [] })).toBe(bookChecksum({ bids: ten, asks: [] }));
    expect(bookChecksum({ bids: ten.slice(0, 9), asks: [] })).not.toBe(bookChecksum({ bids: ten, asks: [] }));
  });

  test.each(["", "#", "a", "0.550:120.00#", "The quick brown fox jumps over the lazy dog"])("crc32(%j) is zlib's", (s) => {
    expect(crc32(s)).toBe(zlibCrc32(s));
  });
});
