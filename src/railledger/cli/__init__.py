"""The ``railledger`` command: typer options parsed, the work handed to the rooms below, the
results printed. ``railledger --help`` loads only the modules that declare the commands."""
