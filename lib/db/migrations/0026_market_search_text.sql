-- The text a search reads through trigrams (question, description) gets a table of its own, written only when
-- that text or a list filter changes (docs/ingest.md "What a batch costs"). A market's totals are sort keys, so
-- each update of them writes every index of its row again, the two trigram indexes included: every trigram of
-- the question and the description, for each trade or book change of the ingest stream. On the venues data set
-- that made the ingest 26-31 % slower (2,725-2,947 against 3,560-3,715 book changes a second). The list
-- filters (status, category, sub-category) come along, so that a search no trigram narrows still reads only the
-- texts of its status, as it did on markets. The markets keep every column (the reads and a search's walk of a
-- sort index read them there); lib/markets/sql/lists.ts asks this table for every match of a search.
CREATE TABLE market_search (
  market_id    uuid PRIMARY KEY REFERENCES markets (id) ON DELETE CASCADE,
  status       market_status NOT NULL,
  category     market_category NOT NULL,
  sub_category text NOT NULL,
  question     text NOT NULL,
  description  text NOT NULL
);

INSERT INTO market_search (market_id, status, category, sub_category, question, description)
SELECT id, status, category, sub_category, question, description FROM markets;

SET LOCAL maintenance_work_mem = '256MB';
CREATE INDEX market_search_status_idx           ON market_search (status, sub_category);
CREATE INDEX market_search_question_trgm_idx    ON market_search USING gin (question gin_trgm_ops);
CREATE INDEX market_search_description_trgm_idx ON market_search USING gin (description gin_trgm_ops);
DROP INDEX markets_question_trgm_idx;
DROP INDEX markets_description_trgm_idx;

-- New markets, once per statement (a seed's COPY of 500 markets, an import, an ingest batch).
CREATE FUNCTION market_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market_search (market_id, status, category, sub_category, question, description)
  SELECT id, status, category, sub_category, question, description FROM new_rows;
  RETURN NULL;
END $$;
CREATE TRIGGER markets_search_ins AFTER INSERT ON markets REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION market_search_insert();

-- A changed text or filter: a row trigger that fires only for a statement that sets one of them, and then only
-- for a row where one differs (an upsert sets every column; the totals' updates set none of them).
CREATE FUNCTION market_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE market_search
     SET status = NEW.status, category = NEW.category, sub_category = NEW.sub_category,
         question = NEW.question, description = NEW.description
   WHERE market_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER markets_search_upd AFTER UPDATE OF status, category, sub_category, question, description ON markets FOR EACH ROW
  WHEN ((OLD.status, OLD.category, OLD.sub_category, OLD.question, OLD.description)
        IS DISTINCT FROM (NEW.status, NEW.category, NEW.sub_category, NEW.question, NEW.description))
  EXECUTE FUNCTION market_search_update();

ANALYZE market_search;
