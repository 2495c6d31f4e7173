"""How the command line reports a problem: one clear line on stderr and an exit code."""

import typer
from rich.console import Console
from rich.text import Text

from cli.exits import FAILURE, INTERRUPTED, USAGE

__all__ = ["FAILURE", "INTERRUPTED", "USAGE", "err", "fail"]

err = Console(stderr=True, highlight=False)


def fail(message: str, code: int = USAGE) -> typer.Exit:
    """Print `message` as an error and return the Exit to raise.

    The message is printed as plain text, never read as markup: it often quotes what a
    user typed or a peer sent, and text like "[/]" would otherwise crash the printout.
    """
    err.print(Text.assemble(("error:", "bold red"), " ", message), soft_wrap=True)
    return typer.Exit(code)
