"""SQL migrations, applied in file-name order by records.schema."""
