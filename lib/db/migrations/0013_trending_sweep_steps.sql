-- The trending sweep in bounded steps (migration 0003 keeps markets.volume_24h against a watermark).
-- One sweep subtracted everything that aged out since the watermark in one statement; after a long
-- pause (a 100,000-market seed takes ten minutes) that is thousands of market rows, each a non-HOT
-- update of every index of markets, and it ran past the request pool's 3 s statement timeout: the
-- watermark never moved again and every later sweep had more to do. A step now moves the watermark
-- at most `max_step` forward; the sweeper calls steps until it has caught up.
CREATE FUNCTION sweep_volume_24h_step(max_step interval)
RETURNS TABLE (swept_at timestamptz, behind boolean) LANGUAGE plpgsql AS $$
DECLARE
  was timestamptz;
  upto timestamptz;
BEGIN
  SELECT w.swept_at INTO was FROM trending_watermark w FOR UPDATE SKIP LOCKED;
  IF NOT FOUND OR was >= now() THEN
    RETURN; -- a writer or another sweep holds the watermark, or nothing aged since
  END IF;
  upto := least(now(), was + max_step);
  PERFORM set_config('lock_timeout', '200ms', true);
  UPDATE markets m SET volume_24h = m.volume_24h - d.v
    FROM (SELECT market_id, sum(price * shares) AS v FROM trades
           WHERE executed_at > was - interval '24 hours' AND executed_at <= upto - interval '24 hours'
           GROUP BY market_id) d
   WHERE m.id = d.market_id;
  UPDATE trending_watermark SET swept_at = upto;
  swept_at := upto;
  behind := upto < now();
  RETURN NEXT;
EXCEPTION WHEN lock_not_available THEN
  RETURN;
END $$;
