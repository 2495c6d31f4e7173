"""How the command line reports a problem: one clear line on stderr and an exit code."""

import typer
from rich.console import Console

USAGE = 2  # bad command-line input
FAILURE = 1  # something went wrong while running

err = Console(stderr=True, highlight=False)


def fail(message: str, code: int = USAGE) -> typer.Exit:
    """Print `message` as an error and return the Exit to raise."""
    err.print(f"[bold red]error:[/] {message}")
    return typer.Exit(code)
