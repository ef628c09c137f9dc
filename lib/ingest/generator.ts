// A venue's stream in the ingest format (docs/ingest.md#generator), for the benchmark and the tests:
// first its traders and markets, then order-book changes (orders placed, filled, cancelled) and trades at
// about `ratio` book changes per trade (a trade's own, its maker's fill, counted), concentrated on hot
// markets (market k of n is picked with weight 1/(k+1)^1.1, so the top 1 % take about half the activity),
// with now and then a new market, a market's prices moved (a field change) or a resolution. A resolved
// market hands its rank to a new market, as a venue's next game or election takes the last one's traders:
// the activity stays as concentrated in the tenth minute as in the first. The same seed and start give
// the same lines.
import { CATALOGUE, marketDescription } from "../seed/content";
import { hash32, labelHash, Rng } from "../seed/prng";
import { formatEvent } from "./schemas";

export interface VenueOptions {
  seed?: number;
  markets?: number;
  /** Book changes (order events) per trade, about. */
  ratio?: number;
  /** Event time of the first event (ms); each next one is 1/rate s later. */
  start?: number;
  /** Events per second of event time. */
  rate?: number;
}

interface Order {
  id: string;
  market_id: string;
  outcome_id: string;
  user_id: string;
  side: "BUY" | "SELL";
  type: "LIMIT";
  price: string;
  shares: string;
  filled_shares: string;
  status: "OPEN" | "PARTIALLY_FILLED" | "FILLED" | "CANCELLED";
  created_at: string;
  updated_at: string;
}

interface Outcome {
  id: string;
  mid: number; // thousandths
  resting: Order[];
}

interface Market {
  row: Record<string, unknown> & { id: string; status: string; outcomes: Record<string, unknown>[] };
  outcomes: Outcome[];
}

const MAX_RESTING = 60;
const CATEGORIES = ["CRYPTO", "SPORTS", "POLITICS", "ENTERTAINMENT", "SCIENCE", "FINANCE", "OTHER"] as const;

/**
 * A market's question, description and sub-category as the seed writes them (lib/seed/generate.ts: about 60 and
 * 400 characters), from a stream of its own so that the events stay the same: what a venue's catalogue costs
 * its trigram indexes and announcements, not a one-line placeholder's.
 */
function marketText(r: Rng, category: (typeof CATEGORIES)[number], ends: number) {
  const subCategory = r.pick(Object.keys(CATALOGUE[category]));
  const spec = r.pick(CATALOGUE[category][subCategory])(r, new Date(ends));
  return { question: spec.question, description: marketDescription(spec, ends), subCategory };
}

export class VenueStream {
  private rng: Rng;
  private users: string[] = [];
  /** The markets open to trading, by rank (a resolved one's rank holds its successor). */
  private markets: Market[] = [];
  /** Markets created so far (their slugs' numbers). */
  private created = 0;
  /** Cumulative weights of the markets by rank, for a heavy-tailed pick. */
  private cumulative: number[] = [];
  private i = 0;
  private pending: string[] = [];
  readonly ratio: number;
  readonly rate: number;
  readonly start: number;
  private seed: number;

  constructor(opts: VenueOptions = {}) {
    this.seed = opts.seed ?? 1;
    this.rng = new Rng(this.seed);
    this.ratio = opts.ratio ?? 20;
    this.rate = opts.rate ?? 1000;
    this.start = opts.start ?? Math.floor(Date.now() / 1000) * 1000;
  }

