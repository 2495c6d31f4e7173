"""`p2pcards deck validate FILE` and `p2pcards deck list [GAME]`: deck files of the games
where each seat brings its own deck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cli.errors import fail

if TYPE_CHECKING:
    from p2pcards.decks import DeckList, OwnDecksGame

out = Console(highlight=False, markup=False)  # deck names are user text
deck_app = typer.Typer(
    help="Check deck files and list the shipped decks (games where seats bring their own).",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")]


def _own_decks_game(name: str) -> OwnDecksGame:
    from p2pcards import games
    from p2pcards.decks import OwnDecksGame
    from p2pcards.errors import UnknownGameError

    try:
        game = games.load(name)
    except UnknownGameError as exc:
        raise fail(str(exc)) from None
    if not isinstance(game, OwnDecksGame):
        raise fail(f"{name} is played with one shared deck: it has no own decks")
    return game


def _classes(game: OwnDecksGame, deck: DeckList) -> list[str]:
    found: set[str] = set()
    for card, _ in deck.cards:
        found.update(game.catalogue.classes_of(card) or ())
    return sorted(found)


@deck_app.command()
def validate(
    file: Annotated[Path, typer.Argument(help="A deck file (TOML: name, game, [cards]).")],
    game: Annotated[
        str | None, typer.Option(help="The game, if the file does not say (its `game` field).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check a deck file against its game's deck rules: every rule it breaks, named (exit 2)."""
    from p2pcards.decks import DeckError, deck_problems, load_deck

    try:
        deck = load_deck(file)
    except DeckError as exc:
        raise fail(str(exc)) from None
    name = game or deck.game
    if game is not None and deck.game and deck.game != game:
        raise fail(f"{file} is a deck for {deck.game}, not {game}")
    g = _own_decks_game(name)
    problems = deck_problems(deck, g.deck_rules, g.catalogue)
    classes = _classes(g, deck)
    if as_json:
        report = {"file": str(file), "game": name, "legal": not problems, "cards": deck.size,
                  "classes": classes, "problems": problems}  # fmt: skip
        typer.echo(json.dumps(report))
    elif problems:
        out.print(f"{file}: not a legal {name} deck:")
        for problem in problems:
            out.print(f"  - {problem}")
    else:
        legal = f"{file}: legal ({deck.size} cards, classes {', '.join(classes)})"
        out.print(legal, soft_wrap=True)
    if problems:
        raise typer.Exit(2)


@deck_app.command("list")
def list_decks(
    game: Annotated[str, typer.Argument(help="The game.")] = "rise-of-the-guys",
    as_json: JsonOpt = False,
) -> None:
    """List a game's shipped decks: their names for --deck, archetypes and classes."""
    from p2pcards.decks import shipped_decks

    g = _own_decks_game(game)
    decks = shipped_decks(type(g).__module__)
    if as_json:
        rows = [
            {"deck": d.id, "name": d.name, "archetype": d.archetype, "source": d.source,
             "classes": _classes(g, d), "cards": d.size, "description": d.description}
            for d in decks
        ]  # fmt: skip
        typer.echo(json.dumps(rows))
        return
    from rich.table import Column, Table

    table = Table("name", "archetype", "classes", "cards", "source")
    table.columns.insert(0, Column("--deck", no_wrap=True))
    for d in decks:
        table.add_row(d.id, d.name, d.archetype, ", ".join(_classes(g, d)), str(d.size), d.source)
    out.print(table)


def register(app: typer.Typer) -> None:
    """Add the `deck` command group."""
    app.add_typer(deck_app, name="deck")
