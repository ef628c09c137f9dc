// The trades of the venues profile (lib/seed/venues.ts plans them, one plan row per outcome) and the rows
// they derive, generated in Node in COPY's binary format: the trades, their candles of the three widths,
// the markets' top traders, and each market's volume and rolling 24 h volume. Each comes out final, as the row triggers
// would leave it and as rebuild_row_derived() (migrations 0005, 0009) would rebuild it from the trades
// (lib/seed/venues-seed.test.ts compares both): a seed never reads its ~43M trades back to aggregate them.
// Pure and deterministic: a plan's trades are a function of the plan row alone, walked in time order.
import { BinaryCopy, uuidBytes } from "../db/copy-binary";
import { hash32 } from "./prng";
import type { TradePlan } from "./venues";

/**
 * Trades come in bursts (news, a close): this many a burst, a trade every BURST_GAP_MS or so. A market
 * of tens of trades then fills a few minutes rather than one minute per trade, which is what sizes
 * its candles (three widths, one row each per minute, hour and day that saw a trade).
 */
const BURST = 8;
const BURST_GAP_MS = 20_000;

/** A uniform in [0, 1) from a trade's row number and a key of its plan. */
const uniform = (g: number, key: number, salt: number) => hash32(g, key, salt) / 4294967296;

const LN_MIN_SHARES = Math.log(500);
const LN_SHARES_SPAN = Math.log(250_000) - LN_MIN_SHARES;

/** One trade: its price in thousandths and shares in hundredths, so sums of them stay exact integers. */
export interface VenueTrade {
  /** Row number in the plan: ids (tradeIdHead) and times rise with it. */
  g: number;
  /** Unix ms. */
  at: number;
  price: number;
  shares: number;
  /** Trader indexes (userId): native markets only. */
  maker: number | null;
  taker: number | null;
}

/**
 * The first 10 bytes of a plan's trade ids (table salt, market index and uuid version: idPrefix; the
 * variant and outcome index k): the trade of row g is these and g in 48 bits, a uuid unique in the data set.
 */
const tradeIdHead = (p: TradePlan) => Buffer.from(`${p.idPrefix}8${p.k.toString(16).padStart(3, "0")}`, "hex");

/**
 * Every trade of a plan row, in time order (times never fall as the row number rises; ids rise with it,
 * so the order is (time, id) as candles take it): uuids unique across the data set, the last trade
 * exactly at the window's end and at the outcome's last price (a binary market's NO side: 1000 − YES at
 * the same times), share sizes log-uniform in 5 … 2,500 as the demo seed draws them, traders skewed
 * towards a few heavy users as the demo seed picks them (`users`: how many there are). One object is
 * yielded for every trade: the caller copies what it keeps. Without `traders` no trade names its
 * traders (the candles do not need them).
 */
export function* planTrades(p: TradePlan, users: number, { traders = true } = {}): Generator<VenueTrade> {
  const slot = (p.to - p.from) / Math.ceil(p.n / BURST);
  const gap = Math.min(BURST * BURST_GAP_MS, slot / 2);
  const t: VenueTrade = { g: 0, at: 0, price: 0, shares: 0, maker: null, taker: null };
  for (let g = 0; g < p.n; g++) {
    const last = g === p.n - 1;
    const f = (g + 1) / p.n;
    let q = p.end;
    if (!last) {
      const swing = p.amp * Math.sin(2 * Math.PI * p.cycles * f + p.phase) + 40 * (uniform(g, p.keyM, 2) - 0.5);
      q = Math.min(995, Math.max(5, Math.round(p.start + (p.end - p.start) * f + (1 - f) * swing)));
    }
    // Bursts of BURST trades, one burst in each of ceil(n / BURST) equal slots of the window, at a hashed
    // point of its first half, a trade every BURST_GAP_MS or so (closer when the slots are shorter).
    const burst = Math.floor(g / BURST);
    t.at = last
      ? p.to
      : Math.min(p.to - 1, Math.floor(p.from + (burst + 0.5 * uniform(burst, p.keyM, 6)) * slot + (((g % BURST) + uniform(g, p.keyM, 1)) / BURST) * gap));
    t.g = g;
    t.price = p.mirror ? 1000 - q : q;
    t.shares = Math.round(Math.exp(LN_MIN_SHARES + LN_SHARES_SPAN * uniform(g, p.keyO, 3)));
    if (p.native && traders) {
      const maker = Math.floor(uniform(g, p.keyO, 4) ** 2.5 * users);
      const taker = Math.floor(uniform(g, p.keyO, 5) ** 2.5 * users);
      t.maker = maker;
      t.taker = taker === maker ? (taker + 1) % users : taker;
    } else {
      t.maker = t.taker = null;
    }
    yield t;
  }
}

