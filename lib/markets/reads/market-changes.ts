// The markets feed's pages (GET /v1/markets/changes), read from the database every time. Not an entry of
// the response cache: an item kept in memory until this instance hears of its change could be listed at a
// position newer than itself, and a mirror that has moved past that position would keep the old item.
import "server-only";
import { withDatabase } from "@/lib/db/breaker";
import type { MarketChangesQuery } from "@/lib/markets/schemas";
import * as changesSql from "@/lib/markets/sql/market-changes";

export function listMarketChanges(query: MarketChangesQuery) {
  return withDatabase(() => changesSql.listMarketChanges(query));
}
