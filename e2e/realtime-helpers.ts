// Helpers for push-channel tests: socket.io clients and signal collectors (their markets come from
// e2e/support/markets.ts).
import { io, type Socket } from "socket.io-client";
import type { Ack, Signal } from "../lib/realtime/channels";

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

/** The signals of one channel kind ("price" or "orderbook") among those collected. */
export const only = (got: Received[], event: string) => got.filter((s) => s.event === event);

/** The server's default coalescing window of a channel's signals (REALTIME_COALESCE_MS). */
export const COALESCE_MS = 150;

/** Resolves once `predicate` holds, polling; rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 10_000, what = "condition") {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
