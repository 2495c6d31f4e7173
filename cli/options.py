"""Checks of command-line input shared by the commands: games, seat counts, options, agents.

Imported at start-up (the commands' signatures use GameOptionsOpt): the games and agents
are imported by the checks that need them, when a command runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.errors import fail

if TYPE_CHECKING:
    from p2pcards.engine import Game


def game_named(name: str) -> Game:
    """The game, or a usage error listing the known ones."""
    from p2pcards import games
    from p2pcards.errors import UnknownGameError

    try:
        return games.load(name)
    except UnknownGameError as exc:
        raise fail(str(exc)) from None


def seat_count(game: Game, seats: int | None) -> int:
    """The seat count asked for (the game's least by default), checked against its range."""
    from p2pcards.errors import GameOptionError

    n = game.min_players if seats is None else seats
    try:
        game.check_num_players(n)
    except GameOptionError as exc:
        raise fail(str(exc)) from None
    return n


def agent_specs(text: str) -> list[str]:
    """Comma-separated agent specs, each checked by making the agent once."""
    from ai.agents import make_agent, split_specs
    from ai.errors import AgentSpecError

    specs = split_specs(text)
    if not specs:
        raise fail("give at least one agent, e.g. --agents greedy,random")
    for spec in specs:
        try:
            agent = make_agent(spec)
        except AgentSpecError as exc:
            raise fail(str(exc)) from None
        close = getattr(agent, "close", None)
        if close is not None:
            close(None)
    return specs


GameArg = Annotated[str, typer.Argument(help="Game name (see `p2pcards games`).")]
ExplainOpt = Annotated[
    bool,
    typer.Option(
        "--explain", help="After each searching AI's move, show its best actions and their values."
    ),
]
GameOptionsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="A game option KEY=VALUE, repeatable (see `p2pcards rules GAME`), "
        "e.g. -o match=true -o characters=true for getgem.",
    ),
]


DeckOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--deck",
        help="A deck for the next seat, repeatable (seat 0 first): a shipped deck's name (see "
        "`p2pcards deck list`) or a deck file. Seats without one get the game's default decks.",
    ),
]


def chosen_decks(game: Game, seats: int, decks: list[str] | None) -> list[dict[str, int]]:
    """The decks `--deck` names, as card counts, each checked against the game's deck rules
    (the seats after them keep the game's defaults); a usage error names what is wrong."""
    from p2pcards.decks import DeckError, OwnDecksGame, find_deck
    from p2pcards.errors import P2PCardsError

    if not decks:
        return []
    if not isinstance(game, OwnDecksGame):
        raise fail(f"{game.name} is played with one shared deck: --deck is for games of own decks")
    if len(decks) > seats:
        raise fail(f"{len(decks)} decks for {seats} seats")
    chosen = []
    for spec in decks:
        try:
            deck = find_deck(type(game).__module__, spec)
            chosen.append(game.deck(deck))
        except (DeckError, P2PCardsError) as exc:
            raise fail(f"--deck {spec}: {exc}") from None
    while len(chosen) < seats:
        chosen.append(game.deck(game.default_deck(len(chosen))))
    return chosen


def deck_entries(
    game: Game, decks: list[str]
) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """A deck tournament's entries: each deck's name (a shipped deck's, or a file's stem) with
    its cards, checked; a usage error for a bad deck or two of one name."""
    counted = chosen_decks(game, len(decks), decks)
    names = [spec.rsplit("/", 1)[-1].removesuffix(".toml") for spec in decks]
    if len(set(names)) != len(names):
        raise fail("a deck tournament needs different decks (two have one name)")
    pairs = zip(names, counted, strict=True)
    return tuple((name, tuple(sorted(cards.items()))) for name, cards in pairs)


def with_decks(options: dict[str, Any], decks: list[dict[str, int]]) -> dict[str, Any]:
    """The game options with the seats' decks, when any were chosen."""
    return {**options, "decks": decks} if decks else options


