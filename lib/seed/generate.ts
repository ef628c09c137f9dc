// Pure, deterministic demo-data generator: every user, market and child row is a function of
// (seed, index, now), so writers can stream tables one at a time and regenerate what they need.
import { CATEGORIES, type Category, type MarketStatus } from "../markets/schemas";
import { ADJECTIVES, CATALOGUE, MULTI_COLORS, NOUNS, RESOLVERS, VENUES, commentText, marketDescription } from "./content";
import { Rng, hash32, labelHash, seededUuid, seededUuidAfter, seededUuidPrefix } from "./prng";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const ONE_WEI = 10n ** 18n;

export interface SeedOptions {
  seed: number;
  markets: number;
  tradesPerOutcome: number;
  users: number;
  /** Reference time (ms); everything is placed relative to it. */
  now: number;
  /** How often each status is drawn (relative weights); the demo's mix unless a profile sets its own. */
  statusWeights: readonly (readonly [MarketStatus, number])[];
  /** The share of markets mirrored from a venue (the rest are native). */
  mirroredShare: number;
}

export interface SeedContext extends SeedOptions {
  salts: Record<"user" | "market" | "outcome" | "comment" | "order" | "trade", number>;
}

export function seedContext(o: Partial<SeedOptions> = {}): SeedContext {
  const seed = o.seed ?? 42;
  const markets = o.markets ?? 400;
  const ctx = {
    seed,
    markets,
    tradesPerOutcome: o.tradesPerOutcome ?? 200,
    users: o.users ?? Math.max(300, Math.min(20_000, Math.round(markets * 0.2))),
    now: o.now ?? Math.floor(Date.now() / 60_000) * 60_000,
    statusWeights: o.statusWeights ?? STATUS_WEIGHTS,
    mirroredShare: o.mirroredShare ?? 0.1,
  };
  const salt = (t: string) => hash32(seed, labelHash(t));
  return {
    ...ctx,
    salts: { user: salt("user"), market: salt("market"), outcome: salt("outcome"), comment: salt("comment"), order: salt("order"), trade: salt("trade") },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

// ------------------------------------------------------------------------------------ users

export interface UserRow {
  id: string;
  username: string;
  profile_image_url: string | null;
  created_at: string;
}

export const AVATAR_COUNT = 12;
const COMBOS = ADJECTIVES.length * NOUNS.length;

export function generateUser(ctx: SeedContext, i: number): UserRow {
  const r = new Rng(hash32(ctx.seed, labelHash("user"), i));
  // A seed-dependent permutation of the adjective×noun grid (affine map, coprime step) keeps names unique.
  const step = 1 + 2 * (ctx.salts.user % 400); // odd, and COMBOS = 1600 = 2^6·25, so also avoid multiples of 5
  const k = ((i % COMBOS) * (step % 5 === 0 ? step + 2 : step) + ctx.salts.user) % COMBOS;
  const adj = ADJECTIVES[Math.floor(k / NOUNS.length)];
  const noun = NOUNS[k % NOUNS.length];
  const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
  const style = hash32(ctx.seed, i) % 3;
  const base = style === 0 ? `${adj}_${noun}` : style === 1 ? `${cap(adj)}${cap(noun)}` : `${adj}.${noun}`;
  const round = Math.floor(i / COMBOS);
  return {
    id: seededUuid(ctx.salts.user, 0, i),
    username: round ? `${base}${round + 1}` : base,
    profile_image_url: r.chance(0.85) ? `/avatars/avatar-${1 + (i % AVATAR_COUNT)}.svg` : null,
    created_at: iso(ctx.now - r.range(30, 400) * DAY),
  };
}

const userIdCache = new WeakMap<SeedContext, string[]>();
/** Id of user i; cached per context because trades and orders look them up millions of times. */
export function userId(ctx: SeedContext, i: number): string {
  let ids = userIdCache.get(ctx);
  if (!ids) userIdCache.set(ctx, (ids = Array.from({ length: ctx.users }, (_, k) => seededUuid(ctx.salts.user, 0, k))));
  return ids[i];
}

/** A trader index skewed towards a few heavy users, so top traders emerge. */
function traderIndex(ctx: SeedContext, r: Rng): number {
  return Math.floor(r.next() ** 2.5 * ctx.users);
}

// ------------------------------------------------------------------------------------ markets

export interface OutcomeRow {
  id: string;
  market_id: string;
  name: string;
  side: "YES" | "NO";
  index: number;
  probability: string;
  description: string | null;
  image_url: string | null;
  color: string | null;
  question_id: string | null;
  condition_id: string | null;
  position_id: string | null;
  payout_wei: string | null;
  created_at: string;
  updated_at: string;
  /** Last trade price in thousandths (generator-internal). */
  lastPrice: number;
}

export interface MarketRow {
  index: number;
  id: string;
  slug: string;
  question: string;
  description: string;
  category: Category;
  sub_category: string;
  type: "BINARY" | "MULTI";
  status: MarketStatus;
  trading_starts_at: string;
  trading_ends_at: string;
  resolution_date: string | null;
  winning_outcome_id: string | null;
  resolved_at: string | null;
  settled_at: string | null;
  resolved_by: string | null;
  resolution_source: string | null;
  resolution_note: string | null;
  platform_fee: string;
  spread: number;
  total_volume: string;
  image_url: string;
  external_source: string | null;
  external_market_id: string | null;
  tags: string[];
  views: number;
  verified: boolean;
  featured: boolean;
  creator_id: string | null;
  price_market: Record<string, unknown> | null;
  predict_market: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  outcomes: OutcomeRow[];
  /** Generator-internal: the window in which the market traded (ms). */
  tradeFrom: number;
  tradeTo: number;
  hot: number;
}

const STATUS_WEIGHTS: [MarketStatus, number][] = [
  ["ACTIVE", 62],
  ["RESOLVED", 16],
  ["CANCELLED", 8],
  ["LOCKED", 7],
  ["PENDING", 7],
];

function slugify(s: string, max = 60): string {
  const base = s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (base.length <= max) return base;
  const cut = base.slice(0, max);
  return cut.slice(0, cut.lastIndexOf("-") > 20 ? cut.lastIndexOf("-") : max).replace(/-+$/, "");
}

const hex = (r: Rng, n: number) => {
  let s = "";
  while (s.length < n) s += r.u32().toString(16).padStart(8, "0");
  return s.slice(0, n);
};
const digits = (r: Rng, n: number) => {
  let s = String(r.int(1, 9));
  while (s.length < n) s += String(r.u32() % 1_000_000_000).padStart(9, "0");
  return s.slice(0, n);
};

/** Splits `total` into integer parts proportional to weights (largest remainder), each >= min. */
function splitInt(total: number, weights: number[], min = 0): number[] {
  const free = total - min * weights.length;
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (w / sum) * free);
  const parts = raw.map((x) => Math.floor(x));
  let rest = free - parts.reduce((a, b) => a + b, 0);
  const order = raw.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; rest > 0; k = (k + 1) % order.length, rest--) parts[order[k][1]]++;
  return parts.map((p) => p + min);
}

