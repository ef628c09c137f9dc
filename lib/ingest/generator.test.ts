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
