import { describe, expect, test } from "vitest";
import { leadingOutcome, moveOf } from "./moves";

const o = (id: string, probability: number, index: number) => ({ id, name: id.toUpperCase(), probability, index });

describe("24-hour move", () => {
  test("the leading outcome is the most probable; the lower index breaks a tie", () => {
    expect(leadingOutcome([o("a", 40, 0), o("b", 60, 1)])?.id).toBe("b");
    expect(leadingOutcome([o("a", 50, 1), o("b", 50, 0)])?.id).toBe("b");
    expect(leadingOutcome([])).toBeUndefined();
  });
  test.each([
    { name: "up", now: 63.45, dayAgo: 0.55, points: 8.5 },
    { name: "down", now: 52, dayAgo: 0.601, points: -8.1 },
    { name: "flat", now: 55, dayAgo: 0.55, points: 0 },
    { name: "a price of 0 a day ago counts", now: 62, dayAgo: 0, points: 62 },
  ])("move – $name", ({ now, dayAgo, points }) => {
    expect(moveOf([o("a", now, 0), o("b", 100 - now, 1)], { a: dayAgo })).toEqual({ outcomeId: "a", name: "A", points });
  });
  test("no trade at or before a day ago: no move", () => {
    expect(moveOf([o("a", 70, 0), o("b", 30, 1)], { b: 0.3 })).toBeNull();
    expect(moveOf([o("a", 70, 0)], undefined)).toBeNull();
  });
});
