import { describe, expect, it } from "vitest";
import { VenueStream } from "./generator";
import { parseLine } from "./schemas";

/** Order events and trades in `events` lines of a venue's stream, after its preamble. */
function mix(ratio: number, events: number) {
  const v = new VenueStream({ seed: 7, ratio, rate: 1000, start: Date.parse("2026-01-05T00:00:00Z") });
  for (const _ of v.preamble(200));
  let orders = 0;
  let trades = 0;
  for (let k = 0; k < events; k++) {
    const parsed = parseLine(v.next());
    if (!parsed.ok) throw new Error(parsed.error);
    if (parsed.event.kind === "order") orders++;
    else if (parsed.event.kind === "trade") trades++;
  }
  return { orders, trades };
}

describe("venue stream", () => {
  it.each([5, 10, 20])("carries about `ratio` book changes per trade (ratio %i), a trade's maker's fill counted", (ratio) => {
    const { orders, trades } = mix(ratio, 60_000);
    expect(trades).toBeGreaterThan(0);
    expect(orders / trades).toBeGreaterThan(ratio * 0.95);
    expect(orders / trades).toBeLessThan(ratio * 1.08);
  });
});

describe("venue stream over time", () => {
  /** Distinct markets per 1,000 events, in the first and the last `window` events of `events`; resolutions seen. */
  function spread(events: number, window: number) {
    const v = new VenueStream({ seed: 11, ratio: 10, rate: 5000, start: Date.parse("2026-01-05T00:00:00Z") });
    for (const _ of v.preamble(2000));
    const perThousand: number[] = [];
    let resolved = 0;
    let seen = new Set<string>();
    for (let k = 1; k <= events; k++) {
      const parsed = parseLine(v.next());
      if (!parsed.ok) throw new Error(parsed.error);
      const e = parsed.event;
      if (e.kind === "market") {
        seen.add(e.row.id);
        if (e.row.status === "RESOLVED") resolved++;
      } else if (e.kind !== "user") seen.add(e.row.market_id);
      if (k % 1000 === 0) perThousand.push(seen.size), (seen = new Set());
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const w = window / 1000;
    return { first: mean(perThousand.slice(0, w)), last: mean(perThousand.slice(-w)), resolved };
  }

  it("stays as concentrated as it starts: a resolved market's rank goes to a new market", () => {
    const { first, last, resolved } = spread(500_000, 50_000);
    // About 50 resolutions, weighted to the hottest markets: were their activity spread over the tail, the
    // markets an event batch touches would grow by a third or more from the first 50,000 events to the last.
    expect(resolved).toBeGreaterThan(25);
    expect(last / first).toBeGreaterThan(0.9);
    expect(last / first).toBeLessThan(1.1);
  }, 30_000);
});
