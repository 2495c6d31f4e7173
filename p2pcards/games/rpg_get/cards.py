"""RPG Get!'s card set: cards.toml beside this package, read once and checked field by field.

Every card is one of the rulebook's six types (line 69–90) with the structured fields its type
has: a Character's HP, cost, classifications and the name it shares with its other levels
(line 39, 73); a Mission's VP, PP, EP and RP (line 80–84); an Enemy's HP, size and Boss
keyword (line 86, 52); a Roadblock's size and the attack it makes when played (line 88); a
Reward's RP cost, the classifications a user needs (line 158) and where it goes after use
(line 130). Characters, Enemies, Roadblocks and Rewards carry combat actions (line 91–104):
`attack` damage X(Y) (line 122), `defense` (less damage from the attack it answers),
`recovery` (heal X on up to Y targets), `support` (the user's side's next attack this attempt
deals +X, line 116: a `+X (_)` modifier, or hits Y more targets: `_(+Y)`); an amount `*` is
the unmodifiable 0 of line 117. Ability and Intrinsic actions (line 93–96) and Event cards (line
76–78) are abilities in the shared vocabulary (docs/abilities.md), read by the one interpreter:
`activated` is an Ability (its cost in reward counters), `static` and `start_of_turn` are
Intrinsics, `played` is what an Event does; `WORDS` are the words this game supports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, get_args

from p2pcards.abilities import Ability, Vocabulary, Words, parse_abilities
from p2pcards.carddb import entries, read_toml, require
from p2pcards.errors import CardDataError

CardType = Literal["character", "event", "mission", "enemy", "roadblock", "reward"]
ActionKind = Literal["attack", "defense", "recovery", "support"]
Status = Literal["poison", "paralysis", "block", "sleep", "confusion", "stun"]
AfterUse = Literal["bank", "discard"]
When = Literal["play", "attempt", "enemy_step"]
"""When an Event may be played (line 77): in its player's own Play phase; during any mission
attempt, by any seat, in a response window or at the attempter's turn to act; or by a seat
playing in the Enemy step (rules.md, choice 35)."""
WHENS: tuple[When, ...] = get_args(When)
CARD_TYPES: tuple[CardType, ...] = get_args(CardType)
ACTION_KINDS: tuple[ActionKind, ...] = get_args(ActionKind)
STATUSES: tuple[Status, ...] = get_args(Status)
KEYWORDS = frozenset({"melee", "magic", "move", "ranged", "fire", "ice", "item"})
"""The keywords an action or a Reward may carry (line 147): Melee, Magic and Move are read by
the rules (Block, line 172); the others only describe."""
CLASSES = frozenset({"warrior", "mage", "healer", "gunner", "thief", "hunter", "android"})
TRIBES = frozenset({"rappy", "beast", "plant", "insect", "machine", "dragon", "undead", "pirate"})
"""The families an enemy belongs to (what a Recruit may look for, line 154)."""
WORDS = Words.of(
    triggers=("played", "start_of_turn", "static", "activated"),
    verbs=("damage", "heal", "draw", "energy", "modify", "status", "cure", "rank", "resurrect",
           "recruit", "bank_destroy", "unscore"),
    selector=("what", "side", "pick", "count", "optional", "self", "class", "tribe"),
    effect=("amount", "target", "attack", "health", "duration", "who", "card", "tribe",
            "status", "rank"),
    ability=("cost",),
    cost=("resource",),
    values=("member", "enemy", "fighter", "party_member", "unconscious", "scored", "you",
            "each_opponent", "every_seat", "this", "same", "choose", "random", "all", "exclude",
            "turn", "permanent", "front", "middle", "back"),
)  # fmt: skip
"""The words of docs/abilities.md RPG Get! supports; the loader refuses any other."""
MAX_TARGETS = 3
PACKAGE = __name__.rpartition(".")[0]
_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@dataclass(frozen=True, slots=True)
class CombatAction:
    """One combat action printed on a card (line 96–104): its kind, its amount (damage, heal,
    damage prevented or damage added), its most targets (Y of X(Y); 0 for none), its
    keywords, and the status its targets get when it hits (a status ailment, line 168)."""

    kind: ActionKind
    amount: int
    targets: int
    keywords: frozenset[str]
    inflicts: Status | None
    combo: int = 0
    """Line 133: how many times the attack may be used again at once, on the same targets."""
    fixed: bool = False
    """Line 117: the amount is `*`, an unmodifiable 0 (an attack that only gives its status)."""
    more: int = 0
    """A Support's `_(+Y)` (line 116): the next attack has Y more targets."""
    party: bool = False
    """A Recovery that chooses "party member"s (line 125): any of its owner's party, active
    or not, in or out of an attempt; this is not targeting."""

    def __str__(self) -> str:
        if self.kind == "attack" and self.fixed:
            text = f"attack *({self.targets})"
        elif self.kind == "attack":
            text = f"attack {self.amount}({self.targets})"
        elif self.kind == "recovery" and self.party:
            text = f"recovery {self.amount} on {self.targets} party member(s)"
        elif self.kind == "recovery":
            text = f"recovery {self.amount}({self.targets})"
        elif self.kind == "defense":
            text = f"defense -{self.amount}"
        elif self.more:
            text = f"support _(+{self.more})"
        else:
            text = f"support +{self.amount} (_)"
        if self.keywords:
            text += " " + "/".join(sorted(self.keywords))
        text += f", combo {self.combo}" if self.combo else ""
        return text + (f", {self.inflicts}" if self.inflicts else "")


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the set; fields a type does not have are 0, empty or False."""

    id: str
    name: str
    type: CardType
    person: str
    """A Character's name without its level (line 39, 73): a duplicate replaces."""
    hp: int
    cost: int
    classes: frozenset[str]
    size: int
    boss: bool
    vp: int
    pp: int
    ep: int
    rp: int
    after_use: AfterUse
    keywords: frozenset[str]
    actions: tuple[CombatAction, ...]
    text: str
    abilities: tuple[Ability, ...] = ()
    tribe: str = ""
    """An enemy's family (a Recruit looks for one, line 154)."""
    when: When = "play"
    """An Event's timing (line 77)."""

    def __hash__(self) -> int:
        # By the id alone (equal cards share it: a set names each card once), since an
        # evaluation looks cards up by value at every leaf of a search, and hashing every
        # field, actions and abilities down to their ints, was a tenth of RPG Get!'s search.
        return hash(self.id)


