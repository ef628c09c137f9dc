import { describe, expect, test } from "vitest";
import { Latest } from "./latest";

describe("Latest – never an older answer after a newer one", () => {
  test("without versions: a REST answer is dropped when a signal was delivered after its request was sent", () => {
    const l = new Latest<string>();
    const request = l.tick(); // GET sent
    expect(l.offer("from signal", { ticket: l.tick() })).toBe(true);
    expect(l.offer("from REST", { ticket: request })).toBe(false);
    expect(l.current).toBe("from signal");
  });

  test("without versions: a REST answer sent after the last delivery is delivered", () => {
    const l = new Latest<string>();
    expect(l.offer("signal", { ticket: l.tick() })).toBe(true);
    expect(l.offer("rest", { ticket: l.tick() })).toBe(true);
  });

  test("without versions: of two requests, the later-sent answer wins whatever the order of the answers", () => {
    const l = new Latest<string>();
    const first = l.tick();
    const second = l.tick();
    expect(l.offer("second", { ticket: second })).toBe(true);
    expect(l.offer("first", { ticket: first })).toBe(false);
  });

  test.each([
    { held: 5, offered: 4, delivered: false },
    { held: 5, offered: 5, delivered: false },
    { held: 5, offered: 6, delivered: true },
  ])("with versions: version $offered after $held → delivered $delivered, whatever the order of arrival", ({ held, offered, delivered }) => {
    const l = new Latest<number>();
    const earlyRequest = l.tick();
    expect(l.offer(held, { ticket: l.tick(), version: held })).toBe(true);
    // The answer to a request sent before the signal may still be newer: versions decide.
    expect(l.offer(offered, { ticket: earlyRequest, version: offered })).toBe(delivered);
  });

  test("a stale answer stands in only while nothing is held, and yields to anything fresh", () => {
    const l = new Latest<string>();
    const fresh = l.tick();
    expect(l.offer("stale", { ticket: l.tick(), stale: true })).toBe(true);
    expect(l.offer("fresh, sent earlier", { ticket: fresh })).toBe(true);
    expect(l.offer("stale again", { ticket: l.tick(), stale: true })).toBe(false);
  });

  test("behind: a heartbeat's version above the delivered one asks for a read", () => {
    const l = new Latest<string>();
    expect(l.behind(3)).toBe(false); // nothing versioned held yet: nothing to compare
    l.offer("v3", { ticket: l.tick(), version: 3 });
    expect(l.behind(3)).toBe(false);
    expect(l.behind(4)).toBe(true);
    expect(l.behind(undefined)).toBe(false);
  });
});
