// The signal emitter of the push channels: what goes out to a channel's room when its market changes.
// At most one signal per channel per `coalesceMs` (the last change always gets one), a seq per channel,
// and the data a signal carries (an outcome's book, a tape's new trades), read once for every watcher.
import type { ChannelKind } from "@/lib/events/channel-kinds";
import type { Heartbeat, Signal } from "./channels";
import { createThrottle, type Timers } from "./throttle";

/** What a change asks of one channel. `outcomeId` null: several outcomes, the market, or a resync. */
export interface Change {
  kind: ChannelKind;
  slug: string;
  outcomeId: string | null;
  /** Trades were corrected or deleted (not only added): what a trades signal carries cannot say so, watchers refetch. */
  edit?: boolean;
  /** The change's position (docs/api.md "Positions"); folded changes keep the newest. */
  position?: number;
}

export interface EmitterOptions {
  coalesceMs: number;
  /** How many sockets are in a channel's room now (0: nobody to signal, nothing is read or sent). */
  watchers: (channel: string) => number;
  /** Sends one signal to every socket in the channel's room, as event `kind`. */
  send: (channel: string, kind: ChannelKind, signal: Signal) => void;
  /**
   * What a signal of a kind carries so that its watchers need not refetch (fields merged into the signal);
   * null or a failure: the signal goes without, and its watchers refetch.
   */
  carry?: Partial<Record<ChannelKind, Carrier>>;
  /**
   * Every joined channel gets a `heartbeat` at least this often (0: never), carrying its last seq, so
   * that a client can tell a quiet channel from a stalled connection or a lost last signal.
   */
  heartbeatMs?: number;
  /** The channels with at least one watcher (heartbeats go to each). */
  channels?: () => Iterable<string>;
  /** Sends a heartbeat to a channel's room. */
  sendHeartbeat?: (channel: string, heartbeat: Heartbeat) => void;
  /**
   * Fields a channel's heartbeat also carries (a book channel's versions), read when it is due; null or a
   * failure: the heartbeat goes without them. Its seq is the channel's at the moment it is sent.
   */
  heartbeatExtra?: (channel: string) => Promise<object> | null;
  now?: () => number;
  timers?: Timers;
}

/** A carrier's answer when there is nothing to tell: the signal is not sent at all. */
export const SKIP = Symbol("skip");

/** Reads the data one signal carries, once for every watcher of `channel`: fields, null (refetch) or SKIP. */
export type Carrier = (channel: string, change: Change) => Promise<object | null | typeof SKIP> | null;

export interface SignalEmitter {
  /** A change to `channel` (`market:{slug}:{kind}`); ignored while nobody watches it. */
  push: (channel: string, change: Change) => void;
  /** A room emptied: its seq starts again at 1 when someone joins. */
  forget: (channel: string) => void;
  close: () => void;
}

export function createSignalEmitter(options: EmitterOptions): SignalEmitter {
  const { watchers, send, carry = {}, now = Date.now } = options;
  const seqs = new Map<string, number>();

  // `at` is when the throttle let the signal go, even if reading its book delayed the emit.
  const emit = (channel: string, { kind, slug, outcomeId, position }: Change, at: number, extra: object = {}) => {
    if (!watchers(channel)) return;
    const seq = (seqs.get(channel) ?? 0) + 1;
    seqs.set(channel, seq);
    lastSent.set(channel, now());
    send(channel, kind, { channel, slug, outcomeId, at, seq, ...(position === undefined ? {} : { position }), ...extra });
  };

  // The signals of one channel keep their order while the data of one of them is being read.
  const sending = new Map<string, Promise<void>>();
  const release = (channel: string, change: Change) => {
    if (!watchers(channel)) return;
    const at = now();
    const carrier = carry[change.kind];
    const before = sending.get(channel);
    if (!carrier && !before) return emit(channel, change, at);
    const next = (before ?? Promise.resolve())
      .then(async () => (carrier ? await carrier(channel, change) : null))
      .catch(() => null)
      .then((data) => {
        if (data !== SKIP) emit(channel, change, at, data ?? {});
      });
    sending.set(channel, next);
    void next.finally(() => sending.get(channel) === next && sending.delete(channel));
  };

  // Changes folded together name their outcome only when they all concern the same one.
  const throttle = createThrottle<Change>(options.coalesceMs, release, {
    merge: (a, b) => ({
      ...b,
      outcomeId: a.outcomeId === b.outcomeId ? b.outcomeId : null,
      edit: a.edit || b.edit,
      position: Math.max(a.position ?? 0, b.position ?? 0) || undefined,
    }),
    timers: options.timers,
  });

  // Heartbeats: one timer for all channels. A channel that had a signal within the interval is skipped,
  // so a busy channel costs nothing extra and a quiet one hears from us every `heartbeatMs`.
  const lastSent = new Map<string, number>();
  const { heartbeatMs = 0, channels, sendHeartbeat, heartbeatExtra } = options;
  let beat: ReturnType<typeof setInterval> | undefined;
  if (heartbeatMs > 0 && channels && sendHeartbeat) {
    // Half the interval: a channel whose last message went out just after a tick still hears within it.
    beat = setInterval(() => {
      const t = now();
      for (const channel of channels()) {
        if (t - (lastSent.get(channel) ?? 0) < heartbeatMs / 2) continue;
        lastSent.set(channel, t);
        const extra = heartbeatExtra?.(channel);
        if (!extra) {
          sendHeartbeat(channel, { channel, seq: seqs.get(channel) ?? 0, at: t, interval: heartbeatMs });
          continue;
        }
        // Behind the channel's signals still being read, so that a heartbeat never overtakes one.
        const next = (sending.get(channel) ?? Promise.resolve())
          .then(() => extra)
          .catch(() => ({}))
          .then((fields) => {
            if (watchers(channel)) sendHeartbeat(channel, { channel, seq: seqs.get(channel) ?? 0, at: t, interval: heartbeatMs, ...fields });
          });
        sending.set(channel, next);
        void next.finally(() => sending.get(channel) === next && sending.delete(channel));
      }
    }, heartbeatMs / 2);
    beat.unref?.();
  }

  return {
    push: (channel, change) => {
      if (watchers(channel)) throttle.push(channel, change);
    },
    forget: (channel) => {
      seqs.delete(channel);
      lastSent.delete(channel);
    },
    close: () => {
      clearInterval(beat);
      throttle.close();
    },
  };
}
