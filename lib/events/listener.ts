// One LISTEN connection that this module owns: it pings itself through the database, and when the
// connection dies or stops answering it ends it and reconnects with capped exponential backoff.
// postgres.js's own `sql.listen` re-LISTENs from its close handler with no delay of its own, which
// spins while the database refuses connections (dropped, restarting, not accepting them).
import postgres from "postgres";
import { config } from "../config";
import { pingPayload } from "./market-events";

export interface ListenerOptions {
  url: string;
  channel: string;
  onNotify: (payload: string) => void;
  /** Called after every successful LISTEN; `resumed` is false only for the first one. */
  onListen: (resumed: boolean) => void;
  /** Called when the connection is lost: announcements may be missed until the next onListen. */
  onLost?: () => void;
  /** How often the connection pings itself through the database; 3 pings in a row unanswered → reconnect. */
  heartbeatMs: number;
  retryMinMs?: number;
  retryMaxMs?: number;
  log: (message: string) => void;
}

export interface Listener {
  /** Resolves once the first LISTEN succeeded; rejects if it failed (the database is needed to start). */
  ready: Promise<void>;
  /** While waiting to reconnect, tries now (someone saw the database come back); otherwise does nothing. */
  retryNow: () => void;
  close: () => Promise<void>;
}

export const LISTENER_APPLICATION_NAME = "markets-realtime-listener";

/** Delay before reconnect attempt `n` (1-based): min·2^(n-1), capped, with ±20 % jitter. */
export function retryDelay(n: number, minMs: number, maxMs: number, random = Math.random): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.max(0, n - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export function createListener(options: ListenerOptions): Listener {
  const { url, channel, onNotify, onListen, heartbeatMs, log } = options;
  const retryMinMs = options.retryMinMs ?? config().REALTIME_RETRY_MIN_MS;
  const retryMaxMs = options.retryMaxMs ?? config().REALTIME_RETRY_MAX_MS;
  const ping = pingPayload(`${process.pid}-${Math.random().toString(36).slice(2)}`);

  let client: postgres.Sql | null = null;
  let listening = false;
  let listens = 0;
  let failures = 0;
  let closed = false;
  // Pings sent and not yet heard back. Counted, not timed: after the event loop was blocked (a large
  // rebuild, a long collection) the pong of the last ping may be waiting unread, and the time since it
  // was heard says nothing about the connection; a ping not answered by the third beat after it does.
  let unanswered = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let heartbeat: ReturnType<typeof setInterval>;

  // Called for the failed LISTEN and for the close that usually follows it: act on the first only.
  const lost = (of: postgres.Sql, reason: string) => {
    if (of !== client) return;
    client = null;
    listening = false;
    void of.end({ timeout: 0 }).catch(() => {});
    options.onLost?.();
    if (closed) return;
    failures++;
    const delay = retryDelay(failures, retryMinMs, retryMaxMs);
    log(`LISTEN lost (${reason}): reconnect attempt ${failures} in ${delay} ms`);
    retry = setTimeout(() => connect().catch(() => {}), delay); // a failure schedules the next attempt
    retry.unref();
  };

  const connect = async () => {
    if (closed) return;
    // `onnotify` is how postgres.js delivers notifications to a connection; its types omit it.
    const onnotify = (ch: string, payload: string) => {
      if (ch !== channel || c !== client) return;
      if (payload === ping) unanswered = 0;
      else onNotify(payload);
    };
    const c: postgres.Sql = postgres(url, {
      max: 1,
      max_lifetime: null,
      connect_timeout: 10,
      fetch_types: false,
      connection: { application_name: LISTENER_APPLICATION_NAME },
      onnotice: () => {},
      onclose: () => lost(c, "connection closed"),
      ...({ onnotify } as object),
    });
    client = c;
    try {
      await c`LISTEN ${c(channel)}`;
    } catch (err) {
      lost(c, (err as Error).message);
      throw err;
    }
    if (c !== client) return; // closed while connecting
    listening = true;
    unanswered = 0;
    failures = 0;
    onListen(listens++ > 0);
  };

  const beat = () => {
    const c = client;
    if (!c || !listening) return;
    if (unanswered >= 3) return lost(c, `no heartbeat: ${unanswered} pings unanswered, ${heartbeatMs} ms apart`);
    unanswered++;
    c`SELECT pg_notify(${channel}, ${ping})`.catch(() => {}); // a failure shows up as a close or a missed pong
  };

  const ready = connect();
  heartbeat = setInterval(beat, heartbeatMs);
  heartbeat.unref();

  return {
    ready,
    retryNow: () => {
      if (closed || client) return; // connected, or an attempt is under way
      clearTimeout(retry);
      log(`database back: reconnecting now (attempt ${failures + 1})`);
      connect().catch(() => {});
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const c = client;
      client = null;
      await c?.end({ timeout: 1 }).catch(() => {});
    },
  };
}
