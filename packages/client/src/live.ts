// Live data over the push channels (docs/api.md "Push channels"): watch a market's book, prices or trades and get
// callbacks with the current data. One Socket.IO connection per `createLive`; each channel is joined once however
// many watchers share it, joined again after every reconnect, and every watcher then reads afresh. Signals that
// carry data are applied, the others make the watcher read over REST; a seq gap, a heartbeat naming a later seq
// (or, for books, a later version) make it read too; a channel silent past its heartbeat interval means a stalled
// connection, which is dropped and made again. A book is never handed over when an older one would follow a newer
// one (./latest.ts). Needs socket.io-client (an optional peer dependency of this package).
import { io, type ManagerOptions, type Socket, type SocketOptions } from "socket.io-client";
import type { MarketsClient, OrderBook, PriceHistory, Trade } from "./index.js";
import { Latest } from "./latest.js";

export type LiveStatus = "connecting" | "live" | "reconnecting";

/**
 * A signal as docs/api.md "Push channels" lists it (the server sends exactly this type). A signal without
 * data makes the watcher refetch. `outcomeId` is null when the coalesced signal stands for several outcomes
 * (or for a resync after the server lost its database connection). `seq` counts the signals of one channel
 * sent by one server instance: a jump means a missed signal; it restarts when the client lands on another
 * instance (re-join and refetch then anyway).
 */
export interface LiveSignal {
  channel: string;
  slug: string;
  outcomeId: string | null;
  at: number;
  seq: number;
  /**
   * The position of the newest change the signal stands for (docs/api.md "Positions"): the same on every
   * instance, growing in commit order. Join again with `since` set to it to get what you missed.
   */
  position?: number;
  /** Sent again to a join with `since`: a change missed while away. */
  replay?: boolean;
  /**
   * On `orderbook` signals that name one outcome: that outcome's book as `GET …/orderbook` answers it
   * (primary shape) right after the change, so a watcher can show it without a request. Absent when
   * the server could not read it: refetch then.
   */
  book?: unknown;
  /**
   * Beside `book`: its version (only grows; the same on every instance, from the database) and its
   * checksum (docs/api.md "Book checksum"), as GET …/orderbook's Book-Version and Book-Checksum headers.
   */
  version?: number;
  checksum?: number;
  /**
   * On `trades` signals: the market's trades newer than `after` (newest first, at most 100, the oldest of
   * them when there were more: `more`), as `GET …/trades` lists them. `after` is the `cursor` of this
   * channel's previous trades signal on this instance, or null for the first one (then `trades` are the
   * newest). Absent when nothing new could be read: refetch then.
   */
  trades?: unknown[];
  after?: string | null;
  cursor?: string;
  more?: boolean;
}

/**
 * Sent to every joined channel at least every `interval` ms (REALTIME_CHANNEL_HEARTBEAT_MS on the server)
 * while no signal went out: `seq` is the channel's last signal's seq on this instance (0: none yet), so a
 * client that saw a lower one missed a signal, and one that hears nothing for `interval` + 1 s has a stalled
 * connection. Clients that ignore the event lose nothing.
 */
export interface LiveHeartbeat {
  channel: string;
  seq: number;
  at: number;
  interval: number;
  /**
   * On orderbook channels: the current book version of each of the market's outcomes, by outcome id
   * (0: never changed). A client holding a lower version missed a change: refetch that book.
   */
  versions?: Record<string, number>;
}

export interface LiveOptions {
  /** Socket.IO options (default: WebSocket transport, path /socket.io, reconnection on). */
  socket?: Partial<ManagerOptions & SocketOptions>;
  /** A channel silent this long past its heartbeat interval counts as stalled (default 1,000 ms, as docs/api.md says). */
  stallGraceMs?: number;
  /** Connection state changes. */
  onStatus?: (status: LiveStatus) => void;
  /** First and longest delay between failed reads of a watcher (default 500 ms and 10 s, doubling). */
  retryMinMs?: number;
  retryMaxMs?: number;
}

export interface WatchOptions {
  /** A read or a join failed (it is retried; this is for logs). */
  onError?: (error: unknown) => void;
}

