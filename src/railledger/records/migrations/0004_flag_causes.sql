-- Schema version 4: which earlier flag a flag follows from. A replay that goes on after an illegal
-- action meets later actions that counted on it; those flags point at the root cause's seq.

ALTER TABLE flags ADD COLUMN follows INTEGER;   -- seq of the flag this one follows from; NULL for a root cause
