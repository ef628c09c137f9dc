// Typed rows (lib/markets/rows.ts: numerics as strings, timestamptz as Date, a market's and an outcome's
// as ISO text) → the API's snake_case shape.
import { type CandleWindow, nextEndTs } from "./candles";
import { fixed, trimDecimal } from "./decimal";
import type { CandleRow, CommentRow, IsoTime, MarketDetailRow, MarketRow, OutcomeRow, TopTraderRow, TradeRow, UserRefRow } from "./rows";
import type { Candle, Candles, Comment, MarketDetail, MarketListItem, Outcome, Trade } from "./schemas";
import { safeUrl } from "./urls";

const iso = (d: Date) => d.toISOString();
/** A market's or outcome's timestamp (rows.ts, IsoTime): PostgreSQL's ISO text as it is; a year outside 1-9999 through Date, as before. */
const isoTime = (t: IsoTime) => (t.endsWith("Z") ? t : new Date(t).toISOString());
const ts = (t: IsoTime | null) => (t === null ? null : isoTime(t));
const num = (s: string | number) => Number(s);
/** Probability: a number with two decimals on the 0..100 scale. */
const pct = (s: string | number) => Math.round(Number(s) * 100) / 100;

export function outcomeFromRow(r: OutcomeRow): Outcome {
  return {
    id: r.id,
    market_id: r.market_id,
    name: r.name,
    side: r.side,
    index: r.index,
    probability: pct(r.probability),
    description: r.description,
    // Rows imported before URLs were checked may hold javascript: and the like: never handed out.
    image_url: safeUrl(r.image_url),
    color: r.color,
    question_id: r.question_id,
    condition_id: r.condition_id,
    position_id: r.position_id,
    payout_wei: r.payout_wei,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

type MarketBase = Omit<MarketListItem, "comments_count">;

function marketBaseFromRow(r: MarketRow, outcomes: Outcome[]): MarketBase {
  return {
    id: r.id,
    slug: r.slug,
    question: r.question,
    description: r.description,
    category: r.category,
    sub_category: r.sub_category,
    type: r.type,
    status: r.status,
    trading_starts_at: isoTime(r.trading_starts_at),
    trading_ends_at: isoTime(r.trading_ends_at),
    resolution_date: ts(r.resolution_date),
    winning_outcome_id: r.winning_outcome_id,
    winning_outcome: r.winning_outcome_id ? (outcomes.find((o) => o.id === r.winning_outcome_id) ?? null) : null,
    resolved_at: ts(r.resolved_at),
    settled_at: ts(r.settled_at),
    resolved_by: r.resolved_by,
    resolution_source: r.resolution_source,
    resolution_note: r.resolution_note,
    platform_fee: num(r.platform_fee),
    spread: r.spread,
    total_volume: num(r.total_volume),
    image_url: safeUrl(r.image_url) ?? "",
    video_url: safeUrl(r.video_url),
    video_poster_url: safeUrl(r.video_poster_url),
    video_source_url: safeUrl(r.video_source_url),
    video_provider: r.video_provider,
    video_status: r.video_status,
    external_source: r.external_source,
    tags: r.tags,
    views: r.views,
    verified: r.verified,
    featured: r.featured,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
    outcomes,
  };
}

export function marketListItemFromRow(r: MarketRow, outcomes: Outcome[]): MarketListItem {
  return { ...marketBaseFromRow(r, outcomes), comments_count: r.comments_count };
}

export function commentFromRow(r: CommentRow): Comment {
  return {
    id: r.id,
    user_id: r.user_id,
    content: r.content,
    parent_id: r.parent_id,
    likes_count: r.likes_count,
    is_liked: false,
    reply_count: r.reply_count,
    created_at: iso(r.created_at),
    user: { id: r.user_id, username: r.username, profile_image_url: safeUrl(r.profile_image_url) },
  };
}

export function marketDetailFromRow(
  r: MarketDetailRow,
  parts: { outcomes: Outcome[]; comments: Comment[]; topTraders: TopTraderRow[]; creator: UserRefRow | null },
): MarketDetail {
  const detail: MarketDetail = {
    ...marketBaseFromRow(r, parts.outcomes),
    total_liquidity: num(r.total_liquidity),
    top_traders: parts.topTraders.map((t) => ({ username: t.username, profile_image_url: safeUrl(t.profile_image_url), volume: num(t.volume) })),
    comments: parts.comments,
    external_market_id: r.external_market_id,
  };
  if (r.price_market) detail.price_market = r.price_market;
  if (r.predict_market) detail.predict_market = r.predict_market;
  if (parts.creator) detail.creator = { id: parts.creator.id, username: parts.creator.username, profile_image_url: safeUrl(parts.creator.profile_image_url) };
  return detail;
}

// ---------------------------------------------------------------- trade tape

const party = (id: string | null, username: string | null) => (id === null || username === null ? null : { id, username });

/** Price as the book prints it (three decimals); shares and notional as stored, trailing zeros trimmed to two decimals. */
export function tradeFromRow(r: TradeRow): Trade {
  return {
    id: r.id,
    outcome_id: r.outcome_id,
    price: fixed(r.price, 3),
    shares: trimDecimal(r.shares, 2),
    notional: trimDecimal(r.notional, 2),
    executed_at: iso(r.executed_at),
    maker: party(r.maker_id, r.maker_username),
    taker: party(r.taker_id, r.taker_username),
  };
}

// ---------------------------------------------------------------- candles

export function candleFromRow(r: CandleRow): Candle {
  return {
    start: Number(r.start),
    // numeric(4,3) text: the JSON number prints the same three decimals (trailing zeros dropped).
    open: num(r.open),
    high: num(r.high),
    low: num(r.low),
    close: num(r.close),
    volume: r.volume,
    notional: r.notional,
    trades: r.trades,
  };
}

/** The answer for one outcome: the window answered (whole intervals) and where a cut window continues. */
export function candlesOf(outcomeId: string, window: CandleWindow, candles: Candle[], olderBucket: number | null): Candles {
  return {
    outcome_id: outcomeId,
    interval: window.interval,
    start_ts: window.first,
    end_ts: window.last + window.seconds - 1,
    next_end_ts: nextEndTs(window, olderBucket),
    candles,
  };
}
