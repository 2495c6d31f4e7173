"""The `p2pcards` command line (typer) and terminal rendering (rich)."""
