"""The program's entry point, kept apart from `cli.app` so that it runs before the heavy
imports: Ctrl-C while the program is still starting (importing typer, rich, the games)
must end it quietly, as it does once a command runs, not with a traceback."""

from __future__ import annotations

from cli.exits import INTERRUPTED


def main() -> None:
    """Run the command line; an interrupt no command has taken over exits 130, silently."""
    try:
        from cli.app import main as run

        run()
    except KeyboardInterrupt:
        raise SystemExit(INTERRUPTED) from None
