// Heavy markets for scale tests (npm run db:seed -- --heavy-trades N): N more trades on the first
// outcome of the first ACTIVE native market, deterministic like the rest of the seed and written with
// it (COPY by default). They lie strictly before the market's last regular trade, so the last trade
// price still equals the outcome's probability; the market's total_volume counts them (the seed adds
// `heavyVolume` before it writes the market row), top traders and the rolling volume follow from the rows.
import { hash32, labelHash, Rng, seededUuidAfter, seededUuidPrefix } from "./prng";
import { type MarketRow, type SeedContext, type TradeRow, userId } from "./generate";

/** seededUuid keeps 22 bits of the row number: beyond this, ids would repeat. */
export const HEAVY_MAX_TRADES = 4_000_000;

/** The market a heavy seed loads: ACTIVE (so the tape is live), native (its trades name users), with an hour of trading. */
export function isHeavyTarget(m: MarketRow): boolean {
  return m.status === "ACTIVE" && m.external_source === null && m.tradeTo - m.tradeFrom >= 3_600_000;
}

interface HeavyTrade {
  row: number;
  /** Price in thousandths, shares in hundredths, time in unix ms. */
  price: number;
  sharesH: number;
  at: number;
  maker: number;
  taker: number;
}

/** The trades as numbers, in time order: a random walk of the price, times spread evenly with jitter (ties on the ms happen). */
function* heavyPath(ctx: SeedContext, m: MarketRow, count: number): Generator<HeavyTrade> {
  const r = new Rng(hash32(ctx.seed, labelHash("heavy-trades"), m.index));
  const from = m.tradeFrom;
  const span = m.tradeTo - 1000 - from; // before the last regular trade, which sits at tradeTo
  let price = m.outcomes[0].lastPrice;
  for (let row = 0; row < count; row++) {
    price = Math.min(995, Math.max(5, price + Math.round(r.normal() * 4)));
    const maker = r.int(0, ctx.users - 1);
    let taker = r.int(0, ctx.users - 1);
    if (taker === maker) taker = (taker + 1) % ctx.users;
    yield {
      row,
      price,
      sharesH: Math.round(Math.exp(r.range(Math.log(500), Math.log(250_000)))),
      at: from + Math.floor(((row + r.next()) * span) / count),
      maker,
      taker,
    };
  }
}

/** Their volume in 1e-5 USDT units (price thousandths × share hundredths), as generateTrades counts. */
export function heavyVolume(ctx: SeedContext, m: MarketRow, count: number): number {
  let volume = 0;
  for (const t of heavyPath(ctx, m, count)) volume += t.price * t.sharesH;
  return volume;
}

const price3 = (t: number) => (t / 1000).toFixed(3);
const shares2 = (h: number) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, "0")}`;

export function* heavyTrades(ctx: SeedContext, m: MarketRow, count: number): Generator<TradeRow> {
  const salt = hash32(ctx.seed, labelHash("heavy-trade"));
  const prefix = seededUuidPrefix(salt, m.index);
  const outcome = m.outcomes[0].id;
  for (const t of heavyPath(ctx, m, count)) {
    yield {
      id: seededUuidAfter(prefix, salt, m.index, t.row),
      market_id: m.id,
      outcome_id: outcome,
      price: price3(t.price),
      shares: shares2(t.sharesH),
      maker_user_id: userId(ctx, t.maker),
      taker_user_id: userId(ctx, t.taker),
      executed_at: new Date(t.at).toISOString(),
    };
  }
}