/** Everything about market i that comes before its question: the main stream continues from here. */
function marketFrame(ctx: SeedContext, i: number) {
  const r = new Rng(hash32(ctx.seed, labelHash("market"), i));
  const now = ctx.now;
  // Round-robin over categories keeps every category well stocked.
  const category = CATEGORIES[(i + (ctx.seed % CATEGORIES.length)) % CATEGORIES.length];
  const status = r.weighted(ctx.statusWeights);
  const mirrored = r.chance(ctx.mirroredShare);

  let created: number, starts: number, ends: number;
  let resolvedAt: number | null = null,
    settledAt: number | null = null;
  switch (status) {
    case "ACTIVE": {
      created = now - r.range(3, 150) * DAY;
      starts = created + r.range(0, 6) * HOUR;
      const horizon = r.weighted([
        ["hours", 10],
        ["days", 35],
        ["months", 55],
      ] as const);
      ends = now + (horizon === "hours" ? r.range(1, 23) * HOUR : horizon === "days" ? r.range(1, 14) * DAY : r.range(15, 240) * DAY);
      break;
    }
    case "PENDING":
      created = now - r.range(0.5, 10) * DAY;
      starts = now + r.range(0.25, 14) * DAY;
      ends = starts + r.range(7, 120) * DAY;
      break;
    case "LOCKED":
      created = now - r.range(20, 150) * DAY;
      starts = created + r.range(0, 6) * HOUR;
      ends = now - r.range(1, 96) * HOUR;
      break;
    default: // RESOLVED, CANCELLED
      created = now - r.range(40, 220) * DAY;
      starts = created + r.range(0, 6) * HOUR;
      ends = Math.min(now - r.range(1, 35) * DAY, starts + r.range(10, 150) * DAY);
      if (status === "RESOLVED") {
        resolvedAt = ends + r.range(1, 48) * HOUR;
        settledAt = resolvedAt + r.range(0.2, 6) * HOUR;
      } else {
        settledAt = ends + r.range(1, 72) * HOUR;
      }
  }
  created = Math.floor(created / 1000) * 1000;
  starts = Math.floor(starts / 1000) * 1000;
  ends = Math.ceil(ends / 60_000) * 60_000;

  return { r, now, category, status, mirrored, created, starts, ends, resolvedAt, settledAt };
}

