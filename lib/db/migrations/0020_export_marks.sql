-- Marks of closed days whose trades changed (docs/api.md "Exports"): a daily export file of a closed UTC
-- day is written once, and again only when its day's mark moves. A statement that inserts, updates or
-- deletes trades of a day before the current UTC day (a back-dated import, a correction, a trade committed
-- just after midnight) advances that day's mark by one; the export job keeps, beside each file, the mark it
-- saw before reading the day, and writes the day again when the mark differs. Live trades (today) are
-- filtered out before any write, so the live writers' statements pay one scan of their own new rows.
CREATE TABLE export_marks (
  day  date PRIMARY KEY,
  mark bigint NOT NULL DEFAULT 1
);

CREATE FUNCTION export_marks_touch(days date[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO export_marks AS e (day)
  SELECT DISTINCT d FROM unnest(days) d
   WHERE d < (now() AT TIME ZONE 'UTC')::date
   ORDER BY 1
  ON CONFLICT (day) DO UPDATE SET mark = e.mark + 1;
$$;

CREATE FUNCTION export_marks_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  days date[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT (executed_at AT TIME ZONE 'UTC')::date) INTO days FROM new_rows
     WHERE executed_at < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT (executed_at AT TIME ZONE 'UTC')::date) INTO days FROM old_rows
     WHERE executed_at < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  ELSE
    SELECT array_agg(DISTINCT d) INTO days FROM (
      SELECT (executed_at AT TIME ZONE 'UTC')::date AS d FROM old_rows
      UNION ALL
      SELECT (executed_at AT TIME ZONE 'UTC')::date FROM new_rows) x
     WHERE d < (now() AT TIME ZONE 'UTC')::date;
  END IF;
  IF days IS NOT NULL THEN
    PERFORM export_marks_touch(days);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER trades_export_marks_ins AFTER INSERT ON trades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION export_marks_rows();
CREATE TRIGGER trades_export_marks_upd AFTER UPDATE ON trades REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION export_marks_rows();
CREATE TRIGGER trades_export_marks_del AFTER DELETE ON trades REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION export_marks_rows();