// ------------------------------------------------------------------------------ COPY, binary

/** The trades' columns, in the order tradeCopy writes them. */
export const TRADE_COLUMNS = ["id", "market_id", "outcome_id", "price", "shares", "maker_user_id", "taker_user_id", "executed_at"];
/** The candles' columns (migration 0009), in the order candleCopy writes them. */
export const CANDLE_COLUMNS = [
  "outcome_id",
  "width",
  "bucket",
  "open",
  "high",
  "low",
  "close",
  "first_at",
  "first_id",
  "last_at",
  "last_id",
  "volume",
  "notional",
  "trades",
];
/** The top traders' columns (migration 0005), in the order traderCopy writes them. */
export const TRADER_COLUMNS = ["market_id", "user_id", "volume", "trades"];

// Prices are thousandths, shares hundredths, price × shares 1e-5; in SQL they are numeric(4,3),
// numeric(30,6) and their products and sums of scale 9 (3 + 6), which the unconstrained numerics of the
// candles and top traders keep: written with those scales, they read back as the rebuild writes them.
const PRICE = 3;
const SHARES = 2;
const SHARES_SCALE = 6;
const NOTIONAL = 5;
const NOTIONAL_SCALE = 9;

/** What a chunk's trades add up to, filled in while tradeCopy walks them. */
export interface TradeTotals {
  /** Per market: Σ price × shares (1e-5), and of the trades after `since`. */
  volume: Map<string, { all: number; recent: number }>;
  /** Per native market, per trader index: Σ price × shares (1e-5) and trades, maker and taker each once. */
  traders: Map<string, Map<number, { volume: number; trades: number }>>;
}

/**
 * The binary COPY of the plans' trades (TRADE_COLUMNS), ~256 kB at a time, adding up `totals` as it goes:
 * `since` (unix ms) starts the rolling 24 h volume (docs/api.md "Sorting"), `users` holds trader k's id (uuidBytes).
 */
export function* tradeCopy(plans: readonly TradePlan[], users: readonly Buffer[], since: number, totals: TradeTotals): Generator<Buffer> {
  const c = new BinaryCopy();
  for (const p of plans) {
    let volume = totals.volume.get(p.marketId);
    if (!volume) totals.volume.set(p.marketId, (volume = { all: 0, recent: 0 }));
    let traders = totals.traders.get(p.marketId);
    if (p.native && !traders) totals.traders.set(p.marketId, (traders = new Map()));
    const head = tradeIdHead(p);
    const market = uuidBytes(p.marketId);
    const outcome = uuidBytes(p.outcomeId);
    for (const t of planTrades(p, users.length)) {
      const v = t.price * t.shares;
      volume.all += v;
      if (t.at > since) volume.recent += v;
      c.row(8).uuidWith(head, t.g).uuid(market).uuid(outcome).numeric(t.price, PRICE).numeric(t.shares, SHARES, SHARES_SCALE);
      if (t.maker === null || t.taker === null) c.null().null();
      else {
        c.uuid(users[t.maker]).uuid(users[t.taker]);
        if (traders)
          for (const k of [t.maker, t.taker]) {
            const s = traders.get(k);
            if (s) {
              s.volume += v;
              s.trades++;
            } else traders.set(k, { volume: v, trades: 1 });
          }
      }
      c.timestamptz(t.at);
      if (c.ready) yield c.take();
    }
  }
  yield c.end();
}