/** Market i's status alone (a cheap pass: no question, no outcomes). */
export function marketStatus(ctx: SeedContext, i: number): MarketStatus {
  return marketFrame(ctx, i).status;
}

/** Attempt `attempt` at market i's sub-category and question, from a stream of its own. */
function questionFor(ctx: SeedContext, i: number, category: Category, ends: number, attempt: number) {
  const r = new Rng(hash32(ctx.seed, labelHash("question"), i, attempt));
  const sub_category = r.pick(Object.keys(CATALOGUE[category]));
  return { sub_category, spec: r.pick(CATALOGUE[category][sub_category])(r, new Date(ends)) };
}

// Enough for the default dataset to have no repeat; a benchmark-sized one exhausts the catalogue
// anyway, and each attempt there costs a template call per market.
const questionAttempts = (markets: number) => (markets <= 10_000 ? 64 : 8);
const questionPlans = new WeakMap<SeedContext, Uint8Array>();

/**
 * Which attempt gives market i a question no earlier market has. Planned once per context over
 * all markets in order (a cheap pass: frames and questions only), so generateMarket stays a pure
 * function of (context, index) that any writer can call in any order. A large dataset can exhaust
 * a sub-category's questions; then the last attempt stands and repeats one.
 */
function questionAttempt(ctx: SeedContext, i: number): number {
  let plan = questionPlans.get(ctx);
  if (!plan) {
    plan = new Uint8Array(ctx.markets);
    const seen = new Set<string>();
    const attempts = questionAttempts(ctx.markets);
    for (let j = 0; j < ctx.markets; j++) {
      const { category, ends } = marketFrame(ctx, j);
      let a = 0;
      let q = questionFor(ctx, j, category, ends, a).spec.question;
      while (seen.has(q) && a < attempts - 1) q = questionFor(ctx, j, category, ends, ++a).spec.question;
      seen.add(q);
      plan[j] = a;
    }
    questionPlans.set(ctx, plan);
  }
  return i < plan.length ? plan[i] : 0;
}

