-- A day of the book log made while orders are written (0011's book_log_create_day) could deadlock with
-- them: it moved the day's rows out of the default partition (a row lock on it), then asked ATTACH
-- PARTITION's exclusive lock on that same partition, while a writer holding its own lock on the default
-- partition queued behind it for another. The day's locks are now taken first, in the order writers take
-- theirs (the table, then its default partition), before anything is moved: a writer waits for the
-- milliseconds the day takes, and neither side is chosen to fail.
CREATE OR REPLACE FUNCTION book_log_create_day(d date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  base text;
  lo timestamptz := d::timestamp AT TIME ZONE 'UTC';
  hi timestamptz := (d + 1)::timestamp AT TIME ZONE 'UTC';
  made boolean := false;
BEGIN
  FOREACH base IN ARRAY ARRAY['book_changes', 'book_snapshots'] LOOP
    IF to_regclass(book_log_day_name(base, d)) IS NOT NULL THEN CONTINUE; END IF;
    EXECUTE format('LOCK TABLE %I IN SHARE UPDATE EXCLUSIVE MODE', base);
    EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', base || '_default');
    -- Made meanwhile by another pass (it held these locks until its commit).
    IF to_regclass(book_log_day_name(base, d)) IS NOT NULL THEN CONTINUE; END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', book_log_day_name(base, d), base);
    EXECUTE format('WITH moved AS (DELETE FROM %I WHERE at >= $1 AND at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
                   base || '_default', book_log_day_name(base, d)) USING lo, hi;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', base, book_log_day_name(base, d), lo, hi);
    made := true;
  END LOOP;
  RETURN made;
END $$;
