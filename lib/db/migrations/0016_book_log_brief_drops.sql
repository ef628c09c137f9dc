-- The retention pass (0011) holds its exclusive locks for milliseconds. Dropping a day's partition locks
-- book_changes and book_snapshots whole until the pass commits, so every read of a past book waits while
-- the pass goes on. It used to drop each expired day right after carrying its books forward, so the
-- carries of the later days ran under those locks. Now all carries come first, while every day is still
-- there (the carry to the start of day d + 1 reads days up to d), and the drops come last, together. A
-- pass that waits more than `lock_ms` for its locks gives up (readers queued behind it would otherwise
-- wait as long): 500 ms by default, under the request pool's 1 s lock_timeout.
CREATE OR REPLACE FUNCTION book_log_maintain(keep_days integer, ahead integer DEFAULT 2, lock_ms integer DEFAULT 500)
RETURNS TABLE (created integer, dropped integer, carried integer) LANGUAGE plpgsql AS $$
DECLARE
  today date := (now() AT TIME ZONE 'UTC')::date;
  d date;
  expired date[];
  next_start timestamptz;
  n_created integer := 0;
  n_carried integer := 0;
  k integer;
BEGIN
  PERFORM set_config('lock_timeout', lock_ms || 'ms', true);
  FOR d IN SELECT generate_series(today - 1, today + ahead, interval '1 day')::date LOOP
    IF book_log_create_day(d) THEN n_created := n_created + 1; END IF;
  END LOOP;
  SELECT coalesce(array_agg(x.day ORDER BY x.day), '{}') INTO expired
    FROM (SELECT to_date(right(c.relname, 8), 'YYYYMMDD') AS day
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'book_changes'::regclass AND c.relname ~ '^book_changes_p[0-9]{8}$') x
   WHERE x.day < today - keep_days;
  FOREACH d IN ARRAY expired LOOP
    next_start := (d + 1)::timestamp AT TIME ZONE 'UTC';
    PERFORM book_log_create_day(d + 1);
    INSERT INTO book_snapshots (outcome_id, version, at, version_at, levels)
    SELECT x.outcome_id, r.version, next_start, r.version_at, r.levels
      FROM (SELECT outcome_id FROM book_changes WHERE at >= next_start - interval '1 day' AND at < next_start
            UNION SELECT outcome_id FROM book_snapshots WHERE at >= next_start - interval '1 day' AND at < next_start) x
      JOIN book_heads h ON h.outcome_id = x.outcome_id AND h.changed_at >= next_start
      CROSS JOIN LATERAL book_text_at(x.outcome_id, next_start - interval '1 microsecond') r;
    GET DIAGNOSTICS k = ROW_COUNT;
    n_carried := n_carried + k;
  END LOOP;
  FOREACH d IN ARRAY expired LOOP
    EXECUTE format('DROP TABLE IF EXISTS %I', book_log_day_name('book_changes', d));
    EXECUTE format('DROP TABLE IF EXISTS %I', book_log_day_name('book_snapshots', d));
  END LOOP;
  RETURN QUERY SELECT n_created, cardinality(expired), n_carried;
END $$;