export function generateMarket(ctx: SeedContext, i: number): MarketRow {
  const { r, now, category, status, mirrored, created, starts, ends, resolvedAt, settledAt } = marketFrame(ctx, i);
  const { sub_category, spec } = questionFor(ctx, i, category, ends, questionAttempt(ctx, i));
  const id = seededUuid(ctx.salts.market, i, 0);
  const names = spec.type === "BINARY" ? ["Yes", "No"] : spec.outcomes!;
  const n = names.length;

  // Current prices (thousandths); they sum to 1000 so probabilities sum to 100.
  let prices: number[];
  let winner = -1;
  if (status === "PENDING") {
    prices = splitInt(
      1000,
      names.map(() => 1),
    );
  } else if (spec.type === "BINARY") {
    const yes = r.int(30, 970);
    prices = [yes, 1000 - yes];
  } else {
    prices = splitInt(
      1000,
      names.map(() => r.next() ** 1.6 + 0.03),
      10,
    );
  }
  if (status === "RESOLVED") {
    // The favourite usually wins; the last traded prices lean hard towards the winner.
    winner = r.chance(0.75) ? prices.indexOf(Math.max(...prices)) : r.int(0, n - 1);
    const win = r.int(955, 990);
    if (spec.type === "BINARY") prices = winner === 0 ? [win, 1000 - win] : [1000 - win, win];
    else {
      const losers = splitInt(
        1000 - win,
        names.slice(1).map(() => r.range(0.2, 1)),
        1,
      );
      prices = names.map((_, k) => (k === winner ? win : losers[k < winner ? k : k - 1]));
    }
  }

  const registered = status !== "PENDING" && !mirrored;
  const outcomeCreated = iso(created);
  const outcomes: OutcomeRow[] = names.map((name, k) => {
    let probability = (prices[k] / 10).toFixed(2);
    let payout: string | null = null;
    if (status === "RESOLVED") {
      probability = k === winner ? "100.00" : "0.00";
      payout = k === winner ? ONE_WEI.toString() : "0";
    } else if (status === "CANCELLED") {
      // Probability shows the payout ratio: an equal split.
      probability = (
        splitInt(
          10000,
          names.map(() => 1),
        )[k] / 100
      ).toFixed(2);
      payout = (ONE_WEI / BigInt(n) + (BigInt(k) < ONE_WEI % BigInt(n) ? 1n : 0n)).toString();
    }
    return {
      id: seededUuid(ctx.salts.outcome, i, k),
      market_id: id,
      name,
      side: spec.type === "BINARY" && k === 1 ? "NO" : "YES",
      index: k,
      probability,
      description: spec.type === "MULTI" && name === "Other" ? "Any outcome not listed above." : null,
      image_url: null,
      color: spec.type === "BINARY" ? (k === 0 ? "#16a34a" : "#dc2626") : MULTI_COLORS[k % MULTI_COLORS.length],
      question_id: registered ? "0x" + hex(r, 64) : null,
      condition_id: registered ? "0x" + hex(r, 64) : null,
      position_id: registered ? digits(r, 77) : null,
      payout_wei: payout,
      created_at: outcomeCreated,
      updated_at: iso(settledAt ?? Math.min(now, Math.max(created, now - r.range(0, 2) * HOUR))),
      lastPrice: prices[k],
    };
  });

  const venue = mirrored ? r.pick(VENUES) : null;
  const slug = `${slugify(spec.question)}-${i.toString(36)}`;
  const description = marketDescription(spec, ends);
  const views = Math.floor(Math.exp(r.range(3, 10.5)));
  const updated = settledAt ?? (status === "PENDING" ? created : Math.min(now, ends, now - r.range(0, 3) * HOUR));
  const tradeTo = status === "ACTIVE" ? now - r.range(1, 20) * 60_000 : status === "PENDING" ? starts : Math.min(ends, now);
  const tradeFrom = Math.min(Math.max(starts, now - 90 * DAY), tradeTo - HOUR);

  return {
    index: i,
    id,
    slug,
    question: spec.question,
    description,
    category,
    sub_category,
    type: spec.type,
    status,
    trading_starts_at: iso(starts),
    trading_ends_at: iso(ends),
    resolution_date: iso(ends + Math.floor(r.range(0, 2)) * DAY),
    winning_outcome_id: winner >= 0 ? outcomes[winner].id : null,
    resolved_at: resolvedAt === null ? null : iso(resolvedAt),
    settled_at: settledAt === null ? null : iso(settledAt),
    resolved_by: status === "RESOLVED" || status === "CANCELLED" ? (venue ?? r.pick(RESOLVERS)) : null,
    resolution_source: status === "RESOLVED" || status === "CANCELLED" ? spec.source : null,
    resolution_note:
      status === "RESOLVED"
        ? `Resolved to "${names[winner]}" per ${spec.source}.`
        : status === "CANCELLED"
          ? r.pick([
              "Event postponed beyond the resolution date; all outcomes pay out equally.",
              "Resolution source discontinued; market cancelled with an equal payout.",
              "Ambiguous outcome under the rules; cancelled by the resolution committee.",
            ])
          : null,
    platform_fee: r.pick(["0.02", "0.02", "0.01", "0.015"]),
    spread: 1,
    total_volume: "0",
    image_url: `/market-images/${category.toLowerCase()}-${1 + (hash32(ctx.seed, i, 7) % 4)}.svg`,
    external_source: venue,
    external_market_id:
      venue === "Kalshi" ? `KX${sub_category.replace(/\W/g, "").toUpperCase().slice(0, 6)}-${i.toString(36).toUpperCase()}` : venue ? String(500000 + i) : null,
    tags: [...new Set([sub_category.toLowerCase().replace(/\s+/g, "-"), ...spec.tags])],
    views,
    verified: status !== "PENDING" && r.chance(0.45),
    featured: status === "ACTIVE" && r.chance(0.04),
    creator_id: !mirrored && r.chance(0.3) ? userId(ctx, traderIndex(ctx, r)) : null,
    price_market: spec.priceMarket ?? null,
    predict_market: venue
      ? {
          venue,
          venue_market_id: venue === "Kalshi" ? null : String(500000 + i),
          sync_status: status === "ACTIVE" ? "LIVE" : "CLOSED",
          last_synced_at: iso(updated),
        }
      : null,
    created_at: iso(created),
    updated_at: iso(updated),
    outcomes,
    tradeFrom,
    tradeTo,
    hot: r.next() ** 2 * 0.35,
  };
}

