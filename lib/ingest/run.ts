// The ingest pipeline (npm run ingest, docs/ingest.md): lines → parsed events (bad ones reported) →
// batches closed by size or age → the writer, one transaction per batch. Counts what it did for the
// progress line and the benchmark.
import type { Sql } from "../db/client";
import { Batcher } from "./batcher";
import { parseLine } from "./schemas";
import { IngestWriter, type Line, type Rejection } from "./writer";

export interface IngestOptions {
  /** Lines per batch at most (default 1,000). */
  batchSize?: number;
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
    kinds: { user: 0, market: 0, order: 0, trade: 0 },
  };
  private batcher: Batcher<Line>;
  private writer: IngestWriter;

  constructor(
    sql: Sql,
    private opts: IngestOptions = {},
  ) {
    this.writer = new IngestWriter(sql);
    this.batcher = new Batcher<Line>({
      maxSize: opts.batchSize ?? 1000,
      maxWaitMs: opts.batchWaitMs ?? 50,
      write: async (lines) => {
        const out = await this.writer.write(lines);
        const s = this.stats;
        s.batches++;
        s.commits += out.commits;
        s.accepted += out.accepted;
        s.orders += out.orders;
        s.trades += out.trades;
        s.markets += out.markets;
        s.users += out.users;
        const bad = new Set(out.rejected.map((r) => r.line));
        for (const l of lines) if (!bad.has(l.n)) s.kinds[l.event.kind]++;
        for (const r of out.rejected) this.reject(r);
        this.opts.onBatch?.(lines.length, Date.now() - Math.min(...lines.map((l) => l.readAt)));
      },
    });
  }

  /** Lines read and not yet committed. */
  get backlog(): number {
    return this.batcher.backlog;
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
    if (!this.batcher.push({ n, event: parsed.event, readAt: Date.now() })) await this.batcher.room();
  }

  /** Writes everything pushed so far. */
  flush(): Promise<void> {
    return this.batcher.flush();
  }

  /** Reads a whole source (ends with it), then writes what is left. */
  async consume(lines: AsyncIterable<string>): Promise<IngestStats> {
    for await (const line of lines) await this.push(line);
    await this.flush();
    return this.stats;
  }
}