class CardDatabase:
    """The set, read from cards.toml beside this module."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        data = read_toml(PACKAGE, "cards.toml") if data is None else data
        listed = list(entries(data, "card"))
        known = {str(entry.get("id")): False for _, entry in listed}  # no tokens
        vocabulary = Vocabulary(WORDS, (), known, (), statuses=STATUSES)
        cards = [_card(entry, where, vocabulary) for where, entry in listed]
        ids = [c.id for c in cards]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise CardDataError(f"cards.toml names a card twice: {', '.join(dupes)}")
        self.cards = tuple(cards)
        self.by_id = {c.id: c for c in cards}
        self.index = {c.id: i for i, c in enumerate(cards)}

    def classes_of(self, card: str) -> tuple[str, ...] | None:
        """Decks of RPG Get! have no class rule: () for a card of the set, None for none."""
        return None if card not in self.by_id else ()

    def is_token(self, card: str) -> bool:
        """The set has no tokens."""
        return False


def _card(entry: dict[str, Any], where: str, vocabulary: Vocabulary) -> Card:
    card_id = require(entry, "id", str, where)
    if not _ID.fullmatch(card_id):
        raise CardDataError(f"{where}: id {card_id!r} must be lowercase words joined by hyphens")
    where = f"card {card_id!r}"
    kind = require(entry, "type", str, where)
    if kind not in CARD_TYPES:
        raise CardDataError(f"{where}: type {kind!r} is not one of {', '.join(CARD_TYPES)}")
    allowed = _FIELDS[kind] | _COMMON
    extra = sorted(set(entry) - allowed)
    if extra:
        raise CardDataError(f"{where}: a {kind} has no field {', '.join(map(repr, extra))}")

    def number(key: str, low: int, high: int) -> int:
        value: int = require(entry, key, int, where, low=low, high=high)
        return value

    def words(key: str, vocabulary: frozenset[str]) -> frozenset[str]:
        values = entry.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise CardDataError(f"{where}: field {key!r} must be a list of words")
        unknown = sorted(set(values) - vocabulary)
        if unknown:
            raise CardDataError(f"{where}: field {key!r} has unknown words {unknown}")
        return frozenset(values)

    is_char, is_enemy = kind == "character", kind == "enemy"
    after = entry.get("after_use", "discard")
    if after not in get_args(AfterUse):
        raise CardDataError(f"{where}: field 'after_use' must be 'bank' or 'discard'")
    actions = tuple(
        _action(item, f"{where}: action {i + 1}")
        for i, item in enumerate(_list(entry, "actions", where))
    )
    if kind == "roadblock" and [a.kind for a in actions] != ["attack"]:
        raise CardDataError(f"{where}: a roadblock has exactly one action, an attack")
    if kind == "mission" and actions:
        raise CardDataError(f"{where}: a mission has no actions")
    abilities = parse_abilities(entry.get("ability"), where, vocabulary)
    if kind == "event" and [a.trigger for a in abilities] != ["played"]:
        raise CardDataError(f"{where}: an event has exactly one ability, played")
    if kind != "event" and any(a.trigger == "played" for a in abilities):
        raise CardDataError(f"{where}: only an event has a 'played' ability")
    when = entry.get("when", "play")
    if when not in WHENS:
        raise CardDataError(f"{where}: field 'when' must be one of {', '.join(WHENS)}")
    tribe = entry.get("tribe", "")
    if is_enemy and tribe not in TRIBES:
        raise CardDataError(f"{where}: field 'tribe' must be one of {', '.join(sorted(TRIBES))}")
    return Card(
        id=card_id,
        name=require(entry, "name", str, where),
        type=kind,
        person=require(entry, "person", str, where) if is_char else "",
        hp=number("hp", 1, 20) if is_char or is_enemy else 0,
        cost=number("cost", 0, 10) if is_char else 0,
        classes=words("classes", CLASSES),
        size=number("size", 1, 10) if kind in ("enemy", "roadblock") else 0,
        boss=bool(require(entry, "boss", bool, where)) if "boss" in entry else False,
        vp=number("vp", 1, 10) if kind == "mission" else 0,
        pp=number("pp", 0, 30) if kind == "mission" else 0,
        ep=number("ep", 0, 30) if kind == "mission" else 0,
        rp=number("rp", 0, 20) if kind in ("mission", "reward") else 0,
        after_use=after,
        keywords=words("keywords", KEYWORDS),
        actions=actions,
        text=require(entry, "text", str, where) if "text" in entry else "",
        abilities=abilities,
        tribe=tribe,
        when=when,
    )


_COMMON = frozenset({"id", "name", "type", "text", "keywords", "source"})
_FIELDS: dict[str, frozenset[str]] = {
    "character": frozenset({"person", "hp", "cost", "classes", "actions", "ability"}),
    "event": frozenset({"when", "ability"}),
    "mission": frozenset({"vp", "pp", "ep", "rp"}),
    "enemy": frozenset({"hp", "size", "boss", "tribe", "actions", "ability"}),
    "roadblock": frozenset({"size", "actions"}),
    "reward": frozenset({"rp", "classes", "after_use", "actions", "ability"}),
}


def _list(entry: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    items = entry.get(key, [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise CardDataError(f"{where}: field {key!r} must be a list of tables")
    return items


def _action(item: dict[str, Any], where: str) -> CombatAction:
    kind = require(item, "kind", str, where)
    if kind not in ACTION_KINDS:
        raise CardDataError(f"{where}: kind {kind!r} is not one of {', '.join(ACTION_KINDS)}")
    known = {"kind", "amount", "targets", "keywords", "inflicts", "combo", "more", "party"}
    extra = sorted(set(item) - known)
    if extra:
        raise CardDataError(f"{where}: an action has no field {', '.join(map(repr, extra))}")
    fixed = item.get("amount") == "*"
    if fixed and kind != "attack":
        raise CardDataError(f"{where}: only an attack's damage may be '*' (line 117)")
    more = require(item, "more", int, where, low=1, high=2) if "more" in item else 0
    if more and kind != "support":
        raise CardDataError(f"{where}: only a support adds targets, _(+Y)")
    party = bool(require(item, "party", bool, where)) if "party" in item else False
    if party and kind != "recovery":
        raise CardDataError(f"{where}: only a recovery chooses party members")
    targeted = kind in ("attack", "recovery")
    targets = require(item, "targets", int, where, low=1, high=MAX_TARGETS) if targeted else 0
    if not targeted and "targets" in item:
        raise CardDataError(f"{where}: a {kind} action has no targets")
    keywords = item.get("keywords", [])
    if not isinstance(keywords, list) or not set(keywords) <= KEYWORDS:
        raise CardDataError(f"{where}: field 'keywords' must list words of {sorted(KEYWORDS)}")
    inflicts = item.get("inflicts")
    if inflicts is not None and (kind != "attack" or inflicts not in STATUSES):
        raise CardDataError(f"{where}: only an attack inflicts, one of {', '.join(STATUSES)}")
    combo = require(item, "combo", int, where, low=1, high=3) if "combo" in item else 0
    if combo and kind != "attack":
        raise CardDataError(f"{where}: only an attack has a combo")
    amount = (
        0
        if fixed or (more and "amount" not in item)
        else require(item, "amount", int, where, low=0, high=20)
    )
    return CombatAction(
        kind, amount, targets, frozenset(keywords), inflicts, combo, fixed, more, party,
    )  # fmt: skip


def load() -> CardDatabase:
    """The shipped set."""
    return CardDatabase()
