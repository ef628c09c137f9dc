// What the push benchmarks share: the server and database they target (loopback only), a throwaway
// native binary market on that database (removed again when the run ends), the sockets that watch
// its orderbook channel and the commits that move its book.
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { io, type Socket } from "socket.io-client";
import type { Signal } from "../lib/realtime/channels";

/** BASE_URL and DATABASE_URL, else the running Playwright test server's (.data/test-run.json). */
export function benchTargets(defaultBaseURL: string): { baseURL: string; databaseUrl: string } {
  const runFile = path.join(process.cwd(), ".data", "test-run.json");
  const run = fs.existsSync(runFile) ? JSON.parse(fs.readFileSync(runFile, "utf8")) : {};
  const baseURL: string = process.env.BASE_URL ?? run.baseURL ?? defaultBaseURL;
  const databaseUrl: string | undefined = process.env.DATABASE_URL ?? run.databaseUrl;
  if (!databaseUrl) throw new Error("set DATABASE_URL (the database the server at BASE_URL uses)");
  for (const u of [baseURL, databaseUrl]) {
    const host = new URL(u).hostname;
    if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) throw new Error(`loopback only: ${u}`);
  }
  return { baseURL, databaseUrl };
}

export async function createBenchMarket(sql: postgres.Sql, name: string, question: string) {
  const marketId = randomUUID();
  const outcomeId = randomUUID();
  const userId = randomUUID();
  const slug = `${name}-${marketId.slice(0, 8)}`;
  await sql.begin(async (tx) => {
    await tx`INSERT INTO users (id, username) VALUES (${userId}, ${`bench-${userId.slice(0, 12)}`})`;
    await tx`
      INSERT INTO markets (id, slug, question, description, category, sub_category, type, status,
                           trading_starts_at, trading_ends_at, platform_fee, spread, image_url)
      VALUES (${marketId}, ${slug}, ${question}, ${`Throwaway market of ${name}.`}, 'OTHER', 'Bench',
              'BINARY', 'ACTIVE', now(), now() + interval '1 day', 0.02, 2, 'https://example.com/b.png')`;
    await tx`
      INSERT INTO outcomes (id, market_id, name, side, index, probability) VALUES
        (${outcomeId}, ${marketId}, 'Yes', 'YES', 0, 50), (${randomUUID()}, ${marketId}, 'No', 'NO', 1, 50)`;
  });
  return {
    marketId,
    outcomeId,
    userId,
    slug,
    drop: async () => {
      await sql`DELETE FROM markets WHERE id = ${marketId}`;
      await sql`DELETE FROM users WHERE id = ${userId}`;
    },
  };
}

/**
 * `count` WebSocket clients joined to `channel`, connected `batch` at a time (progress on stdout);
 * `onSignal(w, signal)` gets watcher w's signals of the channel's kind. Sockets are pushed to `sockets` as they
 * open, so the caller can disconnect every one of them even when a join fails.
 */
export async function joinWatchers(
  baseURL: string,
  channel: string,
  { count, batch, sockets, onSignal }: { count: number; batch: number; sockets: Socket[]; onSignal: (w: number, signal: Signal) => void },
) {
  const t0 = Date.now();
  for (let i = 0; i < count; i += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, count - i) }, async (_, j) => {
        const s = io(baseURL, { path: "/socket.io", transports: ["websocket"], forceNew: true, reconnection: false });
        sockets.push(s);
        await new Promise<void>((resolve, reject) => {
          s.once("connect", resolve);
          s.once("connect_error", reject);
        });
        s.on(channel.slice(channel.lastIndexOf(":") + 1), (signal: Signal) => onSignal(i + j, signal));
        const ack = await s.timeout(10_000).emitWithAck("join", { channel });
        if (!ack.ok) throw new Error(`join failed: ${ack.error}`);
      }),
    );
    process.stdout.write(`\r  connected and joined ${Math.min(i + batch, count)}/${count}`);
  }
  console.log(` in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** One resting bid of one share on the bench market's first outcome: one commit, one orderbook signal. */
export async function commitBid(sql: postgres.Sql, market: { marketId: string; outcomeId: string; userId: string }, price: number | string) {
  await sql`
    INSERT INTO orders (id, market_id, outcome_id, user_id, side, type, price, shares, filled_shares, status, created_at)
    VALUES (${randomUUID()}, ${market.marketId}, ${market.outcomeId}, ${market.userId}, 'BUY', 'LIMIT', ${price}, 1, 0, 'OPEN', now())`;
}

/** One trade of one share on the bench market's first outcome: one commit, one trades signal carrying it. */
export async function commitTrade(sql: postgres.Sql, market: { marketId: string; outcomeId: string; userId: string }, price: number | string) {
  await sql`
    INSERT INTO trades (id, market_id, outcome_id, price, shares, maker_user_id, taker_user_id, executed_at)
    VALUES (${randomUUID()}, ${market.marketId}, ${market.outcomeId}, ${price}, 1, ${market.userId}, ${market.userId}, now())`;
}
