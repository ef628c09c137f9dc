// Groups a stream of items into batches closed by size or by age, and hands them to one writer at a
// time, in order: while a batch is written the next one fills, so a slow commit makes the next batch
// bigger (up to `maxSize`) rather than the queue longer. Pure scheduling: no database, no I/O.
export interface BatcherOptions<T> {
  /** A batch closes when it holds this many items… */
  maxSize: number;
  /** …or when its first item has waited this long (ms). */
  maxWaitMs: number;
  /** Items waiting (open batch included) above which `push` asks the producer to wait (`room()`). */
  highWater?: number;
  write: (items: T[]) => Promise<void>;
}

export class Batcher<T> {
  private open: T[] = [];
  private queued: T[][] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | null = null;
  private roomWaiters: (() => void)[] = [];
  private failure: unknown = null;
  private highWater: number;

  constructor(private opts: BatcherOptions<T>) {
    this.highWater = opts.highWater ?? opts.maxSize * 4;
  }

  /** Items read but not yet handed to the writer or still being written. */
  get backlog(): number {
    return this.open.length + this.queued.reduce((n, b) => n + b.length, 0) + this.inFlight;
  }
  private inFlight = 0;

  /** Adds an item; false when the backlog is over the high-water mark (then await `room()`). */
  push(item: T): boolean {
    if (this.failure) throw this.failure;
    this.open.push(item);
    if (this.open.length >= this.opts.maxSize) this.close();
    else if (this.open.length === 1) this.timer = setTimeout(() => this.close(), this.opts.maxWaitMs);
    return this.backlog < this.highWater;
  }

  /** Resolves when the backlog is under the high-water mark again. */
  room(): Promise<void> {
    if (this.backlog < this.highWater || this.failure) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Closes the open batch and waits until everything pushed so far is written. */
  async flush(): Promise<void> {
    this.close();
    while (this.writing) await this.writing;
    if (this.failure) throw this.failure;
  }

  private close() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.open.length) return;
    // A writer busy for longer than a batch fills: the open batch keeps growing up to maxSize.
    this.queued.push(this.open);
    this.open = [];
    if (!this.writing) this.writing = this.drain();
  }

  private async drain() {
    try {
      while (this.queued.length && !this.failure) {
        // Consecutive small batches that piled up while the writer was busy go as one, up to maxSize.
        const batch = this.queued.shift()!;
        while (this.queued.length && batch.length + this.queued[0].length <= this.opts.maxSize) batch.push(...this.queued.shift()!);
        this.inFlight = batch.length;
        try {
          await this.opts.write(batch);
        } catch (err) {
          this.failure = err;
        }
        this.inFlight = 0;
        this.wake();
      }
    } finally {
      this.writing = null;
      this.wake();
    }
  }

  private wake() {
    if (this.backlog >= this.highWater && !this.failure) return;
    for (const w of this.roomWaiters.splice(0)) w();
  }
}
