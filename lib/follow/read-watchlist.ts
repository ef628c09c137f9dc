// The request's watchlist (lib/follow/watchlist.ts), read from its cookie by the pages and the header.
import "server-only";
import { cookies } from "next/headers";
import { parseWatchlist, WATCHLIST_COOKIE } from "@/lib/follow/watchlist";

export async function readWatchlist(): Promise<string[]> {
  return parseWatchlist((await cookies()).get(WATCHLIST_COOKIE)?.value);
}
