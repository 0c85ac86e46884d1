"""The archive of game records: the only part of railledger that writes SQL.

``Archive.open(path)`` gives an archive to ``store`` records in and read them back from; see
docs/schema.md for the tables, migrations, content hash and transaction guarantees.
"""

from records.archive import Archive, StoreOutcome
from records.errors import ArchiveBusy, ArchiveError

__all__ = ["Archive", "ArchiveBusy", "ArchiveError", "StoreOutcome"]
