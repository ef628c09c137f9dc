// Helpers for push-channel tests: throwaway markets written straight to the test database (so tests
// that write never touch data other tests assert on), socket.io clients, and signal collectors.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { io, type Socket } from "socket.io-client";
import type { Ack, Signal } from "../lib/realtime/channels";

export interface TestMarket {
  id: string;
  slug: string;
  outcomes: string[];
  userId: string;
}

/** A native ACTIVE market with outcomes (YES/NO for binary) and one user, all fresh. */
export async function createMarket(
  sql: postgres.Sql,
  { outcomes = 2, prefix = "rt", probability }: { outcomes?: number; prefix?: string; probability?: number[] } = {},
): Promise<TestMarket> {
  const id = randomUUID();
  const slug = `${prefix}-${id.slice(0, 8)}-${Date.now().toString(36)}`;
  const userId = randomUUID();
  const outcomeIds = Array.from({ length: outcomes }, () => randomUUID());
  const probs = probability ?? outcomeIds.map(() => Number((100 / outcomes).toFixed(2)));
  await sql.begin(async (tx) => {
    await tx`INSERT INTO users (id, username) VALUES (${userId}, ${`u-${userId.slice(0, 12)}`})`;
    await tx`
      INSERT INTO markets (id, slug, question, description, category, sub_category, type, status,
                           trading_starts_at, trading_ends_at, platform_fee, spread, image_url, creator_id)
      VALUES (${id}, ${slug}, ${`Realtime test market ${slug}?`}, 'Created by a push-channel test.', 'OTHER', 'Tests',
              ${outcomes === 2 ? "BINARY" : "MULTI"}, 'ACTIVE', now() - interval '1 day', now() + interval '30 days',
              0.02, 2, 'https://example.com/m.png', ${userId})`;
    for (const [i, oid] of outcomeIds.entries()) {
      await tx`
        INSERT INTO outcomes (id, market_id, name, side, index, probability)
        VALUES (${oid}, ${id}, ${outcomes === 2 ? (i === 0 ? "Yes" : "No") : `Option ${i + 1}`},
                ${outcomes === 2 && i === 1 ? "NO" : "YES"}, ${i}, ${probs[i]})`;
    }
  });
  return { id, slug, outcomes: outcomeIds, userId };
}

export async function insertOrder(
  sql: postgres.Sql | postgres.TransactionSql,
  m: TestMarket,
  { outcome = 0, side = "BUY", price = "0.450", shares = "10.00" }: { outcome?: number; side?: "BUY" | "SELL"; price?: string; shares?: string } = {},
) {
  const id = randomUUID();
  await sql`
    INSERT INTO orders (id, market_id, outcome_id, user_id, side, type, price, shares, filled_shares, status, created_at)
    VALUES (${id}, ${m.id}, ${m.outcomes[outcome]}, ${m.userId}, ${side}, 'LIMIT', ${price}, ${shares}, 0, 'OPEN', now())`;
  return id;
}

export async function insertTrade(sql: postgres.Sql, m: TestMarket, { outcome = 0, price = "0.550", shares = "5.000000" } = {}) {
  const id = randomUUID();
  await sql`
    INSERT INTO trades (id, market_id, outcome_id, price, shares, maker_user_id, taker_user_id, executed_at)
    VALUES (${id}, ${m.id}, ${m.outcomes[outcome]}, ${price}, ${shares}, ${m.userId}, ${m.userId}, now())`;
  return id;
}

export async function connectClient(baseURL: string): Promise<Socket> {
  const socket = io(baseURL, { path: "/socket.io", transports: ["websocket"], reconnection: true, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no socket.io connection to ${baseURL}`)), 15_000);
    socket.once("connect", () => {
      clearTimeout(t);
      resolve();
    });
  });
  return socket;
}

export function emitAck(socket: Socket, event: "join" | "leave", payload: unknown, timeoutMs = 10_000): Promise<Ack> {
  return socket.timeout(timeoutMs).emitWithAck(event, payload);
}

export const join = (socket: Socket, channel: string) => emitAck(socket, "join", { channel });

export interface Received extends Signal {
  event: string;
  receivedAt: number;
}

/** Records every price/orderbook signal the socket receives, in order. */
export function collect(socket: Socket): Received[] {
  const got: Received[] = [];
  for (const event of ["price", "orderbook"]) {
    socket.on(event, (s: Signal) => got.push({ ...s, event, receivedAt: Date.now() }));
  }
  return got;
}

/** Resolves once `predicate` holds, polling; rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 10_000, what = "condition") {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
