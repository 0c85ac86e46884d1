-- Schema version 21: a run's best routes (runs.optimal_routes) are stored only where they differ
-- from its declared ones, NULL where the declared run is the best one, as at nearly every run:
-- the two JSON texts were a tenth of an archive's bytes. Readers see the column as before, the
-- declared routes where it is NULL (src/railledger/records/archive.py, READ_AS). The runs already
-- stored lose their copy here.

ALTER TABLE runs ALTER COLUMN optimal_routes DROP NOT NULL;
UPDATE runs SET optimal_routes = NULL WHERE optimal_routes = declared_routes;