/** The binary COPY of the top traders tradeCopy added up (TRADER_COLUMNS). */
export function* traderCopy(totals: TradeTotals, users: readonly Buffer[]): Generator<Buffer> {
  const c = new BinaryCopy();
  for (const [market, traders] of totals.traders) {
    const id = uuidBytes(market);
    for (const [k, s] of traders) {
      c.row(4).uuid(id).uuid(users[k]).numeric(s.volume, NOTIONAL, NOTIONAL_SCALE).int4(s.trades);
      if (c.ready) yield c.take();
    }
  }
  yield c.end();
}

/** Candle widths (s). */
const WIDTHS = [60, 3600, 86400] as const;

/** One candle being filled: the trades of one outcome in one bucket, in (time, id) order; ids by row number. */
interface Candle {
  bucket: number;
  open: number;
  high: number;
  low: number;
  close: number;
  firstAt: number;
  firstG: number;
  lastAt: number;
  lastG: number;
  volume: number;
  notional: number;
  trades: number;
}

/**
 * The binary COPY of the plans' candles (CANDLE_COLUMNS), one row per outcome, width and bucket (UTC
 * minutes, hours and days from the epoch, as date_bin) that saw a trade: open and close the first and
 * last trade by (time, id), as rebuild_candles() (migration 0009) takes them. Walks the trades again
 * rather than keeping them: a plan's trades cost far less to generate than to hold.
 */
export function* candleCopy(plans: readonly TradePlan[], users: number): Generator<Buffer> {
  const c = new BinaryCopy();
  for (const p of plans) {
    const head = tradeIdHead(p);
    const outcome = uuidBytes(p.outcomeId);
    const write = (width: number, k: Candle) =>
      c
        .row(14)
        .uuid(outcome)
        .int4(width)
        .timestamptz(k.bucket)
        .numeric(k.open, PRICE)
        .numeric(k.high, PRICE)
        .numeric(k.low, PRICE)
        .numeric(k.close, PRICE)
        .timestamptz(k.firstAt)
        .uuidWith(head, k.firstG)
        .timestamptz(k.lastAt)
        .uuidWith(head, k.lastG)
        .numeric(k.volume, SHARES, SHARES_SCALE)
        .numeric(k.notional, NOTIONAL, NOTIONAL_SCALE)
        .int4(k.trades);
    const open: Candle[] = [];
    for (const t of planTrades(p, users, { traders: false })) {
      for (let w = 0; w < WIDTHS.length; w++) {
        const bucket = t.at - (t.at % (WIDTHS[w] * 1000));
        const k = open[w];
        if (k && k.bucket === bucket) {
          if (t.price > k.high) k.high = t.price;
          if (t.price < k.low) k.low = t.price;
          k.close = t.price;
          k.lastAt = t.at;
          k.lastG = t.g;
          k.volume += t.shares;
          k.notional += t.price * t.shares;
          k.trades++;
          continue;
        }
        if (k) write(WIDTHS[w], k);
        open[w] = {
          bucket,
          open: t.price,
          high: t.price,
          low: t.price,
          close: t.price,
          firstAt: t.at,
          firstG: t.g,
          lastAt: t.at,
          lastG: t.g,
          volume: t.shares,
          notional: t.price * t.shares,
          trades: 1,
        };
      }
      if (c.ready) yield c.take();
    }
    for (let w = 0; w < open.length; w++) write(WIDTHS[w], open[w]);
    if (c.ready) yield c.take();
  }
  yield c.end();
}
