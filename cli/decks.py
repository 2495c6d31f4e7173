"""`p2pcards deck validate FILE`, `p2pcards deck list [GAME]` and `p2pcards deck sealed
[GAME]`: deck files of the games where each seat brings its own deck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cli.errors import FAILURE, fail
from cli.options import check_range, chosen_seed
from cli.output import console, whole

if TYPE_CHECKING:
    from p2pcards.boosters import Pack
    from p2pcards.decks import DeckList, OwnDecksGame
    from p2pcards.sealed import SealedGame

out = console(markup=False)  # deck names are user text
deck_app = typer.Typer(
    help="Check deck files, list the shipped decks and build sealed decks from boosters "
    "(games where seats bring their own).",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")]
MAX_BOOSTERS = 100  # a pool of 1000 cards is more than any sealed event opens


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
    if not name:
        raise fail(f"{file} has no `game` line: say which game with --game GAME")
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
        kinds = f", classes {', '.join(classes)}" if classes else ""
        legal = f"{file}: legal ({deck.size} cards{kinds})"
        out.print(legal, soft_wrap=True)
    if problems:
        raise typer.Exit(2)


@deck_app.command("list")
def list_decks(
    game: Annotated[
        str | None, typer.Argument(help="The game (default: every game of own decks).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """List the shipped decks, with their game: their names for --deck, archetypes, classes."""
    from p2pcards import games
    from p2pcards.decks import OwnDecksGame, shipped_decks

    chosen: list[tuple[str, OwnDecksGame]] = []
    if game is not None:
        chosen.append((game, _own_decks_game(game)))
    else:  # a game of one shared deck has none to list
        for name in games.names():
            loaded = games.load(name)
            if isinstance(loaded, OwnDecksGame):
                chosen.append((name, loaded))
    decks = [(name, g, d) for name, g in chosen for d in shipped_decks(type(g).__module__)]
    if as_json:
        rows = [
            {"game": name, "deck": d.id, "name": d.name, "archetype": d.archetype,
             "source": d.source, "classes": _classes(g, d), "cards": d.size,
             "description": d.description}
            for name, g, d in decks
        ]  # fmt: skip
        typer.echo(json.dumps(rows))
        return
    from rich.table import Table

    classed = any(_classes(g, d) for _, g, d in decks)  # games without classes show none
    table = Table(
        "game", "--deck", "name", "archetype", *(("classes",) if classed else ()), "cards",
        "source",
    )  # fmt: skip
    for name, g, d in decks:
        classes = (", ".join(_classes(g, d)),) if classed else ()
        table.add_row(name, d.id, d.name, d.archetype, *classes, str(d.size), d.source)
    out.print(whole(table))


@deck_app.command()
def sealed(
    game: Annotated[str, typer.Argument(help="The game.")] = "rise-of-the-guys",
    boosters: Annotated[
        int | None,
        typer.Option(
            help=f"Boosters to open, 1 to {MAX_BOOSTERS} (default: the game's, 10 for Rise "
            "of the Guys).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of the boosters (default: a random one, printed); the same seed opens "
            "the same packs and builds the same deck.",
            show_default=False,
        ),
    ] = None,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Where to write the deck file (default: sealed-SEED.toml).",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Open boosters and build the best legal deck of them, each card at most as often as it
    was opened; print the packs and the deck and write its deck file (for --deck)."""
    from p2pcards.boosters import open_boosters
    from p2pcards.decks import DeckError, format_deck
    from p2pcards.sealed import SealedGame, sealed_deck

    g = _own_decks_game(game)
    if not isinstance(g, SealedGame):
        raise fail(f"{game} has no booster packs")
    n = g.booster.sealed_packs if boosters is None else boosters
    check_range("--boosters", n, 1, MAX_BOOSTERS)
    seed = chosen_seed(seed)
    path = out_file or Path(f"sealed-{seed}.toml")
    packs = open_boosters(g.booster_cards, g.booster, n, seed)
    command = f"p2pcards deck sealed {game} --boosters {n} --seed {seed}"
    try:
        deck = sealed_deck(g, packs, f"Sealed {seed}", f"Sealed: {n} boosters ({command}).")
    except DeckError as exc:
        if not as_json:
            _print_packs(g, packs)
        raise fail(str(exc)) from None
    try:
        path.write_text(format_deck(deck), encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write --out {path}: {exc.strerror or exc}", FAILURE) from None
    if as_json:
        typer.echo(json.dumps(_sealed_json(g, packs, deck, seed, path)))
        return
    out.print(f"{g.name}: {n} boosters, seed {seed}")
    _print_packs(g, packs)
    _print_deck(g, deck, sum(len(pack) for pack in packs))
    out.print(f"wrote {path}: try `p2pcards deck validate {path}` and "
              f"`p2pcards play {g.name} --deck {path}`", soft_wrap=True)  # fmt: skip


def _print_packs(game: SealedGame, packs: list[Pack]) -> None:
    by_id = {card.id: card for card in game.booster_cards}
    slots = game.booster.slot_names()
    for i, pack in enumerate(packs, 1):
        out.print(f"pack {i}")
        for slot in dict.fromkeys(slots):  # each slot once, in layout order
            names = [
                by_id[card].name if slot in game.booster.rarities
                else f"{by_id[card].name} ({by_id[card].rarity})"
                for card, s in zip(pack, slots, strict=True) if s == slot
            ]  # fmt: skip
            out.print(f"  {slot + ':':8} {', '.join(names)}", soft_wrap=True)


def _print_deck(game: SealedGame, deck: DeckList, opened: int) -> None:
    by_id = {card.id: card for card in game.booster_cards}
    classes = ", ".join(_classes(game, deck))
    out.print(f"deck {deck.name!r}: {deck.size} cards of the {opened} opened, classes {classes}")
    rows = sorted(deck.cards, key=lambda row: (by_id[row[0]].cost, by_id[row[0]].name))
    for card, n in rows:
        c = by_id[card]
        out.print(f"  {n} x {c.name} (cost {c.cost}, {c.rarity}, {'/'.join(c.classes)})")


def _sealed_json(
    game: SealedGame, packs: list[Pack], deck: DeckList, seed: int, path: Path
) -> dict[str, object]:
    by_id = {card.id: card for card in game.booster_cards}
    slots = game.booster.slot_names()
    return {
        "game": game.name, "seed": seed, "boosters": len(packs),
        "packs": [
            [{"slot": s, "card": card, "name": by_id[card].name, "rarity": by_id[card].rarity}
             for card, s in zip(pack, slots, strict=True)]
            for pack in packs
        ],
        "deck": {"name": deck.name, "cards": deck.size, "classes": _classes(game, deck),
                 "counts": deck.counts()},
        "file": str(path),
    }  # fmt: skip


def register(app: typer.Typer) -> None:
    """Add the `deck` command group."""
    app.add_typer(deck_app, name="deck")