  private uuid(): string {
    const h = [this.rng.u32(), this.rng.u32(), this.rng.u32(), this.rng.u32()].map((x) => x.toString(16).padStart(8, "0")).join("");
    const variant = ((Number.parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** Event time with microseconds: at thousands of events a second, two states of one order share a millisecond. */
  private now(): string {
    const us = Math.floor((this.i * 1_000_000) / this.rate);
    const ms = this.start + Math.floor(us / 1000);
    return `${new Date(ms).toISOString().slice(0, -1)}${String(us % 1000).padStart(3, "0")}Z`;
  }

  /** The venue's traders and markets, as lines: the stream's first lines. */
  *preamble(markets: number): Generator<string> {
    const users = Math.max(50, Math.min(5000, Math.round(markets / 4)));
    for (let k = 0; k < users; k++) {
      const id = this.uuid();
      this.users.push(id);
      yield formatEvent("user", { id, username: `venue-${this.seed}-trader-${k + 1}`, profile_image_url: null });
    }
    for (let k = 0; k < markets; k++) yield this.newMarket();
  }

  /** A new market, at the next rank (the tail) or at `rank`, whose market it replaces in the draw. */
  private newMarket(rank?: number): string {
    const id = this.uuid();
    const n = this.created++;
    const multi = this.rng.chance(0.1);
    const count = multi ? this.rng.int(3, 5) : 2;
    const at = this.now();
    const outcomes: Outcome[] = [];
    const rows: Record<string, unknown>[] = [];
    for (let k = 0; k < count; k++) {
      const o: Outcome = { id: this.uuid(), mid: multi ? this.rng.int(20, 400) : this.rng.int(80, 920), resting: [] };
      outcomes.push(o);
      rows.push({
        id: o.id,
        name: multi ? `Option ${String.fromCharCode(65 + k)}` : k === 0 ? "Yes" : "No",
        side: !multi && k === 1 ? "NO" : "YES",
        index: k,
        probability: (o.mid / 10).toFixed(2),
        description: null,
        image_url: null,
        color: null,
        question_id: null,
        condition_id: null,
        position_id: null,
        payout_wei: null,
      });
    }
    const category = CATEGORIES[n % CATEGORIES.length];
    const ends = Date.parse(at) + 30 * 86_400_000;
    const text = marketText(new Rng(hash32(this.seed, labelHash("text"), n)), category, ends);
    const row = {
      id,
      slug: `venue-${this.seed}-market-${n + 1}`,
      question: `${text.question} (${this.seed}-${n + 1})`,
      description: text.description,
      category,
      sub_category: text.subCategory,
      type: multi ? "MULTI" : "BINARY",
      status: "ACTIVE",
      trading_starts_at: at,
      trading_ends_at: new Date(ends).toISOString(),
      resolution_date: null,
      winning_outcome_id: null,
      resolved_at: null,
      settled_at: null,
      resolved_by: null,
      resolution_source: null,
      resolution_note: null,
      platform_fee: "0.02",
      spread: 2,
      total_volume: "0",
      image_url: "/images/markets/generated.png",
      tags: ["generated"],
      created_at: at,
      updated_at: at,
      outcomes: rows,
    };
    if (rank !== undefined) this.markets[rank] = { row, outcomes };
    else {
      const k = this.markets.length;
      this.markets.push({ row, outcomes });
      this.cumulative.push((this.cumulative[k - 1] ?? 0) + 1 / (k + 1) ** 1.1);
    }
    return formatEvent("market", row);
  }

  /** The rank of a market drawn by its weight. */
  private pickRank(): number {
    const x = this.rng.next() * this.cumulative[this.cumulative.length - 1];
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The next line of the stream (after the preamble). */
  next(): string {
    if (this.pending.length) return this.pending.shift()!;
    this.i++;
    const roll = this.rng.next();
    if (roll < 0.0002) return this.newMarket();
    const rank = this.pickRank();
    const m = this.markets[rank];
    if (roll < 0.0003) {
      // The resolution, then its successor at its rank.
      this.pending.push(this.newMarket(rank));
      return this.resolve(m);
    }
    if (roll < 0.001) return this.reprice(m);
    const o = this.rng.pick(m.outcomes);
    // Every event carries one book change, a trade too (its maker's fill): one in `ratio` is a trade.
    if (this.rng.chance(1 / this.ratio)) {
      const lines = this.trade(m, o);
      if (lines) {
        this.pending.push(...lines.slice(1));
        return lines[0];
      }
    }
    if (o.resting.length >= MAX_RESTING || (o.resting.length > 0 && this.rng.chance(0.4))) return this.cancel(o);
    return this.place(m, o);
  }

  private place(m: Market, o: Outcome): string {
    const side = this.rng.chance(0.5) ? "BUY" : "SELL";
    const offset = 1 + Math.floor(-Math.log(1 - this.rng.next()) * 12);
    const price = Math.min(999, Math.max(1, side === "BUY" ? o.mid - offset : o.mid + offset));
    const at = this.now();
    const order: Order = {
      id: this.uuid(),
      market_id: m.row.id,
      outcome_id: o.id,
      user_id: this.rng.pick(this.users),
      side,
      type: "LIMIT",
      price: (price / 1000).toFixed(3),
      shares: (Math.round(Math.exp(this.rng.range(0, 7)) * 100) / 100 + 1).toFixed(2),
      filled_shares: "0",
      status: "OPEN",
      created_at: at,
      updated_at: at,
    };
    o.resting.push(order);
    return formatEvent("order", order);
  }

  private cancel(o: Outcome): string {
    const k = Math.floor(this.rng.next() * o.resting.length);
    const [order] = o.resting.splice(k, 1);
    order.status = "CANCELLED";
    order.updated_at = this.now();
    return formatEvent("order", order);
  }

  /** A taker meets the best resting order of one side (of the other if that one is empty): the maker's new state and the trade. */
  private trade(m: Market, o: Outcome): string[] | null {
    const first = this.rng.chance(0.5) ? "BUY" : "SELL";
    let best: Order | null = null;
    for (const makerSide of [first, first === "BUY" ? "SELL" : "BUY"]) {
      for (const r of o.resting) if (r.side === makerSide && (!best || (makerSide === "BUY" ? r.price > best.price : r.price < best.price))) best = r;
      if (best) break;
    }
    if (!best) return null;
    const left = Math.round((Number(best.shares) - Number(best.filled_shares)) * 100);
    const fill = Math.max(1, Math.min(left, Math.round(this.rng.range(0.1, 1.2) * left)));
    const at = this.now();
    const filled = Math.round(Number(best.filled_shares) * 100) + fill;
    best.filled_shares = (filled / 100).toFixed(2);
    best.status = filled >= Math.round(Number(best.shares) * 100) ? "FILLED" : "PARTIALLY_FILLED";
    best.updated_at = at;
    if (best.status === "FILLED") o.resting.splice(o.resting.indexOf(best), 1);
    o.mid = Math.round(Number(best.price) * 1000);
    let taker = this.rng.pick(this.users);
    if (taker === best.user_id) taker = this.users[(this.users.indexOf(taker) + 1) % this.users.length];
    const trade = {
      id: this.uuid(),
      market_id: m.row.id,
      outcome_id: o.id,
      price: best.price,
      shares: (fill / 100).toFixed(2),
      maker_user_id: best.user_id,
      taker_user_id: taker,
      executed_at: at,
    };
    return [formatEvent("order", best), formatEvent("trade", trade)];
  }

  /** The market's outcome prices moved to their mids: a change of its fields. */
  private reprice(m: Market): string {
    for (const [k, o] of m.outcomes.entries()) m.row.outcomes[k].probability = (o.mid / 10).toFixed(2);
    m.row.updated_at = this.now();
    return formatEvent("market", m.row);
  }

  private resolve(m: Market): string {
    const at = this.now();
    const winner = m.outcomes.reduce((a, b) => (b.mid > a.mid ? b : a));
    Object.assign(m.row, { status: "RESOLVED", winning_outcome_id: winner.id, resolved_at: at, resolved_by: "venue", updated_at: at });
    // Its resting orders stay as they are: the venue cancels them with their own events, if it does.
    return formatEvent("market", m.row);
  }
}
