"""Static tables of Rise of the Guys: the numbers of the rulebook, keyword bits, and what each
card kind does, read once from the card database."""

from __future__ import annotations

from p2pcards.engine import Game
from p2pcards.games.rise_of_the_guys.cards import CardDatabase
from p2pcards.interpreter import CardBook, Facts
from p2pcards.zones import DeckModel, ZoneRules

LIFE = 20  # line 65
HAND_SIZE = 5  # line 65
LANES = 4  # line 60
DECK_SIZE = 40  # line 119
STINKY_FACE_DOWN = 99
"""The damage a Stinky Guy leaves on a face-down Guy, whose health it cannot read: more than
any Guy's health, so it dies once it is revealed (rules.md §39)."""

# Keywords are code (docs/abilities.md): one bit each, so a card's keywords are one int.
SNEAKY, OVERARCH, PATIENT, STINKY, UNHURTABLE = 1, 2, 4, 8, 16
KEYWORDS = {
    "sneaky": SNEAKY,
    "overarch": OVERARCH,
    "patient": PATIENT,
    "stinky": STINKY,
    "unhurtable": UNHURTABLE,
}


def keyword_bits(names: frozenset[str] | tuple[str, ...]) -> int:
    """The bits of a set of keyword names."""
    bits = 0
    for name in names:
        bits |= KEYWORDS[name]
    return bits


class GuyRules(ZoneRules):
    """The card database with per-kind tables the rules read in their inner loops."""

    def __init__(self, game: Game, db: CardDatabase, deck_model: DeckModel | None) -> None:
        super().__init__(game, db.cards, deck_model)
        self.db = db
        self.cards = db.cards
        self.keywords = [keyword_bits(c.keywords) for c in db.cards]
        self.abilities = [c.abilities for c in db.cards]
        self.book = CardBook.of(
            self.abilities,
            [Facts(c.id, c.type, c.tribes, c.classes, c.token, c.cost) for c in db.cards],
            KEYWORDS,
            seat_order="table",
            hidden_in_play=True,  # a Sneaky Guy lies face down until revealed
            blind_types=frozenset({"prank", "pin"}),  # line 199: a Guy's abilities reach it
        )
        self.prepares = [any(a.trigger == "prepare" for a in c.abilities) for c in db.cards]
        self.statics = [
            tuple(i for i, a in enumerate(c.abilities) if a.trigger == "static") for c in db.cards
        ]
        self.has_static = [bool(s) for s in self.statics]
        # Cards whose statics grant a keyword: only they can answer `has` beyond the printed
        # and granted bits, so `has` looks for the others' statics not at all.
        self.grants_statically = [
            any(e.do == "grant" for i in s for e in c.abilities[i].effects)
            for s, c in zip(self.statics, db.cards, strict=True)
        ]
        # Whether any static ability lowers health: if none does, a Guy whose damage is below
        # its health without the statics survives them, and the death check skips the statics.
        self.static_health_loss = any(
            (e.health or 0) < 0
            for c in db.cards
            for a in c.abilities
            if a.trigger == "static"
            for e in a.effects
        )
