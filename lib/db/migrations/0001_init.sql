-- Core schema: users, markets, outcomes, comments, orders, trades and mirrored-venue books.
-- Constraints make bad rows impossible; indexes back every filter and sort of GET /v1/markets.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TYPE market_category AS ENUM ('CRYPTO', 'SPORTS', 'POLITICS', 'ENTERTAINMENT', 'SCIENCE', 'FINANCE', 'OTHER');
CREATE TYPE market_type     AS ENUM ('BINARY', 'MULTI');
CREATE TYPE market_status   AS ENUM ('PENDING', 'ACTIVE', 'LOCKED', 'RESOLVED', 'CANCELLED');
CREATE TYPE outcome_side    AS ENUM ('YES', 'NO');
CREATE TYPE order_side      AS ENUM ('BUY', 'SELL');
CREATE TYPE order_type      AS ENUM ('LIMIT', 'MARKET');
CREATE TYPE order_status    AS ENUM ('OPEN', 'PARTIALLY_FILLED', 'FILLED', 'CANCELLED');

CREATE TABLE users (
  id                uuid PRIMARY KEY,
  username          text NOT NULL UNIQUE CHECK (char_length(username) BETWEEN 1 AND 64),
  profile_image_url text,
  created_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE markets (
  id                 uuid PRIMARY KEY,
  slug               text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9-]{1,200}$'),
  question           text NOT NULL CHECK (char_length(question) > 0),
  description        text NOT NULL,
  category           market_category NOT NULL,
  sub_category       text NOT NULL,
  type               market_type NOT NULL,
  status             market_status NOT NULL,
  trading_starts_at  timestamptz NOT NULL,
  trading_ends_at    timestamptz NOT NULL,
  resolution_date    timestamptz,
  winning_outcome_id uuid,
  resolved_at        timestamptz,
  settled_at         timestamptz,
  resolved_by        text,
  resolution_source  text,
  resolution_note    text,
  platform_fee       numeric(7,6) NOT NULL CHECK (platform_fee >= 0 AND platform_fee < 1),
  spread             integer NOT NULL CHECK (spread BETWEEN 1 AND 99),
  total_volume       numeric(30,6) NOT NULL DEFAULT 0 CHECK (total_volume >= 0),
  image_url          text NOT NULL,
  video_url          text,
  video_poster_url   text,
  video_source_url   text,
  video_provider     text,
  video_status       text,
  external_source    text CHECK (external_source IS NULL OR char_length(external_source) > 0),
  external_market_id text,
  tags               text[] NOT NULL DEFAULT '{}',
  views              integer NOT NULL DEFAULT 0 CHECK (views >= 0),
  verified           boolean NOT NULL DEFAULT false,
  featured           boolean NOT NULL DEFAULT false,
  creator_id         uuid REFERENCES users (id),
  price_market       jsonb CHECK (price_market IS NULL OR jsonb_typeof(price_market) = 'object'),
  predict_market     jsonb CHECK (predict_market IS NULL OR jsonb_typeof(predict_market) = 'object'),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  -- derived (see docs/import.md "Market values"); kept by refresh_market_derived()
  comments_count     integer NOT NULL DEFAULT 0 CHECK (comments_count >= 0),
  total_liquidity    numeric(30,6) NOT NULL DEFAULT 0 CHECK (total_liquidity >= 0),
  CHECK (trading_ends_at >= trading_starts_at),
  CHECK (winning_outcome_id IS NULL OR status = 'RESOLVED'),
  CHECK (status <> 'RESOLVED' OR (winning_outcome_id IS NOT NULL AND resolved_at IS NOT NULL)),
  CHECK (status <> 'CANCELLED' OR (settled_at IS NOT NULL AND resolved_at IS NULL))
);

CREATE TABLE outcomes (
  id           uuid PRIMARY KEY,
  market_id    uuid NOT NULL REFERENCES markets (id) ON DELETE CASCADE,
  name         text NOT NULL CHECK (char_length(name) > 0),
  side         outcome_side NOT NULL,
  index        integer NOT NULL CHECK (index >= 0),
  probability  numeric(5,2) NOT NULL CHECK (probability BETWEEN 0 AND 100),
  description  text,
  image_url    text,
  color        text,
  question_id  text,
  condition_id text,
  position_id  text CHECK (position_id IS NULL OR position_id ~ '^[0-9]+$'),
  payout_wei   text CHECK (payout_wei IS NULL OR payout_wei ~ '^[0-9]+$'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (market_id, index) DEFERRABLE INITIALLY DEFERRED,
  UNIQUE (id, market_id)
);

-- The winner must be an outcome of the same market.
ALTER TABLE markets ADD CONSTRAINT markets_winning_outcome_fk
  FOREIGN KEY (winning_outcome_id, id) REFERENCES outcomes (id, market_id) DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE comments (
  id          uuid PRIMARY KEY,
  market_id   uuid NOT NULL REFERENCES markets (id) ON DELETE CASCADE,
  user_id     uuid NOT NULL REFERENCES users (id),
  content     text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 5000),
  parent_id   uuid,
  likes_count integer NOT NULL DEFAULT 0 CHECK (likes_count >= 0),
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, market_id),
  CHECK (parent_id IS NULL OR parent_id <> id),
  -- a reply belongs to a comment of the same market
  FOREIGN KEY (parent_id, market_id) REFERENCES comments (id, market_id) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX comments_market_created_idx ON comments (market_id, created_at DESC, id DESC);
