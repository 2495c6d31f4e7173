"""Deck lists of collectible games: TOML deck files, the deck rules, and every rule a deck
breaks, named. Generic: a game passes its `DeckRules` and a catalogue of its cards.

A deck file:

    name = "Tempo Machine"
    game = "rise-of-the-guys"
    archetype = "tempo"          # optional: aggro, tempo, control, other
    source = "ours"              # optional: rulebook or ours
    description = "..."          # optional
    [cards]
    robutt = 4
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Protocol, runtime_checkable

from p2pcards.carddb import MAX_BYTES, parse_toml
from p2pcards.deckmodel import CardTraits, KnownDecksModel
from p2pcards.errors import CardDataError, GameOptionError, P2PCardsError

MAX_ENTRIES = 200
MAX_COPIES = 99
_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*\Z")
_KEYS = {"name", "game", "archetype", "source", "description", "cards"}


class DeckError(P2PCardsError, ValueError):
    """A deck file that cannot be read: not TOML, or a field of the wrong form."""


@dataclass(frozen=True, slots=True)
class DeckRules:
    """What makes a deck legal (Rise of the Guys: lines 117–125; Gammasphere: rules.md)."""

    size: int
    max_copies: int
    min_classes: int
    max_classes: int
    tokens_allowed: bool = False
    unlimited: frozenset[str] = frozenset()
    """Cards any number of copies of which a deck may hold (Gammasphere's Pylons)."""


@dataclass(frozen=True, slots=True)
class DeckList:
    """A deck: its cards as (id, copies) pairs sorted by id, and what its file says of it."""

    id: str
    name: str
    game: str
    cards: tuple[tuple[str, int], ...]
    archetype: str = ""
    source: str = "ours"
    description: str = ""
    path: str | None = None

    def counts(self) -> dict[str, int]:
        """Copies by card id."""
        return dict(self.cards)

    @property
    def size(self) -> int:
        """How many cards the deck holds."""
        return sum(n for _, n in self.cards)

    @classmethod
    def from_counts(cls, game: str, counts: Mapping[str, int], name: str = "custom") -> DeckList:
        """A deck given as copies by card id (from code, not a file)."""
        cards = []
        for card, n in counts.items():
            if not isinstance(card, str) or not isinstance(n, int) or isinstance(n, bool):
                raise DeckError(f"a deck maps card ids to copies, not {card!r:.40}: {n!r:.20}")
            if n:
                cards.append((card, n))
        return cls(name, name, game, tuple(sorted(cards)))


class Catalogue(Protocol):
    """What deck rules read of a game's cards."""

    def classes_of(self, card: str) -> tuple[str, ...] | None:
        """A card's classes; None if there is no such card."""
        ...

    def is_token(self, card: str) -> bool:
        """Whether a card is a token."""
        ...


@runtime_checkable
class OwnDecksGame(Protocol):
    """A game whose seats bring their own decks: what a table needs of it."""

    default_decks: tuple[str, ...]
    """The shipped decks seats get when none is given, by seat (cycling)."""
    deck_rules: DeckRules
    """What makes a deck legal."""

    def default_deck(self, seat: int) -> str:
        """The shipped deck `seat` plays when none is given."""
        ...

    @property
    def catalogue(self) -> Catalogue:
        """The cards decks are built from."""
        ...

    def deck(self, spec: str | Mapping[str, int] | DeckList) -> dict[str, int]:
        """A deck (a shipped name, counts or a DeckList) as counts, checked against the
        rules; GameOptionError lists every rule broken."""
        ...


def decklist_problems(game: OwnDecksGame, name: str, cards: Sequence[str]) -> list[str]:
    """Every deck rule of `game` (called `name`) a list of cards breaks (empty: legal)."""
    return deck_problems(
        DeckList.from_counts(name, Counter(cards)), game.deck_rules, game.catalogue
    )


def _text(data: Mapping[str, object], key: str, where: str, limit: int, default: str) -> str:
    value = data.get(key, default)
    given_empty = key in data and key in ("name", "game") and not value
    if not isinstance(value, str) or len(value) > limit or given_empty:
        raise DeckError(f"{where}: field {key!r} must be a text of at most {limit} characters")
    return value


def parse_deck(data: bytes, where: str, deck_id: str = "deck") -> DeckList:
    """A deck file's bytes, checked field by field; DeckError says what is wrong and where."""
    if len(data) > MAX_BYTES:
        raise DeckError(f"{where} is {len(data)} bytes, over the {MAX_BYTES}-byte limit")
    try:
        table = parse_toml(data, where)
    except CardDataError as exc:
        raise DeckError(str(exc)) from None
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise DeckError(f"{where}: unknown field {unknown[0]!r}; known: {', '.join(sorted(_KEYS))}")
    cards = table.get("cards")
    if not isinstance(cards, dict) or not cards:
        raise DeckError(f"{where}: a [cards] table of card = copies is needed")
    if len(cards) > MAX_ENTRIES:
        raise DeckError(f"{where}: {len(cards)} different cards, at most {MAX_ENTRIES}")
    pairs = []
    for card, n in cards.items():
        if not _ID.match(card) or len(card) > 60:
            raise DeckError(f"{where}: {card[:60]!r} is not a card id (lowercase-with-hyphens)")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_COPIES:
            raise DeckError(f"{where}: {card}: copies must be a whole number 1..{MAX_COPIES}")
        pairs.append((card, n))
    return DeckList(
        id=deck_id,
        # Without a name the file's is the deck's; without a game, the one it is played in
        # (or `deck validate --game`) is its game.
        name=_text(table, "name", where, 80, deck_id),
        game=_text(table, "game", where, 40, ""),
        cards=tuple(sorted(pairs)),
        archetype=_text(table, "archetype", where, 20, ""),
        source=_text(table, "source", where, 20, "ours"),
        description=_text(table, "description", where, 400, ""),
    )


def format_deck(deck: DeckList) -> str:
    """A deck as the text of a deck file: parse_deck reads it back to the same deck."""
    lines = [f"name = {_quoted(deck.name)}", f"game = {_quoted(deck.game)}"]
    optional = (("archetype", deck.archetype), ("source", deck.source),
                ("description", deck.description))  # fmt: skip
    for key, value in optional:
        if value:
            lines.append(f"{key} = {_quoted(value)}")
    lines += ["", "[cards]"]
    lines += [f"{card if _ID.match(card) else _quoted(card)} = {n}" for card, n in deck.cards]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    # JSON's string escapes are TOML's, but TOML also wants DEL escaped, and refuses the
    # surrogate pairs ensure_ascii would write for characters beyond the BMP.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def load_deck(path: str | Path) -> DeckList:
    """A deck file from disk; DeckError if it cannot be read or parsed."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise DeckError(f"cannot read deck file {path}: {exc.strerror or exc}") from None
    deck = parse_deck(data, str(path), path.stem)
    return DeckList(deck.id, deck.name, deck.game, deck.cards, deck.archetype, deck.source,
                    deck.description, str(path))  # fmt: skip


def deck_problems(deck: DeckList, rules: DeckRules, catalogue: Catalogue) -> list[str]:
    """Every rule the deck breaks, one sentence each (empty: legal)."""
    problems = []
    known: list[str] = []
    classes: set[str] = set()
    for card, n in deck.cards:
        found = catalogue.classes_of(card)
        if found is None:
            known = known or _ids(catalogue)
            guess = difflib.get_close_matches(card, known, n=1)
            hint = f" (did you mean {guess[0]}?)" if guess else ""
            problems.append(f"no card called {card!r}{hint}")
            continue
        classes.update(found)
        if n > rules.max_copies and card not in rules.unlimited:
            problems.append(f"{card}: {n} copies, at most {rules.max_copies}")
        if catalogue.is_token(card) and not rules.tokens_allowed:
            problems.append(f"{card} is a token: tokens cannot be put in decks")
    if deck.size != rules.size:
        problems.append(f"{rules.size} cards needed, this deck has {deck.size}")
    if classes and not rules.min_classes <= len(classes) <= rules.max_classes:
        listed = ", ".join(sorted(classes))
        problems.append(
            f"{len(classes)} classes ({listed}): a deck has {rules.min_classes} to "
            f"{rules.max_classes}"
        )
    return problems


def _ids(catalogue: Catalogue) -> list[str]:
    by_id = getattr(catalogue, "by_id", None)
    return sorted(by_id) if isinstance(by_id, Mapping) else []


def shipped_decks(package: str) -> list[DeckList]:
    """The decks shipped in a game package's `decks/` folder, by file name."""
    folder = resources.files(package).joinpath("decks")
    out = []
    for item in sorted(folder.iterdir(), key=lambda f: f.name):
        if item.name.endswith(".toml"):
            stem = item.name.removesuffix(".toml")
            out.append(parse_deck(item.read_bytes(), f"{package}/decks/{item.name}", stem))
    return out


def seat_deck(game: object, name_or_path: str) -> dict[str, int]:
    """The deck a seat brings to a table (a shipped deck's name or a deck file), checked
    against the game's rules; DeckError says what is wrong."""
    if not isinstance(game, OwnDecksGame):
        name = getattr(game, "name", "this game")
        raise DeckError(f"{name} is played with one shared deck: no --deck")
    deck = find_deck(type(game).__module__, name_or_path)
    try:
        return game.deck(deck)
    except P2PCardsError as exc:
        raise DeckError(f"--deck {name_or_path}: {exc}") from None


def find_deck(package: str, name_or_path: str) -> DeckList:
    """A shipped deck by its file stem, or a deck file by its path."""
    for deck in shipped_decks(package):
        if deck.id == name_or_path:
            return deck
    if name_or_path.endswith(".toml") or "/" in name_or_path or Path(name_or_path).exists():
        return load_deck(name_or_path)
    names = ", ".join(d.id for d in shipped_decks(package))
    raise DeckError(f"no shipped deck called {name_or_path!r} and no such file; shipped: {names}")


DeckSpec = str | Mapping[str, int] | DeckList
"""A seat's deck: a shipped deck's name, card counts by id, or a deck list read from a file."""


class OwnDecksBase:
    """What every game of own decks does alike, once: its shipped decks, a deck checked
    against its rules, the copies its mental-poker points cover, and the options every
    such game takes (`decks`, `round_cap`). A game mixes it in before `Game`."""

    name: ClassVar[str]
    deck_rules: ClassVar[DeckRules]
    default_decks: ClassVar[tuple[str, ...]]

    @property
    def catalogue(self) -> Catalogue:
        """The cards decks are built from."""
        raise NotImplementedError

    def deck_cards(self) -> Sequence[str]:
        """The ids of the cards a deck may hold, in the set's order."""
        raise NotImplementedError

    def default_deck(self, seat: int) -> str:
        """The shipped deck `seat` plays when none is given: the defaults in turn, cycling,
        so a table of any size has one for every seat."""
        return self.default_decks[seat % len(self.default_decks)]

    @cached_property
    def decks(self) -> dict[str, DeckList]:
        """The shipped decks by file stem."""
        return {deck.id: deck for deck in shipped_decks(type(self).__module__)}

    def physical_cards(self) -> list[str]:
        """A game of own decks has no shared deck: each table's decks make its cards."""
        return []

    def card_universe(self) -> list[str]:
        """Every copy a legal deck may hold of every card (an unlimited card: a deck's worth)."""
        rules = self.deck_rules
        return [
            card
            for card in self.deck_cards()
            for _ in range(rules.size if card in rules.unlimited else rules.max_copies)
        ]

    def deck(self, spec: DeckSpec) -> dict[str, int]:
        """A seat's deck as card counts, checked against the deck rules; GameOptionError lists
        every rule it breaks."""
        if isinstance(spec, str):
            found = self.decks.get(spec)
            if found is None:
                known = ", ".join(sorted(self.decks))
                raise GameOptionError(f"no shipped deck called {spec!r}; shipped: {known}")
            spec = found
        deck = spec if isinstance(spec, DeckList) else DeckList.from_counts(self.name, spec)
        if deck.game and deck.game != self.name:  # its cards are another game's: say that alone
            raise GameOptionError(f"deck {deck.name!r} is for {deck.game}, not {self.name}")
        problems = deck_problems(deck, self.deck_rules, self.catalogue)
        if problems:
            raise GameOptionError(f"deck {deck.name!r} is not legal: " + "; ".join(problems))
        return deck.counts()

    def shipped_decks_model(self, card_index: Mapping[str, int]) -> KnownDecksModel:
        """A deck model that guesses an unseen decklist from the shipped decks, for a set
        whose cards have no classes (`card_index`: the set's card ids in order)."""
        rows = deck_rows(card_index, [deck.counts() for deck in self.decks.values()])
        traits = [CardTraits(frozenset(), False) for _ in card_index]
        rules = self.deck_rules
        return KnownDecksModel(
            traits,
            [row for row in rows if row is not None],
            size=rules.size,
            max_copies=rules.max_copies,
            max_classes=0,
        )

    def table_options(
        self, num_players: int, options: dict[str, Any], cap_unit: str
    ) -> tuple[list[dict[str, int] | None], int | None]:
        """The seats' decks as counts (None: another seat's, unknown here) and the cap, from
        the options of `new_initial_state`; GameOptionError for anything else or wrong."""
        decks: Sequence[DeckSpec | None] | None = options.pop("decks", None)
        round_cap = options.pop("round_cap", None)
        if options:
            raise GameOptionError(f"unknown {self.name} options: {', '.join(sorted(options))}")
        if round_cap is not None and (
            not isinstance(round_cap, int) or isinstance(round_cap, bool) or round_cap < 1
        ):
            raise GameOptionError(
                f"round_cap must be a positive number of {cap_unit}, not {round_cap!r}"
            )
        if decks is None:
            decks = [self.default_deck(seat) for seat in range(num_players)]
        if isinstance(decks, str | Mapping) or len(decks) != num_players:
            raise GameOptionError(f"decks must give one deck per seat ({num_players})")
        if all(d is None for d in decks):
            raise GameOptionError("at least one deck must be known")
        return [None if d is None else self.deck(d) for d in decks], round_cap


def deck_rows(
    card_index: Mapping[str, int], decks: Sequence[Mapping[str, int] | None]
) -> list[list[int] | None]:
    """Decks as copies by card kind (rows of the set's length; None stays None)."""
    rows: list[list[int] | None] = []
    for deck in decks:
        if deck is None:
            rows.append(None)
            continue
        row = [0] * len(card_index)
        for card, n in deck.items():
            row[card_index[card]] += n
        rows.append(row)
    return rows
