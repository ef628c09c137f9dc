import { describe, expect, it } from "vitest";
import { sleep } from "@/lib/dev/tools";
import { Breaker, withTimeout } from "./breaker";
import { DatabaseUnavailableError } from "./errors";

describe("Breaker – one probe per interval while the database is away", () => {
  it("refuses at once when open, probes every interval, closes on the first good probe", async () => {
    let probes = 0;
    let up = false;
    const b = new Breaker({ retryMs: 40, probe: async () => (probes++, up ? undefined : Promise.reject(new Error("down"))) });
    expect(() => b.check()).not.toThrow();
    b.trip(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
    b.trip(new Error("again")); // already open: no second probe loop
    expect(b.isOpen).toBe(true);
    expect(() => b.check()).toThrow(DatabaseUnavailableError);
    for (let i = 0; i < 1000; i++) expect(() => b.check()).toThrow(DatabaseUnavailableError); // no probe per request
    await sleep(150);
    expect(probes).toBeGreaterThanOrEqual(2);
    expect(probes).toBeLessThanOrEqual(4);
    up = true;
    await sleep(100);
    expect(b.isOpen).toBe(false);
    expect(() => b.check()).not.toThrow();
    b.close();
  });

  it("tells its onBack listeners once per recovery, when the probe finds the database back", async () => {
    let up = false;
    const b = new Breaker({ retryMs: 30, probe: async () => (up ? undefined : Promise.reject(new Error("down"))) });
    let backs = 0;
    const stop = b.onBack(() => backs++);
    b.trip(new Error("refused"));
    await sleep(100);
    expect(backs).toBe(0);
    up = true;
    await sleep(80);
    expect(backs).toBe(1);
    stop();
    b.trip(new Error("refused"));
    await sleep(80);
    expect(b.isOpen).toBe(false);
    expect(backs).toBe(1); // unsubscribed
    b.close();
  });

  it("reached(): closed at once, without waiting for the probe, onBack told once, and no probe after it", async () => {
    let probes = 0;
    const b = new Breaker({ retryMs: 30, probe: async () => (probes++, Promise.reject(new Error("down"))) });
    let backs = 0;
    b.onBack(() => backs++);
    b.reached("nothing to do while closed");
    expect(backs).toBe(0);
    b.trip(new Error("refused"));
    await sleep(80);
    const before = probes;
    expect(before).toBeGreaterThanOrEqual(1);
    b.reached("the LISTEN connection is back");
    expect(b.isOpen).toBe(false);
    expect(backs).toBe(1);
    await sleep(100);
    expect(probes).toBeLessThanOrEqual(before + 1); // at most the probe already under way
    expect(b.isOpen).toBe(false);
    b.close();
  });

  it("Retry-After is the probe interval in whole seconds, at least 1", () => {
    expect(new Breaker({ retryMs: 300, probe: async () => {} }).retryAfterS).toBe(1);
    expect(new Breaker({ retryMs: 2500, probe: async () => {} }).retryAfterS).toBe(3);
  });
});

describe("withTimeout – a deadline around work that may never end", () => {
  it("rejects with DatabaseUnavailableError after the deadline", async () => {
    const t0 = Date.now();
    await expect(withTimeout(new Promise(() => {}), 50)).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(Date.now() - t0).toBeLessThan(500);
  });
  it("passes results and errors through", async () => {
    await expect(withTimeout(Promise.resolve(7), 50)).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error("x")), 50)).rejects.toThrow("x");
  });
});