CREATE INDEX comments_parent_idx ON comments (parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE orders (
  id            uuid PRIMARY KEY,
  market_id     uuid NOT NULL,
  outcome_id    uuid NOT NULL,
  user_id       uuid NOT NULL REFERENCES users (id),
  side          order_side NOT NULL,
  type          order_type NOT NULL,
  price         numeric(4,3) NOT NULL CHECK (price BETWEEN 0.001 AND 0.999),
  shares        numeric(20,2) NOT NULL CHECK (shares > 0),
  filled_shares numeric(20,2) NOT NULL DEFAULT 0 CHECK (filled_shares >= 0 AND filled_shares <= shares),
  status        order_status NOT NULL,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (outcome_id, market_id) REFERENCES outcomes (id, market_id) ON DELETE CASCADE,
  CHECK (status <> 'FILLED' OR filled_shares = shares),
  CHECK (status <> 'OPEN' OR filled_shares = 0)
);
-- The book reads only resting limit orders.
CREATE INDEX orders_resting_idx ON orders (outcome_id, side, price)
  INCLUDE (shares, filled_shares)
  WHERE type = 'LIMIT' AND status IN ('OPEN', 'PARTIALLY_FILLED');
CREATE INDEX orders_market_idx ON orders (market_id);

CREATE TABLE trades (
  id            uuid PRIMARY KEY,
  market_id     uuid NOT NULL,
  outcome_id    uuid NOT NULL,
  price         numeric(4,3) NOT NULL CHECK (price BETWEEN 0 AND 1),
  shares        numeric(30,6) NOT NULL CHECK (shares > 0),
  maker_user_id uuid REFERENCES users (id),
  taker_user_id uuid REFERENCES users (id),
  executed_at   timestamptz NOT NULL,
  FOREIGN KEY (outcome_id, market_id) REFERENCES outcomes (id, market_id) ON DELETE CASCADE
);
-- price history: latest trades of one outcome in a window
CREATE INDEX trades_outcome_time_idx ON trades (outcome_id, executed_at DESC, id DESC) INCLUDE (price);
-- TRENDING: volume of the last 24 h, per market
CREATE INDEX trades_time_idx ON trades (executed_at) INCLUDE (market_id, price, shares);
-- top traders
CREATE INDEX trades_market_idx ON trades (market_id) INCLUDE (maker_user_id, taker_user_id, price, shares);

CREATE TABLE external_books (
  outcome_id uuid PRIMARY KEY REFERENCES outcomes (id) ON DELETE CASCADE,
  bids       jsonb NOT NULL CHECK (jsonb_typeof(bids) = 'array'),
  asks       jsonb NOT NULL CHECK (jsonb_typeof(asks) = 'array'),
  updated_at timestamptz NOT NULL
);

-- List filters and sorts: status is always filtered; category optionally; id breaks ties.
CREATE INDEX markets_status_created_idx   ON markets (status, created_at, id);
CREATE INDEX markets_status_volume_idx    ON markets (status, total_volume, id);
CREATE INDEX markets_status_liquidity_idx ON markets (status, total_liquidity, id);
CREATE INDEX markets_status_ending_idx    ON markets (status, trading_ends_at, id);
CREATE INDEX markets_cat_created_idx      ON markets (status, category, created_at, id);
CREATE INDEX markets_cat_volume_idx       ON markets (status, category, total_volume, id);
CREATE INDEX markets_cat_liquidity_idx    ON markets (status, category, total_liquidity, id);
CREATE INDEX markets_cat_ending_idx       ON markets (status, category, trading_ends_at, id);
CREATE INDEX markets_sub_category_idx     ON markets (status, sub_category);
CREATE INDEX markets_question_trgm_idx    ON markets USING gin (question gin_trgm_ops);
CREATE INDEX markets_description_trgm_idx ON markets USING gin (description gin_trgm_ops);
CREATE INDEX outcomes_market_idx          ON outcomes (market_id, index);

-- Recomputes the derived columns of the given markets; every write path calls it
-- in the same transaction as its writes.
CREATE FUNCTION refresh_market_derived(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  UPDATE markets m SET
    comments_count = (SELECT count(*) FROM comments c WHERE c.market_id = m.id),
    total_liquidity = CASE WHEN m.external_source IS NULL THEN
      coalesce((SELECT sum(o.price * (o.shares - o.filled_shares)) FROM orders o
                 WHERE o.market_id = m.id AND o.type = 'LIMIT' AND o.status IN ('OPEN', 'PARTIALLY_FILLED')), 0)
    ELSE
      coalesce((SELECT sum((l->>'price')::numeric * (l->>'shares')::numeric)
                  FROM outcomes oc JOIN external_books b ON b.outcome_id = oc.id,
                       jsonb_array_elements(b.bids || b.asks) l
                 WHERE oc.market_id = m.id), 0)
    END
  WHERE m.id = ANY(ids);
$$;
