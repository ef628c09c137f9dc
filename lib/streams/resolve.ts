// The data an event carries (docs/api.md "Push channels"), read once for every stream that sends it, in
// both shapes: an orderbook change's book at its version, a change's new trades, a market's list item.
// What cannot be read is left out, and the event then tells its clients to refetch.
import "server-only";
import { readDb } from "@/lib/db/client";
import { camelMarketListItem, camelOrderBook, camelTradeTape } from "@/lib/markets/camel";
import { getBookAt } from "@/lib/markets/reads/book-log";
import { getVersionedOrderBook } from "@/lib/markets/reads/books";
import type { MarketListItem } from "@/lib/markets/schemas";
import { eachMarketListItem } from "@/lib/markets/sql/lists";
import { tradesByIds } from "@/lib/markets/sql/trades";
import type { StreamEvent } from "./stream-events";

export type Shape = "primary" | "camel";

/** An event with its data: the fields of its JSON in each shape, and its SSE frame once asked for. */
export interface ResolvedEvent {
  event: StreamEvent;
  data: (shape: Shape) => Record<string, unknown>;
  frame: (shape: Shape) => string;
}

/** A trades event carries at most this many; the change's trade ids keep one more, to tell there were more. */
const TRADES_CARRIED = 100;

type Fields = { primary: Record<string, unknown>; camel: Record<string, unknown> };

async function bookFields(e: StreamEvent): Promise<Fields | null> {
  const { slug, outcomeId, version, atUs } = e.change;
  if (!slug || !outcomeId || version === undefined) return null;
  const now = await getVersionedOrderBook({ slug, outcomeId });
  let b: { book: typeof now.book; version: number; checksum: number } = now;
  // The book moved on since: the one in force when this change was numbered (its commit) is version `version`.
  if (now.version > version && atUs !== undefined) b = await getBookAt({ slug, outcomeId, ts: (atUs / 1e6).toFixed(6) });
  if (b.version !== version) return null;
  return {
    primary: { book: b.book, version: b.version, checksum: b.checksum },
    camel: { book: camelOrderBook(b.book), version: b.version, checksum: b.checksum },
  };
}

async function loggedTradeIds(position: number): Promise<string[]> {
  const sql = await readDb();
  const [row] = await sql<
    { ids: string[] | null }[]
  >`SELECT ARRAY(SELECT jsonb_array_elements_text(event->'i')) AS ids FROM change_log WHERE position = ${position}`;
  return row?.ids ?? [];
}

async function tradeFields(e: StreamEvent): Promise<Fields | null> {
  if (e.edit) return { primary: { edit: true }, camel: { edit: true } };
  // A change read back from the log carries its trades' ids; a live one (its NOTIFY leaves them out) reads them.
  const ids = e.change.tradeIds ?? (await loggedTradeIds(e.position));
  if (!ids.length) return null;
  const { trades, cursor } = await tradesByIds(ids.slice(0, TRADES_CARRIED));
  if (!trades.length) return null;
  const more = ids.length > TRADES_CARRIED;
  const camel = camelTradeTape({ trades, next_cursor: null, newest_cursor: cursor }).trades;
  return { primary: { trades, cursor, more }, camel: { trades: camel, cursor, more } };
}

async function marketFields(e: StreamEvent): Promise<Fields> {
  let item: MarketListItem | null = null;
  if (e.change.marketId) await eachMarketListItem([e.change.marketId], (i) => void (item = i));
  const found = item as MarketListItem | null;
  const type = found ? e.type : "deleted";
  return {
    primary: { type, id: e.change.marketId, market: found },
    camel: { type, id: e.change.marketId, market: found && camelMarketListItem(found) },
  };
}

function fieldsOf(e: StreamEvent): Promise<Fields | null> {
  switch (e.name) {
    case "orderbook":
      return bookFields(e);
    case "trades":
      return tradeFields(e);
    case "market":
      return marketFields(e);
    default:
      return Promise.resolve(null);
  }
}

/** Reads an event's data; a failure to read leaves it out (the event still goes: its clients refetch). */
export async function resolveEvent(e: StreamEvent): Promise<ResolvedEvent> {
  const fields = await fieldsOf(e).catch(() => null);
  const envelope = { channel: e.channel, slug: e.change.slug, outcomeId: e.change.outcomeId, at: e.at, position: e.position };
  const data: Partial<Record<Shape, Record<string, unknown>>> = {};
  const frames: Partial<Record<Shape, string>> = {};
  const dataOf = (shape: Shape) => (data[shape] ??= { ...envelope, ...(fields?.[shape] ?? {}) });
  return {
    event: e,
    data: dataOf,
    frame: (shape) => (frames[shape] ??= `id: ${e.position}\nevent: ${e.name}\ndata: ${JSON.stringify(dataOf(shape))}\n\n`),
  };
}
