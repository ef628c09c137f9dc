// Which answer about one thing (a book, a history) may still be handed to the caller: never one older than what
// was handed over already. Pure, so its rules are unit-tested apart from sockets and HTTP.
//
// Without versions the order of events decides: every signal and every request start takes the next ticket; a
// signal's data is newer than anything before it, and a REST answer is as new as the moment its request was sent,
// so it is dropped when anything was delivered after that moment (a later signal, or a later request's answer);
// whatever change it might have held beyond that gets a signal of its own. With versions (the book's Book-Version
// header, a signal's `version`), which grow with every change and are the same on every instance, they decide:
// a version is delivered only above the one delivered, whatever the order of arrival.

export interface Offer {
  /** From `tick()` when the signal arrived, or from `begin()` when the request was sent. */
  ticket: number;
  /** The data's version, when the server sends one. */
  version?: number;
  /** A stale answer (served from an invalidated cache entry while the database was away): only while nothing else is held. */
  stale?: boolean;
}

export class Latest<T> {
  private counter = 0;
  private deliveredTicket = -1;
  private deliveredVersion: number | undefined;
  private held: T | undefined;
  private holding = false;

  /** A ticket for a signal that just arrived or a request about to be sent. */
  tick(): number {
    return ++this.counter;
  }

  get current(): T | undefined {
    return this.held;
  }

  get version(): number | undefined {
    return this.deliveredVersion;
  }

  /** Whether `value` is newer than what was delivered; if so it becomes the delivered value. */
  offer(value: T, { ticket, version, stale = false }: Offer): boolean {
    if (stale && this.holding) return false;
    if (this.holding) {
      if (version !== undefined && this.deliveredVersion !== undefined) {
        if (version <= this.deliveredVersion) return false;
      } else if (ticket <= this.deliveredTicket) {
        return false;
      }
    }
    this.held = value;
    this.holding = true;
    // A stale value yields to anything fresh, whenever its request was sent.
    this.deliveredTicket = stale ? -1 : Math.max(ticket, this.deliveredTicket);
    if (version !== undefined) this.deliveredVersion = version;
    return true;
  }

  /** A version heard of (a heartbeat's `versions`): true when it is above the delivered one (refetch). */
  behind(version: number | undefined): boolean {
    return version !== undefined && this.deliveredVersion !== undefined && version > this.deliveredVersion;
  }
}
