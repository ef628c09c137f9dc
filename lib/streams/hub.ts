// The stream hub of one instance (docs/api.md "Push channels"): numbered changes in, in position order;
// out, each channel's events to the streams that follow it (SSE, Socket.IO), with their data read once.
// A stream may start from a position: it first gets what it missed, from the recent changes kept here
// or from change_log, then the live ones, none twice and none out of order. Older than the retention
// window: a reset.
import type { MarketEvent } from "@/lib/events/market-events";
import { type ResolvedEvent, resolveEvent } from "./resolve";
import { type StreamEvent, type StreamReset, streamEventsOf } from "./stream-events";

export interface ChangeSource {
  /** Changes numbered after `after`, in position order, at most `limit`; null when `after` is older than the horizon. */
  readChanges: (after: number, limit: number) => Promise<MarketEvent[] | null>;
  /** Positions up to `horizon` were dropped by retention; `head` is the newest number given. */
  bounds: () => Promise<{ horizon: number; head: number }>;
}

export interface ResetInfo {
  reason: "retention" | "unknown" | "flush" | "bulk";
  /** Carry on from here once refetched. */
  position: number;
  horizon: number;
}

/** One stream's end of the hub. Its callbacks are called in position order. */
export interface StreamSink {
  /** The events of one position on the channels followed, in order. */
  send: (events: ResolvedEvent[]) => void;
  reset: (info: ResetInfo) => void;
  /** Everything missed has been sent: what comes now is live. */
  live?: () => void;
}

export interface Subscription {
  close: () => void;
  /** The position this stream has been sent everything up to (what its heartbeats name). */
  position: () => number;
}

export interface HubOptions {
  source: ChangeSource;
  /** Changes kept for resumes without a database read (the simulator numbers about 10 a second: half an hour of them). */
  keep?: number;
  /** Of those, the newest this many keep their data, read once for every resume. */
  keepResolved?: number;
  /** Reads an event's data (default: ./resolve.ts). */
  resolve?: (event: StreamEvent) => Promise<ResolvedEvent>;
  log?: (message: string) => void;
}

interface Kept {
  position: number;
  events: StreamEvent[];
  resolved?: Promise<ResolvedEvent[]>;
}

interface Sub {
  channels: Set<string>;
  sink: StreamSink;
  sent: number;
  /** Live events held while the stream catches up. */
  held: Array<{ position: number; events: ResolvedEvent[] } | { position: number; reset: StreamReset }> | null;
  closed: boolean;
}

const PAGE = 1000;

/** A resume read change_log past what retention keeps (a trim moved the horizon during the resume). */
class BeforeHorizon extends Error {}