// ------------------------------------------------------------------------------------ trades

export interface TradeRow {
  id: string;
  market_id: string;
  outcome_id: string;
  price: string;
  shares: string;
  maker_user_id: string | null;
  taker_user_id: string | null;
  executed_at: string;
}

// Hot-loop formatting without toFixed: prices come from a table, shares from integer hundredths.
const PRICE3 = Array.from({ length: 1001 }, (_, t) => (t / 1000).toFixed(3));
const FRAC2 = Array.from({ length: 100 }, (_, h) => String(h).padStart(2, "0"));
const price3 = (t: number) => PRICE3[t];
const shares2 = (h: number) => `${Math.floor(h / 100)}.${FRAC2[h % 100]}`;
const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Trade times in [from, to], sorted, the last one exactly at `to`; `hot` of them in the last 24 h. */
function tradeTimes(r: Rng, n: number, from: number, to: number, hot: number, live: boolean): number[] {
  const t: number[] = new Array(n);
  const recentFrom = Math.max(from, to - DAY);
  const weekFrom = Math.max(from, to - 7 * DAY);
  for (let k = 0; k < n - 1; k++) {
    const u = r.next();
    const lo = live && u < hot ? recentFrom : live && u < hot + 0.2 ? weekFrom : from;
    t[k] = Math.floor(lo + r.next() * (to - lo));
  }
  t[n - 1] = to;
  return t.sort((a, b) => a - b);
}

