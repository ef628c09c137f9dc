// One market's detail (GET /v1/markets/{id} and /slug/{slug}, the market page), tagged with its market.
import "server-only";
import type { MarketKey } from "@/lib/markets/sql/fragments";
import * as marketSql from "@/lib/markets/sql/market";
import { keyOf, read } from "./cache";
import { marketTag } from "./tags";

export function getMarket(key: MarketKey) {
  return read(["markets", "detail", keyOf(key)], [marketTag(key)], async () => {
    const value = await marketSql.getMarket(key);
    // "No such market" is not kept: a market created later announces itself only to the lists.
    return { value, expiresAt: value === null ? 0 : undefined };
  });
}