export interface Watch<T> {
  /** What was last handed to the callback. */
  current: () => T | undefined;
  /** Resolves with the first data handed over. */
  ready: Promise<T>;
  stop: () => void;
}

export interface BookInfo {
  /** Where this book came from. */
  source: "signal" | "fetch";
  /** The book's version and checksum, where the server sends them (Book-Version / a signal's `version`). */
  version?: number;
  checksum?: number;
}

export interface TradesInfo {
  /** The trades new to the caller in this call, newest first (everything on a full read). */
  added: Trade[];
  /** True when the tape was read again whole (a correction, a gap, a reconnect): replace, do not append. */
  reset: boolean;
}

/** One watcher's reactions; the channel bookkeeping calls them. */
interface Watcher {
  signal: (signal: LiveSignal, gap: boolean) => void;
  heartbeat: (heartbeat: LiveHeartbeat, missed: boolean) => void;
  /** Read everything again (after a join, a reconnect or a missed signal). */
  resync: () => void;
  error: (error: unknown) => void;
}

interface ChannelState {
  watchers: Set<Watcher>;
  /** Seq of the last signal handled on this connection; undefined until the first since the join. */
  seq: number | undefined;
  joined: boolean;
  /** A join with `since` is under way: its replayed signals are handled before the ack. */
  resuming: boolean;
  /** The newest position handled on this channel (docs/api.md "Positions"): where a reconnect resumes from. */
  position: number | undefined;
  lastHeard: number;
  interval: number | undefined;
}

const KINDS = ["price", "orderbook", "trades"] as const;

/** Whether an answer was served stale (from an invalidated cache entry while the database was away). */
const isStale = (response: Response) => response.headers.get("x-cache") === "STALE" || /(^|,)\s*110\b/.test(response.headers.get("warning") ?? "");

const headerNumber = (response: Response, name: string) => {
  const v = response.headers.get(name);
  return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
};

