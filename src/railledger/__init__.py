"""railledger: an archive, validating replay and statistics for 18xx railway board games."""
