// The intake of committed changes: one LISTEN connection per process (./listener.ts), the commit gate
// that holds each notification until a replica read after it would see the commit (lib/db/consistency.ts),
// and the one parse (./market-events.ts). The response cache and the push channels each subscribe; neither
// knows about the other, and the cache works whether or not the push channels are attached.
import "server-only";
import { type Breaker, breaker } from "../db/breaker";
import { db } from "../db/client";
import { commitGate } from "../db/consistency";
import { createListener, type Listener } from "./listener";
import { NOTIFY_CHANNEL, parseMarketEvent, type MarketEvent } from "./market-events";

export interface ChangeSubscriber {
  /** A committed change. */
  event?: (event: MarketEvent) => void;
  /** LISTEN works: at start (`resumed` false) and after every reconnect (`resumed` true: changes may have been missed). */
  listening?: (resumed: boolean) => void;
  /** The LISTEN connection is lost: changes are not heard until the next `listening`. */
  lost?: () => void;
}

export interface ChangeStream {
  /**
   * Subscribers are called in the order they subscribed, every one for every change. server.ts subscribes
   * the response cache first, so it has dropped a changed answer before any socket is signalled.
   */
  subscribe: (subscriber: ChangeSubscriber) => () => void;
  /** Connects and LISTENs; rejects when the first LISTEN fails (the database is needed to start). */
  start: () => Promise<void>;
  close: () => Promise<void>;
}

export interface ChangeStreamOptions {
  databaseUrl: string;
  /** How often the listener proves it still hears the database (REALTIME_HEARTBEAT_MS). */
  heartbeatMs: number;
  retryMinMs?: number;
  retryMaxMs?: number;
  log?: (message: string) => void;
  /** Runs each notification's consumers once a read after it would see the commit; default: the replica commit gate. */
  gate?: (fn: () => void) => void;
  /** Makes the LISTEN connection (tests hand in their own). */
  listen?: typeof createListener;
  /** The 503 breaker it closes when it hears the primary, and that nudges it back; default: the process's (none with `listen`). */
  breaker?: Breaker;
}

export function createChangeStream(options: ChangeStreamOptions): ChangeStream {
  const log = options.log ?? ((m: string) => console.log(`[changes] ${m}`));
  const subscribers: ChangeSubscriber[] = [];
  let listener: Listener | undefined;
  let stopNudge = () => {};

  const each = (call: (s: ChangeSubscriber) => void) => {
    for (const s of [...subscribers]) {
      try {
        call(s);
      } catch (err) {
        log(`a subscriber failed: ${(err as Error).message}`);
      }
    }
  };

  return {
    subscribe(subscriber) {
      subscribers.push(subscriber);
      return () => {
        const i = subscribers.indexOf(subscriber);
        if (i >= 0) subscribers.splice(i, 1);
      };
    },
    async start() {
      if (listener) throw new Error("change stream already started");
      const afterCommit = options.gate ?? commitGate(db(), log);
      // A LISTEN that works, or a change heard on it, is the primary answering: the 503 breaker closes before
      // any consumer runs, so that no read after a heard change goes to a replica as if the primary were away
      // (one that has not replayed that change would be kept as the fresh answer).
      const b = options.breaker ?? (options.listen ? undefined : breaker());
      const reached = (how: string) => b?.reached(how);
      listener = (options.listen ?? createListener)({
        url: options.databaseUrl,
        channel: NOTIFY_CHANNEL,
        heartbeatMs: options.heartbeatMs,
        retryMinMs: options.retryMinMs,
        retryMaxMs: options.retryMaxMs,
        log,
        onNotify: (payload) => {
          reached("a change was heard");
          const event = parseMarketEvent(payload);
          if (event) afterCommit(() => each((s) => s.event?.(event)));
        },
        onListen: (resumed) => {
          reached("its LISTEN connection is back");
          afterCommit(() => each((s) => s.listening?.(resumed)));
        },
        onLost: () => each((s) => s.lost?.()),
      });
      try {
        await listener.ready;
      } catch (err) {
        await listener.close();
        throw err;
      }
      // The breaker's probe (every DB_RETRY_MS while requests find the database away) sees it back
      // before the listener's next backoff step would: LISTEN again then.
      if (b) {
        const l = listener;
        stopNudge = b.onBack(() => l.retryNow());
      }
    },
    async close() {
      stopNudge();
      await listener?.close();
    },
  };
}
