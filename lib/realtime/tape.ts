// What a `trades` signal carries: the market's trades that this instance has not yet carried on that
// channel, so a watcher appends them without a request (docs/api.md "Push channels"). Read once per
// signal for every watcher; the channel's position is the newest trade carried so far.
import { type Carrier, SKIP } from "./emitter";

/** A page of the tape as `GET …/trades` answers it (primary shape). */
export interface TapePage {
  trades: unknown[];
  next_cursor: string | null;
  newest_cursor: string | null;
}

/**
 * `read(slug, after)`: the trades newer than the cursor `after` (at most `limit`, the oldest of them), or
 * with `after` null the newest `limit`; newest first either way.
 */
export type TapeReader = (slug: string, after: string | null, limit: number) => Promise<TapePage>;

export interface TapeCarrier {
  carry: Carrier;
  /** A room emptied: the next signal starts again from the head of the tape. */
  forget: (channel: string) => void;
}

export function createTapeCarrier(read: TapeReader, limit = 100): TapeCarrier {
  const positions = new Map<string, string>();
  return {
    async carry(channel, { slug, edit }) {
      // Trades corrected or deleted: no list of new trades can say so, watchers refetch.
      if (edit) return null;
      const after = positions.get(channel) ?? null;
      const page = await read(slug, after, limit);
      // Nothing newer (this instance carried them already, with an earlier change of the same commit): no signal.
      if (!page.trades.length || !page.newest_cursor) return SKIP;
      positions.set(channel, page.newest_cursor);
      return {
        trades: page.trades,
        // These are every trade after `after` (the `cursor` of this channel's previous trades signal), or,
        // with `after` null, the newest ones; `more`: there were more than `limit`, continue with GET ?after=cursor.
        after,
        cursor: page.newest_cursor,
        more: after !== null && page.next_cursor !== null,
      };
    },
    forget: (channel) => positions.delete(channel),
  };
}