def game_options(game: Game, seats: int, pairs: list[str] | None, **fixed: Any) -> dict[str, Any]:
    """KEY=VALUE options (true/false, null, integers, else text), checked by making a table
    with them and the `fixed` options; a usage error says what is wrong."""
    from p2pcards.errors import P2PCardsError

    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise fail(f"--option takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = _value(text.strip())
    try:
        game.new_initial_state(seats, **fixed, **options)
    except P2PCardsError as exc:
        raise fail(str(exc)) from None
    except TypeError as exc:  # an option given twice, as a flag and as -o
        raise fail(f"bad game options: {exc}") from None
    return options


def _value(text: str) -> Any:
    """An option's value: a bool, None, an int, or the text itself."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("null", "none"):
        return None
    try:
        return int(text)
    except ValueError:
        return text


def check_range(option: str, value: float, low: float, high: float) -> None:
    """A usage error unless `low <= value <= high` (one line, exit 2)."""
    if not low <= value <= high:
        raise fail(f"{option} must be between {_number(low)} and {_number(high)}, not {value:g}")


def _number(value: float) -> str:
    """A bound as people write it: 4611686018427387903, 0.1, 3600."""
    return str(value) if isinstance(value, int) else f"{value:g}"


# One spelling per idea across the commands (docs/cli.md): these are the shared options.
SeedOpt = Annotated[
    int | None,
    typer.Option(
        help="Seed for the deals and the AIs (default: a random one, printed); the same seed "
        "and the same answers give the same game.",
        show_default=False,
    ),
]


def chosen_seed(seed: int | None) -> int:
    """The seed asked for, or a fresh random one (to print, so the run can be repeated)."""
    import secrets

    if seed is None:
        return secrets.randbelow(10**9)
    check_range("--seed", seed, 0, 2**63 - 1)
    return seed


def round_cap_option(default: int, where: str) -> Any:
    """The --round-cap option with its default for a kind of command (`where` says why)."""
    return typer.Option(
        "--round-cap",
        help=f"Rounds before the tie-break decides the game; 0: no cap ({where}).",
    )


def chosen_round_cap(rounds: int) -> int | None:
    """The engine's round cap for a --round-cap value: 0 is no cap."""
    check_range("--round-cap", rounds, 0, 1_000_000)
    return rounds or None


def agents_option(help_text: str) -> Any:
    """The --agents option (docs/cli.md), with help saying whose seats the agents take."""
    return typer.Option("--agents", help=help_text)


def joined_agents(given: list[str] | None) -> str | None:
    """--agents given once or more: every spec in the order given (a repeated --agents adds
    to the list, as a repeated --deck does, never replaces it); None when not given."""
    return ",".join(given) if given else None


def labelled_agents(text: str) -> list[str]:
    """Comma-separated agent specs, `name=LABEL` allowed in each: every agent made once and
    the labels checked (two different agents may not share one), or a usage error."""
    from ai.errors import AgentSpecError
    from ai.match import labels

    specs = agent_specs(text)
    try:
        labels(specs)
    except AgentSpecError as exc:
        raise fail(str(exc)) from None
    return specs


def alias(value: Any, default: Any, old: Any, name: str, old_name: str) -> Any:
    """An option's value, or its hidden old spelling's when only that was given."""
    if old is None:
        return value
    if value != default:
        raise fail(f"give {name} or {old_name} (its old spelling), not both")
    return old


def not_both(first: str, first_given: bool, second: str, second_given: bool, why: str) -> None:
    """A usage error when two options that exclude each other are both given: one would be
    silently ignored (`why` says which, and why)."""
    if first_given and second_given:
        raise fail(f"give {first} or {second}, not both: {why}")


def check_at_least(option: str, value: float, low: float) -> None:
    """A usage error unless `value >= low` (one line, exit 2)."""
    if not value >= low:
        raise fail(f"{option} must be at least {low:g}, not {value:g}")


def check_positive(option: str, value: float | None) -> None:
    """A usage error unless `value` (when given) is a finite number above 0 (one line, exit 2)."""
    import math

    if value is not None and not (math.isfinite(value) and value > 0):
        raise fail(f"{option} must be more than 0, not {value:g}")