/**
 * A random walk in logit space bridged to end exactly at `end` (thousandths): the last trade
 * price × 100 equals the outcome's probability.
 */
function pricePath(r: Rng, n: number, start: number, end: number): number[] {
  const l0 = logit(start / 1000);
  const l1 = logit(end / 1000);
  const sigma = 1.4 / Math.sqrt(n);
  const w: number[] = new Array(n);
  let x = 0;
  for (let k = 0; k < n; k++) w[k] = x += sigma * r.normal();
  const out: number[] = new Array(n);
  for (let k = 0; k < n; k++) {
    const f = (k + 1) / n;
    const l = l0 + w[k] + f * (l1 - l0 - w[n - 1]);
    out[k] = Math.min(995, Math.max(5, Math.round(sigmoid(l) * 1000)));
  }
  out[n - 1] = end;
  return out;
}

/** Number of trades for each outcome of the market (0 for PENDING). */
function tradeCount(ctx: SeedContext, m: MarketRow, r: Rng): number {
  if (m.status === "PENDING" || ctx.tradesPerOutcome <= 0 || m.tradeTo <= m.tradeFrom) return 0;
  return Math.max(3, Math.round(ctx.tradesPerOutcome * r.range(0.5, 1.5)));
}

/**
 * All trades of a market, outcome by outcome; calls `emit` per trade so big seeds never hold
 * more than one market. Returns the volume in 1e-5 units (price thousandths × share hundredths).
 */
export function generateTrades(ctx: SeedContext, m: MarketRow, emit?: (t: TradeRow) => void): number {
  const r = new Rng(hash32(ctx.seed, labelHash("trades"), m.index));
  const n = tradeCount(ctx, m, r);
  if (!n) return 0;
  const live = m.status === "ACTIVE";
  const mirrored = m.external_source !== null;
  const times = tradeTimes(r, n, m.tradeFrom, m.tradeTo, m.hot, live);
  const isoTimes = emit ? times.map(iso) : [];
  let volume = 0;
  let row = 0;
  const idPrefix = seededUuidPrefix(ctx.salts.trade, m.index);
  const paths: number[][] =
    m.type === "BINARY"
      ? (() => {
          const yes = pricePath(r, n, r.int(250, 750), m.outcomes[0].lastPrice);
          return [yes, yes.map((p) => 1000 - p)]; // NO mirrors YES
        })()
      : m.outcomes.map((o) => pricePath(r, n, Math.round(1000 / m.outcomes.length), o.lastPrice));
  m.outcomes.forEach((o, k) => {
    const path = paths[k];
    for (let j = 0; j < n; j++) {
      const sharesH = Math.round(Math.exp(r.range(Math.log(500), Math.log(250_000)))); // 5 .. 2,500 shares
      volume += path[j] * sharesH;
      const maker = mirrored ? null : traderIndex(ctx, r);
      let taker = mirrored ? null : traderIndex(ctx, r);
      if (taker !== null && taker === maker) taker = (taker + 1) % ctx.users;
      if (emit)
        emit({
          id: seededUuidAfter(idPrefix, ctx.salts.trade, m.index, row++),
          market_id: m.id,
          outcome_id: o.id,
          price: price3(path[j]),
          shares: shares2(sharesH),
          maker_user_id: maker === null ? null : userId(ctx, maker),
          taker_user_id: taker === null ? null : userId(ctx, taker),
          executed_at: isoTimes[j],
        });
    }
  });
  return volume;
}

/** Decimal string of a volume in 1e-5 units. */
export function volumeString(v: number): string {
  const whole = Math.floor(v / 100_000);
  return `${whole}.${String(v - whole * 100_000).padStart(5, "0")}`;
}

/** The market with total_volume filled in from its trades (sum of price × shares). */
export function withVolume(ctx: SeedContext, m: MarketRow): MarketRow {
  m.total_volume = volumeString(generateTrades(ctx, m));
  return m;
}

