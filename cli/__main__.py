"""``python -m cli`` runs the railledger command."""

from cli.app import main

main()
