// The ingest pipeline (npm run ingest, docs/ingest.md): lines → parsed events (bad ones reported) →
// lanes by market → batches closed by size or age → each lane's writer, one transaction per batch. Counts
// what it did for the progress line and the benchmark.
//
// Lanes (docs/ingest.md "Lanes"): the lines of one market (the market itself, its orders and trades) always
// go to the same lane, so lanes write disjoint markets, outcomes, books and candles and commit side by side;
// a user line goes to every lane, ahead of the lines after it there, so a lane never meets a user it has not
// written (the first lane to commit it creates it, the others change nothing). Each lane keeps the stream's
// order of its own lines, and the rules of order make the result independent of how lanes interleave.
import type { Sql } from "../db/client";
import { Batcher } from "./batcher";
import { parseLine } from "./schemas";
import { IngestWriter, type Line, type Rejection } from "./writer";

export interface IngestOptions {
  /** Lines per batch at most (default 1,000). */
  batchSize?: number;
  /** Writers side by side, each on its own markets (default 1). */
  lanes?: number;
  /** A batch closes this long after its first line arrived (ms, default 50). */
  batchWaitMs?: number;
  /** Each bad line, as it is found. */
  onRejected?: (r: Rejection) => void;
  /** After each batch commits: the lines it held, and arrival → commit of its oldest line (ms). */
  onBatch?: (lines: number, lagMs: number) => void;
}

export interface IngestStats {
  lines: number;
  blank: number;
  rejected: number;
  accepted: number;
  orders: number;
  trades: number;
  markets: number;
  users: number;
  batches: number;
  commits: number;
  /** Σ over batches of the markets each one touched. */
  touched: number;
  /** Lines of each kind accepted. */
  kinds: Record<"user" | "market" | "order" | "trade", number>;
}

export class Ingest {
  readonly stats: IngestStats = {
    lines: 0,
    blank: 0,
    rejected: 0,
    accepted: 0,
    orders: 0,
    trades: 0,
    markets: 0,
    users: 0,
    batches: 0,
    commits: 0,
    touched: 0,
    kinds: { user: 0, market: 0, order: 0, trade: 0 },
  };
  private lanes: Batcher<Line>[];

  constructor(
    sql: Sql,
    private opts: IngestOptions = {},
  ) {
    this.lanes = Array.from({ length: Math.max(1, opts.lanes ?? 1) }, () => {
      const writer = new IngestWriter(sql);
      return new Batcher<Line>({
        maxSize: opts.batchSize ?? 1000,
        maxWaitMs: opts.batchWaitMs ?? 50,
        write: async (lines) => {
          const out = await writer.write(lines);
          const s = this.stats;
          s.batches++;
          s.commits += out.commits;
          s.orders += out.orders;
          s.trades += out.trades;
          s.markets += out.markets;
          s.users += out.users;
          s.touched += out.touched;
          // A user line's copies in the other lanes are counted and reported by its first lane only.
          const copies = new Set(lines.filter((l) => l.copy).map((l) => l.n));
          const bad = new Set(out.rejected.map((r) => r.line));
          for (const l of lines) {
            if (l.copy || bad.has(l.n)) continue;
            s.kinds[l.event.kind]++;
            s.accepted++;
          }
          for (const r of out.rejected) if (!copies.has(r.line)) this.reject(r);
          this.opts.onBatch?.(lines.length, Date.now() - Math.min(...lines.map((l) => l.readAt)));
        },
      });
    });
  }

  /** Lines read and not yet committed. */
  get backlog(): number {
    return this.lanes.reduce((n, b) => n + b.backlog, 0);
  }

  /** The lane of a market's lines: a hash of its id. */
  private laneOf(marketId: string): number {
    return Number.parseInt(marketId.slice(-8), 16) % this.lanes.length || 0;
  }

  private reject(r: Rejection) {
    this.stats.rejected++;
    this.opts.onRejected?.(r);
  }

  /** One line of the stream (numbered from 1 in arrival order); resolves when there is room for the next. */
  async push(text: string): Promise<void> {
    const n = ++this.stats.lines;
    if (!text.trim()) {
      this.stats.blank++;
      return;
    }
    const parsed = parseLine(text);
    if (!parsed.ok) return this.reject({ line: n, error: parsed.error });
    const e = parsed.event;
    const readAt = Date.now();
    if (e.kind === "user") {
      let room = true;
      for (const [i, lane] of this.lanes.entries()) room = lane.push({ n, event: e, readAt, copy: i > 0 || undefined }) && room;
      if (!room) await Promise.all(this.lanes.map((l) => l.room()));
      return;
    }
    const lane = this.lanes[this.laneOf(e.kind === "market" ? e.row.id : e.row.market_id)];
    if (!lane.push({ n, event: e, readAt })) await lane.room();
  }

  /** Writes everything pushed so far. */
  async flush(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.flush()));
  }

  /** Reads a whole source (ends with it), then writes what is left. */
  async consume(lines: AsyncIterable<string>): Promise<IngestStats> {
    for await (const line of lines) await this.push(line);
    await this.flush();
    return this.stats;
  }
}
