// "What moved": the leading outcome's change over the last 24 hours (docs/api.md, "24-hour change").
// The database gives, per outcome, the price of its last trade at or before now − 24 h
// (lib/markets/sql/follow.ts, getDayAgoPrices); the rest is here, pure, so the card, the market header and
// its live view compute it alike.
import type { Outcome } from "@/lib/markets/schemas";

/** The price (0..1) of an outcome's last trade at or before now − 24 h, by outcome id. */
export type DayAgoPrices = Record<string, number>;

export interface Move {
  outcomeId: string;
  name: string;
  /** Percentage points: the probability now minus 100 × the day-ago price, to one decimal. */
  points: number;
}

/** The outcome with the highest probability; the lower index wins a tie. */
export function leadingOutcome<O extends Pick<Outcome, "id" | "probability" | "index">>(outcomes: O[]): O | undefined {
  let lead: O | undefined;
  for (const o of outcomes) if (!lead || o.probability > lead.probability || (o.probability === lead.probability && o.index < lead.index)) lead = o;
  return lead;
}

/** The leading outcome's move, or null when it has no trade at or before now − 24 h (nothing to compare with). */
export function moveOf(outcomes: Pick<Outcome, "id" | "name" | "probability" | "index">[], dayAgo: DayAgoPrices | undefined): Move | null {
  const lead = leadingOutcome(outcomes);
  const then = lead && dayAgo?.[lead.id];
  if (!lead || then === undefined) return null;
  // In hundredths of a point first (probabilities have two decimals, prices three), so 63.45 − 55 is 8.5, not 8.4.
  const hundredths = Math.round(lead.probability * 100) - Math.round(then * 10_000);
  const points = (Math.sign(hundredths) * Math.round(Math.abs(hundredths) / 10)) / 10;
  return { outcomeId: lead.id, name: lead.name, points: points === 0 ? 0 : points };
}