// ------------------------------------------------------------------------------------ orders

export interface OrderRow {
  id: string;
  market_id: string;
  outcome_id: string;
  user_id: string;
  side: "BUY" | "SELL";
  type: "LIMIT" | "MARKET";
  price: string;
  shares: string;
  filled_shares: string;
  status: "OPEN" | "PARTIALLY_FILLED" | "FILLED" | "CANCELLED";
  created_at: string;
  updated_at: string;
}

/**
 * Resting depth around the current price (ACTIVE native markets) plus a few finished orders;
 * `depth` more price levels a side for busier markets.
 */
export function generateOrders(ctx: SeedContext, m: MarketRow, emit: (o: OrderRow) => void, depth = 0): void {
  if (m.external_source !== null || m.status === "PENDING") return;
  const r = new Rng(hash32(ctx.seed, labelHash("orders"), m.index));
  let row = 0;
  const add = (o: Omit<OrderRow, "id" | "market_id" | "user_id" | "updated_at">, updated?: number) =>
    emit({
      id: seededUuid(ctx.salts.order, m.index, row++),
      market_id: m.id,
      user_id: userId(ctx, traderIndex(ctx, r)),
      updated_at: updated === undefined ? o.created_at : iso(updated),
      ...o,
    });
  const at = (from: number, to: number) => Math.floor(from + r.next() * Math.max(0, to - from));

  for (const o of m.outcomes) {
    const c = o.lastPrice;
    if (m.status === "ACTIVE") {
      const base = r.range(20, 400);
      const levels = r.int(3, 6) + depth;
      for (const side of ["BUY", "SELL"] as const) {
        // Bids strictly below the last price on the 1-cent grid, asks strictly above.
        const first = side === "BUY" ? Math.floor((c - 1) / 10) * 10 : Math.ceil((c + 1) / 10) * 10;
        for (let k = 0; k < levels; k++) {
          const p = side === "BUY" ? first - 10 * k : first + 10 * k;
          if (p < 10 || p > 990) break;
          const orders = r.int(1, 2);
          for (let q = 0; q < orders; q++) {
            const sharesH = Math.max(100, Math.round(base * (1 + 0.6 * k) * r.range(0.4, 1.4) * 100));
            const partial = r.chance(0.25);
            const filledH = partial ? Math.max(1, Math.min(sharesH - 100, Math.round(sharesH * r.range(0.1, 0.8)))) : 0;
            const created = at(ctx.now - 7 * DAY, ctx.now - 60_000);
            add(
              {
                outcome_id: o.id,
                side,
                type: "LIMIT",
                price: price3(p),
                shares: shares2(sharesH),
                filled_shares: shares2(filledH),
                status: partial ? "PARTIALLY_FILLED" : "OPEN",
                created_at: iso(created),
              },
              partial ? at(created, ctx.now - 30_000) : created,
            );
          }
        }
      }
      // Now and then a dust order far out, which the book hides (<= 0.05 shares).
      if (r.chance(0.05))
        add({
          outcome_id: o.id,
          side: "SELL",
          type: "LIMIT",
          price: "0.990",
          shares: "0.03",
          filled_shares: "0.00",
          status: "OPEN",
          created_at: iso(at(ctx.now - DAY, ctx.now)),
        });
    }
    // Finished orders: filled market orders, filled and cancelled limit orders.
    const done = r.int(2, 5);
    for (let q = 0; q < done; q++) {
      const kind = r.weighted([
        ["market", 3],
        ["filled", 2],
        ["cancelled", 2],
      ] as const);
      const side = r.chance(0.5) ? "BUY" : "SELL";
      const sharesH = Math.round(r.range(5, 800) * 100);
      const created = at(m.tradeFrom, m.tradeTo);
      const p = Math.min(999, Math.max(1, c + (side === "BUY" ? 1 : -1) * (kind === "market" ? 50 : r.int(0, 40))));
      const filledH = kind === "cancelled" ? (r.chance(0.5) ? 0 : Math.round(sharesH * r.range(0.1, 0.9))) : sharesH;
      add(
        {
          outcome_id: o.id,
          side,
          type: kind === "market" ? "MARKET" : "LIMIT",
          price: price3(p),
          shares: shares2(sharesH),
          filled_shares: shares2(filledH),
          status: kind === "cancelled" ? "CANCELLED" : "FILLED",
          created_at: iso(created),
        },
        at(created, Math.min(ctx.now, created + DAY)),
      );
    }
  }
}

