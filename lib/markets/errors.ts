// What the data layer reports when a request names something that is not there. lib/markets knows
// nothing of HTTP: lib/api/errors.ts maps these to the spec's statuses and bodies.

// Each error states its errorName, so that the HTTP layer recognises it (isErrorOf, lib/process-state.ts)
// even when it was thrown in another Next bundle: a load of the shared response cache begun by a page, joined by a route.
export class DomainError extends Error {}

/** No market has this id or slug (also for a malformed one). */
export class MarketNotFound extends DomainError {
  static readonly errorName = "MarketNotFound";
  constructor(readonly key: string) {
    super(`Market not found: ${key}`);
    this.name = MarketNotFound.errorName;
  }
}

/** The outcome id is unknown or malformed. */
export class OutcomeNotFound extends DomainError {
  static readonly errorName = "OutcomeNotFound";
  constructor() {
    super("Outcome not found");
    this.name = OutcomeNotFound.errorName;
  }
}

/** The outcome exists but belongs to another market. */
export class OutcomeMismatch extends DomainError {
  static readonly errorName = "OutcomeMismatch";
  constructor() {
    super("Outcome does not belong to this market");
    this.name = OutcomeMismatch.errorName;
  }
}

/** A tape cursor (before/after) that no answer of ours could have given: the request's fault, a 400. */
export class InvalidCursor extends DomainError {
  static readonly errorName = "InvalidCursor";
  constructor(readonly param: string) {
    super(`${param} is not a valid cursor`);
    this.name = InvalidCursor.errorName;
  }
}

/** The market a read found, or MarketNotFound for the id or slug it was asked for. */
export function marketOrNotFound<T>(market: T | null, key: string): T {
  if (market === null) throw new MarketNotFound(key);
  return market;
}

/** The record of past books cannot say what was asked: before it began, past its retention, or in a gap (a 404). */
export class BookNotRecorded extends DomainError {
  static readonly errorName = "BookNotRecorded";
  constructor(what: string) {
    super(what);
    this.name = BookNotRecorded.errorName;
  }
}
