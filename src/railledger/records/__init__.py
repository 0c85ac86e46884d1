"""The archive of game records: the only part of railledger that writes SQL.

``Archive.open(path)`` gives an archive to ``store`` records in and read them back from; see
docs/schema.md for the tables, migrations, content hash and transaction guarantees.
"""

from railledger.records.archive import Archive, StoreOutcome
from railledger.records.errors import ArchiveBusy, ArchiveError

__all__ = ["Archive", "ArchiveBusy", "ArchiveError", "StoreOutcome"]