export function createLive(api: MarketsClient, options: LiveOptions = {}) {
  const stallGraceMs = options.stallGraceMs ?? 1000;
  const retryMinMs = options.retryMinMs ?? 500;
  const retryMaxMs = options.retryMaxMs ?? 10_000;
  const channels = new Map<string, ChannelState>();
  let status: LiveStatus = "connecting";
  let closed = false;

  const setStatus = (next: LiveStatus) => {
    if (next !== status) (status = next), options.onStatus?.(next);
  };

  const socket: Socket = io(api.baseUrl, { path: "/socket.io", transports: ["websocket"], ...options.socket });

  // A refused or unanswered join (an unknown market, the server's database away, a timeout) is tried again, with
  // a doubling delay, for as long as the channel has watchers on this connection.
  const join = (name: string, state: ChannelState, delay = retryMinMs) => {
    const retry = (error: unknown) => {
      for (const w of state.watchers) w.error(error);
      setTimeout(() => channels.get(name) === state && socket.connected && !state.joined && join(name, state, Math.min(delay * 2, retryMaxMs)), delay);
    };
    // Back after a disconnect: resume from the newest position handled; the server replays what was missed.
    const since = state.position;
    state.resuming = since !== undefined;
    socket
      .timeout(10_000)
      .emitWithAck("join", since === undefined ? { channel: name } : { channel: name, since })
      .then((ack: { ok: boolean; error?: string; position?: number; reset?: boolean }) => {
        state.resuming = false;
        if (channels.get(name) !== state || !socket.connected) return;
        if (!ack?.ok) return retry(new Error(`join ${name}: ${ack?.error ?? "refused"}`));
        state.joined = true;
        state.seq = undefined;
        state.lastHeard = Date.now();
        if (typeof ack.position === "number") state.position = Math.max(state.position ?? 0, ack.position);
        // Resumed: every change since was replayed and handled. Otherwise (a first join, a server that keeps
        // no positions, a position older than it keeps) read afresh, once in the room: no change can fall
        // between the read and the first signal.
        if (since !== undefined && typeof ack.position === "number" && !ack.reset) return;
        for (const w of state.watchers) w.resync();
      })
      .catch((err: unknown) => {
        state.resuming = false;
        if (channels.get(name) === state) retry(err);
      });
  };

  socket.on("connect", () => {
    setStatus("live");
    for (const [name, state] of channels) join(name, state);
  });
  socket.on("disconnect", (reason) => {
    if (closed) return;
    setStatus("reconnecting");
    for (const state of channels.values()) state.joined = false;
    if (reason === "io server disconnect") socket.connect(); // the one reason socket.io does not reconnect by itself
  });

  const handle = (raw: LiveSignal) => {
    const state = channels.get(raw?.channel);
    if (!state) return;
    const position = typeof raw.position === "number" ? raw.position : undefined;
    // A signal at or below the newest position handled stands for changes already handled (a replay and
    // the live signal of the same change may both arrive around a resumed join).
    if (position !== undefined && state.position !== undefined && position <= state.position) return;
    if (raw.replay) {
      if (!state.resuming && !state.joined) return;
      if (position !== undefined) state.position = position;
      for (const w of state.watchers) w.signal(raw, false);
      return;
    }
    if (!state.joined || typeof raw.seq !== "number") return;
    state.lastHeard = Date.now();
    if (position !== undefined) state.position = position;
    const gap = state.seq !== undefined && raw.seq !== state.seq + 1;
    state.seq = raw.seq;
    for (const w of state.watchers) w.signal(raw, gap);
  };
  for (const kind of KINDS) socket.on(kind, handle);
  socket.on("heartbeat", (hb: LiveHeartbeat) => {
    const state = channels.get(hb?.channel);
    if (!state?.joined || typeof hb.seq !== "number") return;
    state.lastHeard = Date.now();
    state.interval = hb.interval;
    // A heartbeat names the channel's last seq: above ours, a signal went missing.
    const missed = state.seq !== undefined && hb.seq > state.seq;
    if (state.seq === undefined || missed) state.seq = hb.seq;
    for (const w of state.watchers) w.heartbeat(hb, missed);
  });

  // A channel whose heartbeat interval passed (plus the grace) without a word: the connection is stalled.
  const stallCheck = setInterval(() => {
    if (!socket.connected) return;
    const now = Date.now();
    for (const state of channels.values()) {
      if (state.joined && state.interval && now - state.lastHeard > state.interval + stallGraceMs) {
        socket.disconnect();
        socket.connect();
        return;
      }
    }
  }, 500);
  (stallCheck as { unref?: () => void }).unref?.();

  function subscribe(name: string, watcher: Watcher): () => void {
    let state = channels.get(name);
    if (!state) {
      state = { watchers: new Set(), seq: undefined, joined: false, resuming: false, position: undefined, lastHeard: Date.now(), interval: undefined };
      channels.set(name, state);
      state.watchers.add(watcher);
      if (socket.connected) join(name, state);
    } else {
      state.watchers.add(watcher);
      if (state.joined) watcher.resync();
    }
    const mine = state;
    return () => {
      mine.watchers.delete(watcher);
      if (mine.watchers.size === 0 && channels.get(name) === mine) {
        channels.delete(name);
        if (socket.connected) socket.emit("leave", { channel: name });
      }
    };
  }

  /**
   * A REST read that runs one at a time per watcher: asked again while one is under way, it runs once more after
   * it (the answer under way may predate the change that asked). Failures retry with a doubling delay.
   */
  function reader(read: () => Promise<void>, onError: (e: unknown) => void) {
    let running = false;
    let again = false;
    let stopped = false;
    let delay = retryMinMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      clearTimeout(timer);
      try {
        do {
          again = false;
          await read();
        } while (again && !stopped);
        delay = retryMinMs;
      } catch (err) {
        if (!stopped) {
          onError(err);
          timer = setTimeout(run, delay);
          delay = Math.min(delay * 2, retryMaxMs);
        }
      } finally {
        running = false;
      }
    };
    return { run, stop: () => ((stopped = true), clearTimeout(timer)) };
  }

  function makeWatch<T>(): { watch: Watch<T>; deliver: (value: T) => void; onStop: (fn: () => void) => void } {
    let current: T | undefined;
    let resolveReady!: (v: T) => void;
    const ready = new Promise<T>((r) => (resolveReady = r));
    const stops: (() => void)[] = [];
    return {
      watch: {
        current: () => current,
        ready,
        stop: () => {
          for (const f of stops) f();
        },
      },
      deliver: (v) => ((current = v), resolveReady(v)),
      onStop: (fn) => stops.push(fn),
    };
  }

  /**
   * The book of one outcome: `onBook` gets every newer book, never an older one after it. A signal for this
   * outcome that carries the book is applied as it is; one without (or for several outcomes, or a resync) is read
   * over REST.
   */
  function watchBook(
    target: { slug: string; outcomeId: string },
    onBook: (book: OrderBook, info: BookInfo) => void,
    watchOptions: WatchOptions = {},
  ): Watch<OrderBook> {
    const latest = new Latest<OrderBook>();
    const { watch, deliver, onStop } = makeWatch<OrderBook>();
    const offer = (book: OrderBook, info: BookInfo, ticket: number, stale = false) => {
      if (latest.offer(book, { ticket, version: info.version, stale })) deliver(book), onBook(book, info);
    };
    const read = reader(
      async () => {
        const ticket = latest.tick();
        const { data, response } = await api.withResponse.getOrderBookBySlug({ path: { slug: target.slug }, query: { outcomeId: target.outcomeId } });
        const version = headerNumber(response, "book-version");
        offer(data, { source: "fetch", version, checksum: headerNumber(response, "book-checksum") }, ticket, isStale(response));
        // A stale answer stands in only until the database is back: read again (with the reader's backoff).
        if (isStale(response)) throw new Error("the book was served stale (database away); reading again");
      },
      (e) => watchOptions.onError?.(e),
    );
    const unsubscribe = subscribe(`market:${target.slug}:orderbook`, {
      signal: (s, gap) => {
        if (s.outcomeId === target.outcomeId && s.book) {
          offer(s.book as OrderBook, { source: "signal", version: s.version, checksum: s.checksum }, latest.tick());
        } else if (gap || s.outcomeId === null || s.outcomeId === target.outcomeId) {
          void read.run();
        }
      },
      heartbeat: (hb, missed) => {
        if (missed || latest.behind(hb.versions?.[target.outcomeId])) void read.run();
      },
      resync: () => void read.run(),
      error: (e) => watchOptions.onError?.(e),
    });
    onStop(unsubscribe);
    onStop(read.stop);
    return watch;
  }

  /**
   * The price history of one outcome (`query`: fidelity, startTs, endTs as GET …/prices-history takes them), read
   * again on each price signal for it, for several outcomes or for a resync.
   */
  function watchPrices(
    target: { slug: string; outcomeId: string; query?: { fidelity?: number; startTs?: number; endTs?: number } },
    onHistory: (history: PriceHistory) => void,
    watchOptions: WatchOptions = {},
  ): Watch<PriceHistory> {
    const latest = new Latest<PriceHistory>();
    const { watch, deliver, onStop } = makeWatch<PriceHistory>();
    const read = reader(
      async () => {
        const ticket = latest.tick();
        const { data, response } = await api.withResponse.getPriceHistoryBySlug({
          path: { slug: target.slug },
          query: { ...target.query, outcomeId: target.outcomeId },
        });
        if (latest.offer(data, { ticket, stale: isStale(response) })) deliver(data), onHistory(data);
        if (isStale(response)) throw new Error("the history was served stale (database away); reading again");
      },
      (e) => watchOptions.onError?.(e),
    );
    const unsubscribe = subscribe(`market:${target.slug}:price`, {
      signal: (s, gap) => {
        if (gap || s.outcomeId === null || s.outcomeId === target.outcomeId) void read.run();
      },
      heartbeat: (_hb, missed) => missed && void read.run(),
      resync: () => void read.run(),
      error: (e) => watchOptions.onError?.(e),
    });
    onStop(unsubscribe);
    onStop(read.stop);
    return watch;
  }

  /**
   * The newest `limit` trades of a market (or of one outcome), newest first. A trades signal that continues the
   * chain (its `after` is the previous signal's `cursor`) is applied as it comes; `more` is read with `after`;
   * a signal without trades (a correction or deletion), a broken chain, a gap or a reconnect read the newest
   * trades again, and what came since the last one held is read with `after`.
   */
  function watchTrades(
    target: { slug: string; outcomeId?: string; limit?: number },
    onTrades: (trades: Trade[], info: TradesInfo) => void,
    watchOptions: WatchOptions = {},
  ): Watch<Trade[]> {
    const limit = Math.min(100, Math.max(1, target.limit ?? 50));
    const { watch, deliver, onStop } = makeWatch<Trade[]>();
    let tape: Trade[] | undefined;
    let newest: string | null = null; // newest_cursor of what is held (this outcome's, when filtered)
    let chain: string | null | undefined; // the `cursor` of the channel's last trades signal applied
    let queue = Promise.resolve();
    let stopped = false;
    const mine = (t: Trade) => !target.outcomeId || t.outcome_id === target.outcomeId;
    const query = (extra: { after?: string }) => ({ path: { slug: target.slug }, query: { limit, outcomeId: target.outcomeId, ...extra } });

    const publish = (added: Trade[], reset: boolean) => {
      if (!tape || (!added.length && !reset)) return;
      deliver(tape);
      onTrades(tape, { added, reset });
    };
    const prepend = (fresh: Trade[]) => {
      const held = new Set((tape ?? []).map((t) => t.id));
      const added = fresh.filter((t) => mine(t) && !held.has(t.id));
      tape = [...added, ...(tape ?? [])].slice(0, limit);
      return added;
    };
    /** What came after the newest trade held, page by page (each page newest first). */
    const catchUp = async (added: Trade[]) => {
      let after = newest;
      while (after) {
        const page = await api.listTradesBySlug(query({ after }));
        added.unshift(...prepend(page.trades));
        if (page.newest_cursor) newest = page.newest_cursor;
        after = page.next_cursor;
      }
      if (!newest) return reload();
      publish(added, false);
    };
    const reload = async () => {
      const page = await api.listTradesBySlug(query({}));
      tape = page.trades;
      newest = page.newest_cursor;
      publish(tape, true);
    };
    const enqueue = (step: () => Promise<void>) => {
      queue = queue.then(async () => {
        for (let delay = retryMinMs; !stopped; delay = Math.min(delay * 2, retryMaxMs)) {
          try {
            return await step();
          } catch (err) {
            watchOptions.onError?.(err);
            await new Promise((r) => setTimeout(r, delay));
          }
        }
      });
    };

    const unsubscribe = subscribe(`market:${target.slug}:trades`, {
      signal: (s, gap) => {
        const carried = Array.isArray(s.trades) ? (s.trades as Trade[]) : null;
        if (!gap && carried && chain !== undefined && s.after === chain) {
          // The chain holds: everything up to `after` is held, the signal has what follows, up to `cursor`.
          chain = s.cursor ?? null;
          enqueue(async () => {
            if (!tape) return reload();
            const added = prepend(carried);
            if (s.cursor) newest = s.cursor; // a position: every trade up to it is held (ours, when filtered)
            if (s.more) return catchUp(added);
            publish(added, false);
          });
          return;
        }
        chain = carried ? (s.cursor ?? null) : undefined;
        // Trades without the chain: catch up from what is held. No trades (a correction or deletion) or a gap: read again.
        enqueue(() => (carried && !gap && tape ? catchUp([]) : reload()));
      },
      heartbeat: (_hb, missed) => {
        if (missed) (chain = undefined), enqueue(reload);
      },
      resync: () => {
        chain = undefined;
        enqueue(reload);
      },
      error: (e) => watchOptions.onError?.(e),
    });
    onStop(unsubscribe);
    onStop(() => (stopped = true));
    return watch;
  }

  return {
    socket,
    status: () => status,
    watchBook,
    watchPrices,
    watchTrades,
    /** Stops every watch and closes the connection. */
    close: () => {
      closed = true;
      clearInterval(stallCheck);
      channels.clear();
      socket.disconnect();
    },
  };
}

export type Live = ReturnType<typeof createLive>;
