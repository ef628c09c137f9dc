-- A closed day's export mark in 16 slots (docs/api.md "Exports"). A statement that writes trades of a day
-- before the current UTC day added one to that day's single row and held the row until its commit, so two
-- ingest lanes writing such trades waited for each other's whole batch: a backfill, or the minutes after
-- midnight when the stream still carries the last day's trades (about 50 ms a batch, a seventh of a lane's
-- time, in a 10-minute ingest on the venues data set). A transaction now adds to the slot its id picks, as
-- the market counts do (migration 0027); the day's mark is the sum of its slots, which every touch raises
-- by one, so the export job sees a day move exactly as before (lib/exports/job.ts reads the sum).
ALTER TABLE export_marks ADD COLUMN slot smallint NOT NULL DEFAULT 0 CHECK (slot BETWEEN 0 AND 15);
ALTER TABLE export_marks DROP CONSTRAINT export_marks_pkey;
ALTER TABLE export_marks ADD PRIMARY KEY (day, slot);

CREATE OR REPLACE FUNCTION export_marks_touch(days date[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO export_marks AS e (day, slot)
  SELECT DISTINCT d, (txid_current() % 16)::smallint FROM unnest(days) d
   WHERE d < (now() AT TIME ZONE 'UTC')::date
   ORDER BY 1
  ON CONFLICT (day, slot) DO UPDATE SET mark = e.mark + 1;
$$;
