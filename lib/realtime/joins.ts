// The join protocol of the push channels (docs/api.md "Push channels"): `join` and `leave` take `{channel}`
// and always ack. A request is validated, rate limited per socket, and a join needs the market to exist
// (asked through a slug cache, so a flood of joins for made-up markets barely reaches the database).
import { MAX_CHANNELS_PER_SOCKET, parseStreamChannel, type Ack, type StreamChannel } from "./channels";
import { channelRequest } from "./schemas";
import { createTokenBucket } from "../http/token-bucket";

/** The part of a Socket.IO socket the protocol uses. */
export interface JoiningSocket {
  /** The rooms the socket is in, its own id among them (Socket.IO puts every socket in a room of its own). */
  readonly rooms: Set<string>;
  join: (room: string) => unknown;
  leave: (room: string) => unknown;
  on: (event: string, listener: (...args: unknown[]) => void) => unknown;
  /** Sends the socket an event of its own (a resumed channel's missed events). */
  emit?: (event: string, ...args: unknown[]) => unknown;
}

export interface JoinOptions {
  /** Whether a market has this slug. */
  marketExists: (slug: string) => Promise<boolean>;
  /**
   * A join with `since`: sends the socket the channel's events after that position (or a reset), and
   * resolves once the live signals take over, with the ack (docs/api.md "Positions"). Absent: `since` is ignored.
   */
  resume?: (socket: JoiningSocket, channel: string, since: number) => Promise<Ack>;
  maxChannels?: number;
  /** Join/leave requests per socket: a bucket of `burst`, refilled at `ratePerS`. */
  burst?: number;
  ratePerS?: number;
  log?: (message: string) => void;
}

const MALFORMED: Ack = { ok: false, error: "Malformed channel" };

/** The channel a request names (with the position to resume from), or null when it is not a well-formed one. */
function channelOf(payload: unknown): (StreamChannel & { since?: number }) | null {
  const req = channelRequest.safeParse(payload);
  if (!req.success) return null;
  const ch = parseStreamChannel(req.data.channel);
  return ch && { ...ch, since: req.data.since };
}

export function createJoinProtocol({ marketExists, resume, maxChannels = MAX_CHANNELS_PER_SOCKET, burst = 200, ratePerS = 100, log = () => {} }: JoinOptions) {
  const join = async (socket: JoiningSocket, payload: unknown): Promise<Ack> => {
    const ch = channelOf(payload);
    if (!ch) return MALFORMED;
    if (socket.rooms.has(ch.name)) return { ok: true };
    if (socket.rooms.size - 1 >= maxChannels) {
      return { ok: false, error: `Too many channels: a socket may join at most ${maxChannels}` };
    }
    if (ch.slug !== null && !(await marketExists(ch.slug))) return { ok: false, error: `Unknown market: ${ch.slug}` };
    if (ch.since !== undefined && resume) return resume(socket, ch.name, ch.since);
    socket.join(ch.name);
    return { ok: true };
  };

  const leave = async (socket: JoiningSocket, payload: unknown): Promise<Ack> => {
    const ch = channelOf(payload);
    if (!ch) return MALFORMED;
    socket.leave(ch.name);
    return { ok: true };
  };

  /** Serves `join` and `leave` on one socket. */
  const attach = (socket: JoiningSocket) => {
    // One request at a time per socket (a flood queues behind itself, holding at most one database
    // connection), and a token bucket so that it cannot queue without bound.
    let queue = Promise.resolve();
    const bucket = createTokenBucket({ burst, ratePerS });
    const handle =
      (op: typeof join) =>
      (...args: unknown[]) => {
        // socket.emit("join", cb) hands the callback as the only argument; a missing one is fine.
        const last = args.at(-1);
        const ack = typeof last === "function" ? (last as (a: Ack) => void) : () => {};
        const payload = typeof args[0] === "function" ? undefined : args[0];
        const reply = (a: Ack) => {
          try {
            ack(a);
          } catch {
            /* the client went away */
          }
        };
        if (!bucket.take()) return reply({ ok: false, error: "Too many requests: slow down" });
        queue = queue.then(() =>
          op(socket, payload).then(reply, (err) => {
            log(`${op.name} failed: ${(err as Error).message}`);
            reply({ ok: false, error: "Internal error" });
          }),
        );
      };
    socket.on("join", handle(join));
    socket.on("leave", handle(leave));
  };

  return { join, leave, attach };
}