export function createStreamHub({ source, keep = 20_000, keepResolved = 2_000, resolve = resolveEvent, log = () => {} }: HubOptions) {
  /** The newest position this instance has taken in. */
  let position = 0;
  /** Every live stream has been sent everything up to here. */
  let delivered = 0;
  /** Every change after `floor` is in `kept` (older ones are read from change_log). */
  let floor = 0;
  let started = false;
  const kept: Kept[] = [];
  let keptStart = 0; // index of the oldest kept change (an array used as a queue)
  const byChannel = new Map<string, Set<Sub>>();
  const subs = new Set<Sub>();
  let tail: Promise<void> = Promise.resolve();
  let catchingUp: Promise<void> | null = null;

  const interested = (events: StreamEvent[]) => events.some((e) => byChannel.has(e.channel));
  const resolveAll = (k: Kept) => (k.resolved ??= Promise.all(k.events.map(resolve)));

  const remember = (k: Kept) => {
    kept.push(k);
    const n = kept.length - keptStart;
    if (n > keepResolved) delete kept[kept.length - 1 - keepResolved].resolved;
    if (n > keep) {
      floor = kept[keptStart].position;
      keptStart++;
      if (keptStart > 4096 && keptStart * 2 > kept.length) kept.splice(0, keptStart), (keptStart = 0);
    }
  };

  const deliver = (sub: Sub, pos: number, events: ResolvedEvent[]) => {
    if (sub.closed || pos <= sub.sent) return;
    sub.sent = pos;
    if (events.length) sub.sink.send(events);
  };
  const resetSub = (sub: Sub, r: StreamReset) => {
    if (sub.closed || r.position <= sub.sent) return;
    sub.sent = r.position;
    sub.sink.reset({ reason: r.reason, position: r.position, horizon: 0 });
  };

  /** One numbered change, in position order: read its data (at once, if anybody follows it) and send it in order. */
  const take = (change: MarketEvent) => {
    const p = change.position;
    if (p === undefined || p <= position) return;
    position = p;
    if (!started) (started = true), (floor = p - 1);
    const { events, reset } = streamEventsOf(change);
    const k: Kept = { position: p, events };
    remember(k);
    if (reset) {
      tail = tail.then(() => {
        for (const sub of subs) {
          if (reset.scope === "markets" && !sub.channels.has("markets")) continue;
          if (sub.held) sub.held.push({ position: p, reset });
          else resetSub(sub, reset);
        }
        delivered = p;
      });
      return;
    }
    if (!events.length || !interested(events)) {
      tail = tail.then(() => void (delivered = p));
      return;
    }
    const ready = resolveAll(k);
    tail = Promise.all([tail, ready]).then(([, resolved]) => {
      const to = new Set<Sub>();
      for (const e of events) for (const sub of byChannel.get(e.channel) ?? []) to.add(sub);
      for (const sub of to) {
        const mine = resolved.filter((r) => sub.channels.has(r.event.channel));
        if (sub.held) sub.held.push({ position: p, events: mine });
        else deliver(sub, p, mine);
      }
      delivered = p;
    });
  };

  /**
   * Changes heard while the hub reads change_log (at start, after the LISTEN connection was lost) wait
   * here, so that what is read and what is heard go out in position order.
   */
  let waiting: MarketEvent[] | null = [];
  const input = (change: MarketEvent) => (waiting ? waiting.push(change) : take(change));

  /** Reads what was numbered after the newest position taken in, then what was heard meanwhile. */
  const catchUp = () =>
    (catchingUp ??= (async () => {
      waiting ??= [];
      try {
        for (;;) {
          const page = await source.readChanges(position, PAGE);
          if (!page) {
            // Away longer than the retention window: what is live from now on is all this instance can send.
            log(`caught up past the retention window from ${position}: changes were dropped before they were heard`);
            break;
          }
          for (const c of page) take(c);
          if (page.length < PAGE) break;
        }
      } catch (err) {
        log(`catching up from change_log failed: ${(err as Error).message}`);
      } finally {
        const heard = waiting ?? [];
        waiting = null;
        for (const c of heard) take(c);
        catchingUp = null;
      }
    })());

  /** Starts from the newest committed position (the change stream is already listening: what comes after is heard). */
  const start = async () => {
    const { head } = await source.bounds();
    position = floor = delivered = head;
    started = true;
    const heard = waiting ?? [];
    waiting = null;
    for (const c of heard) take(c);
  };

  /** The changes after `since` on `channels`, up to `until`, with their data, in order. */
  async function* missed(channels: Set<string>, since: number, until: number): AsyncGenerator<{ position: number; events: ResolvedEvent[] }> {
    let after = since;
    // Older than what is kept here: from change_log, a page at a time.
    while (after < floor && after < until) {
      const page = await source.readChanges(after, PAGE);
      if (!page) throw new BeforeHorizon();
      if (!page.length) break;
      for (const c of page) {
        const p = c.position ?? 0;
        if (p > until || p > floor) break;
        after = p;
        const events = streamEventsOf(c).events.filter((e) => channels.has(e.channel));
        if (events.length) yield { position: p, events: await Promise.all(events.map(resolve)) };
      }
      if (page.length < PAGE) break;
    }
    for (let i = keptStart; i < kept.length; i++) {
      const k = kept[i];
      if (k.position <= after || k.position > until) continue;
      if (!k.events.some((e) => channels.has(e.channel))) continue;
      const resolved = await resolveAll(k);
      yield { position: k.position, events: resolved.filter((r) => channels.has(r.event.channel)) };
    }
  }

  return {
    /** The newest position taken in. */
    position: () => position,
    /** Feeds the hub: every numbered change, in order (the change stream's subscriber). */
    input,
    /** After the LISTEN connection was lost: reads what was committed meanwhile. */
    catchUp,
    start,

    /**
     * Follows `channels` from `since` (exclusive; absent: from now). The sink hears what was missed, then
     * the live events; or a reset when `since` is older than the retention window or newer than any position.
     */
    subscribe(channels: readonly string[], since: number | undefined, sink: StreamSink): Subscription {
      const sub: Sub = { channels: new Set(channels), sink, sent: position, held: since === undefined ? null : [], closed: false };
      subs.add(sub);
      for (const c of sub.channels) {
        let set = byChannel.get(c);
        if (!set) byChannel.set(c, (set = new Set()));
        set.add(sub);
      }
      if (since !== undefined) {
        const until = position;
        void (async () => {
          try {
            if (since < until) {
              // What is kept here needs no database: a resume from inside it works while the database is away.
              const horizon = since >= floor ? 0 : (await source.bounds()).horizon;
              if (since < horizon) {
                sub.sent = until;
                sink.reset({ reason: "retention", position: until, horizon });
              } else {
                sub.sent = since;
                for await (const m of missed(sub.channels, since, until)) {
                  if (sub.closed) return;
                  deliver(sub, m.position, m.events);
                }
                sub.sent = Math.max(sub.sent, until);
              }
            } else if (since > until) {
              const { head, horizon } = await source.bounds();
              if (since > head) {
                sub.sent = until;
                sink.reset({ reason: "unknown", position: until, horizon });
              } else sub.sent = since; // another instance heard it first: what is after it comes here too
            }
          } catch (err) {
            if (!(err instanceof BeforeHorizon)) log(`resume from ${since} failed: ${(err as Error).message}`);
            sub.sent = until;
            sink.reset({ reason: err instanceof BeforeHorizon ? "retention" : "unknown", position: until, horizon: 0 });
          }
          const held = sub.held ?? [];
          sub.held = null;
          for (const h of held) {
            if ("reset" in h) resetSub(sub, h.reset);
            else deliver(sub, h.position, h.events);
          }
          if (!sub.closed) sink.live?.();
        })();
      } else queueMicrotask(() => sub.closed || sink.live?.());
      return {
        close: () => {
          sub.closed = true;
          subs.delete(sub);
          for (const c of sub.channels) {
            const set = byChannel.get(c);
            set?.delete(sub);
            if (set?.size === 0) byChannel.delete(c);
          }
        },
        position: () => (sub.held ? sub.sent : Math.max(sub.sent, delivered)),
      };
    },

    /** How many streams follow the hub now. */
    size: () => subs.size,
  };
}

export type StreamHub = ReturnType<typeof createStreamHub>;
