// The Activity panel's tape as the browser holds it, and the client rule of `trades` signals (docs/api.md
// "Push channels"): append a signal's trades when its `after` is the position the tape is complete up to,
// otherwise catch up with GET …/trades?after=<that position> until `next_cursor` is null. Pure; the hook
// (lib/realtime/use-trades-channel.ts) does the reads.
import type { Trade, TradeTape } from "@/lib/markets/schemas";

export interface HeldTape {
  /** Newest first; one outcome's when the tape is filtered, else the market's. */
  trades: Trade[];
  /** The market-tape position this tape is complete up to (cursors are positions, valid for any filter); null: empty. */
  newest: string | null;
  /** Where older trades continue (`before=`), null at the tape's start. */
  older: string | null;
}

/** A first page (no cursor) as the held tape. */
export const heldTape = (page: TradeTape): HeldTape => ({ trades: page.trades, newest: page.newest_cursor, older: page.next_cursor });

/**
 * Trades newer than the held ones (newest first, a signal's or a page of a catch-up) on top of the tape:
 * only those of the filter's outcome, none twice; `cursor` is where the tape is complete up to now.
 */
export function withNewer(held: HeldTape, newer: Trade[], cursor: string | null, outcomeId: string | null): HeldTape {
  const have = new Set(held.trades.map((t) => t.id));
  const fresh = newer.filter((t) => (outcomeId === null || t.outcome_id === outcomeId) && !have.has(t.id));
  return { ...held, trades: fresh.length ? [...fresh, ...held.trades] : held.trades, newest: cursor ?? held.newest };
}

/** A page read with `before=held.older` under the tape. */
export function withOlder(held: HeldTape, page: TradeTape): HeldTape {
  const have = new Set(held.trades.map((t) => t.id));
  return { ...held, trades: [...held.trades, ...page.trades.filter((t) => !have.has(t.id))], older: page.next_cursor };
}

export interface TradesSignalData {
  trades?: unknown[];
  after?: string | null;
  cursor?: string;
  more?: boolean;
}

export type SignalStep =
  /** Nothing held yet to continue from: read the first page again. */
  | { kind: "reload" }
  /** Append the signal's trades, then, when `catchUp`, continue with GET ?after=cursor (there were more than it carried). */
  | { kind: "append"; trades: Trade[]; cursor: string; catchUp: boolean }
  /** The signal does not continue this tape (a missed signal, another instance, a correction): GET ?after=held.newest. */
  | { kind: "catch-up" };

export function signalStep(held: HeldTape, signal: TradesSignalData): SignalStep {
  if (held.newest === null) return { kind: "reload" };
  if (signal.trades && signal.cursor && signal.after === held.newest) {
    return { kind: "append", trades: signal.trades as Trade[], cursor: signal.cursor, catchUp: signal.more === true };
  }
  return { kind: "catch-up" };
}

/** Reads the market's tape after a cursor (GET …/trades?after=…, no outcome filter: its cursors are the channel's positions). */
export type ReadAfter = (after: string) => Promise<TradeTape>;

/** GET ?after=held.newest, page by page, until next_cursor is null: the tape is complete up to the market's newest trade. */
export async function caughtUp(held: HeldTape, outcomeId: string | null, readAfter: ReadAfter): Promise<HeldTape> {
  let tape = held;
  // A guard, not a limit anyone should reach: 100 pages of 100 trades behind.
  for (let i = 0; i < 100 && tape.newest !== null; i++) {
    const page = await readAfter(tape.newest);
    tape = withNewer(tape, page.trades, page.newest_cursor, outcomeId);
    if (page.next_cursor === null) break;
  }
  return tape;
}

/** The held tape after a `trades` signal (or after a reconnect: a signal without data), or "reload" when nothing is held to continue from. */
export async function followSignal(held: HeldTape, signal: TradesSignalData, outcomeId: string | null, readAfter: ReadAfter): Promise<HeldTape | "reload"> {
  const step = signalStep(held, signal);
  if (step.kind === "reload") return "reload";
  if (step.kind === "catch-up") return caughtUp(held, outcomeId, readAfter);
  const appended = withNewer(held, step.trades, step.cursor, outcomeId);
  return step.catchUp ? caughtUp(appended, outcomeId, readAfter) : appended;
}