// ------------------------------------------------------------------------------------ comments

export interface CommentRow {
  id: string;
  market_id: string;
  user_id: string;
  content: string;
  parent_id: string | null;
  likes_count: number;
  created_at: string;
  updated_at: string;
}

/** The comments of a market; `extra` more for busier markets. */
export function generateComments(ctx: SeedContext, m: MarketRow, emit: (c: CommentRow) => void, extra = 0): void {
  const r = new Rng(hash32(ctx.seed, labelHash("comments"), m.index));
  const n = (m.status === "PENDING" ? r.int(0, 2) : Math.floor(r.next() ** 1.5 * 14)) + extra;
  const from = Date.parse(m.created_at);
  const to = Math.min(ctx.now, Date.parse(m.trading_ends_at) + 2 * DAY);
  const times = Array.from({ length: n }, () => Math.floor(from + r.next() * (to - from))).sort((a, b) => a - b);
  const topLevel: string[] = [];
  for (let k = 0; k < n; k++) {
    const reply = topLevel.length > 0 && r.chance(0.35);
    const id = seededUuid(ctx.salts.comment, m.index, k);
    const t = iso(times[k]);
    emit({
      id,
      market_id: m.id,
      user_id: userId(ctx, traderIndex(ctx, r)),
      content: commentText(r, m.category, reply),
      parent_id: reply ? r.pick(topLevel) : null,
      likes_count: Math.floor(r.next() ** 3 * 60),
      created_at: t,
      updated_at: t,
    });
    if (!reply) topLevel.push(id);
  }
}

// ------------------------------------------------------------------------------------ external books

export interface BookLevelRow {
  price: string;
  shares: string;
}
export interface ExternalBookRow {
  outcome_id: string;
  bids: BookLevelRow[];
  asks: BookLevelRow[];
  updated_at: string;
}

/** The venue's book of each outcome of a mirrored, still trading (or locked) market; `depth` more levels a side for busier markets. */
export function generateExternalBooks(ctx: SeedContext, m: MarketRow, emit: (b: ExternalBookRow) => void, depth = 0): void {
  if (m.external_source === null || (m.status !== "ACTIVE" && m.status !== "LOCKED")) return;
  const r = new Rng(hash32(ctx.seed, labelHash("books"), m.index));
  for (const o of m.outcomes) {
    const cents = Math.round(o.lastPrice / 10);
    const bids: BookLevelRow[] = [];
    const asks: BookLevelRow[] = [];
    const levels = r.int(5, 10) + depth;
    for (let k = 0; k < levels; k++) {
      const bid = cents - 1 - k;
      const ask = cents + 1 + k;
      // Venues send prices the way they quote them (two decimals) and sizes with their own precision.
      if (bid >= 1) bids.push({ price: (bid / 100).toFixed(2), shares: (r.range(50, 5000) * (1 + k * 0.5)).toFixed(2) });
      if (ask <= 99) asks.push({ price: (ask / 100).toFixed(2), shares: (r.range(50, 5000) * (1 + k * 0.5)).toFixed(2) });
    }
    emit({ outcome_id: o.id, bids, asks, updated_at: iso(ctx.now - Math.floor(r.range(5, 600)) * 1000) });
  }
}
