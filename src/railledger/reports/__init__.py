"""Documents to send: a game's report (HTML and Markdown, printable, no external assets), built
from :mod:`railledger.analytics.report`'s data."""
