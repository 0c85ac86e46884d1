"""``python -m railledger``: the same command as the installed ``railledger`` script."""

from railledger.cli.__main__ import main

main()
