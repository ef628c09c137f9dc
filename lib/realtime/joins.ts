// The join protocol of the push channels (docs/api.md "Push channels"): `join` and `leave` take `{channel}`
// and always ack. A request is validated, rate limited per socket, and a join needs the market to exist
// (asked through a slug cache, so a flood of joins for made-up markets barely reaches the database).
import { MAX_CHANNELS_PER_SOCKET, parseChannel, type Ack, type Channel } from "./channels";
import { channelRequest } from "./schemas";
import { createTokenBucket } from "../http/token-bucket";

/** The part of a Socket.IO socket the protocol uses. */
export interface JoiningSocket {
  /** The rooms the socket is in, its own id among them (Socket.IO puts every socket in a room of its own). */
  readonly rooms: Set<string>;
  join: (room: string) => unknown;
  leave: (room: string) => unknown;
  on: (event: string, listener: (...args: unknown[]) => void) => unknown;
}

export interface JoinOptions {
  /** Whether a market has this slug. */
  marketExists: (slug: string) => Promise<boolean>;
  maxChannels?: number;
  /** Join/leave requests per socket: a bucket of `burst`, refilled at `ratePerS`. */
  burst?: number;
  ratePerS?: number;
  log?: (message: string) => void;
}

const MALFORMED: Ack = { ok: false, error: "Malformed channel" };

/** The channel a request names, or null when it is not a well-formed one. */
function channelOf(payload: unknown): (Channel & { name: string }) | null {
  const req = channelRequest.safeParse(payload);
  if (!req.success) return null;
  const ch = parseChannel(req.data.channel);
  return ch && { ...ch, name: req.data.channel };
}

export function createJoinProtocol({ marketExists, maxChannels = MAX_CHANNELS_PER_SOCKET, burst = 200, ratePerS = 100, log = () => {} }: JoinOptions) {
  const join = async (socket: JoiningSocket, payload: unknown): Promise<Ack> => {
    const ch = channelOf(payload);
    if (!ch) return MALFORMED;
    if (socket.rooms.has(ch.name)) return { ok: true };
    if (socket.rooms.size - 1 >= maxChannels) {
      return { ok: false, error: `Too many channels: a socket may join at most ${maxChannels}` };
    }
    if (!(await marketExists(ch.slug))) return { ok: false, error: `Unknown market: ${ch.slug}` };
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
