"""The card vocabulary (docs/abilities.md) as data: what a collectible game's `cards.toml`
may say of a card's abilities, parsed once and checked at load.

Everything here is frozen and made of tuples, so a card database is shared by every state.
Nothing is specific to one game beyond the words of the vocabulary: the game passes the
keywords its rules implement and the ids of its cards (for tokens). Anything wrong raises
CardDataError naming the card, the ability, the effect and the field.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from p2pcards.errors import CardDataError

Trigger = Literal[
    "played", "enhanced", "revealed", "destroyed", "start_of_turn", "end_of_turn",
    "card_played", "token_made", "vengeful", "prepare", "static", "activated",
]  # fmt: skip
Verb = Literal[
    "damage", "heal", "destroy", "modify", "grant", "move", "return", "loot", "draw", "draw_to",
    "discard", "token", "energy", "play_free", "handler", "level", "mode", "tap", "untap",
    "search", "recycle", "status", "cure", "rank", "resurrect", "recruit", "bank_destroy",
    "unscore",
]  # fmt: skip
What = Literal[
    "guy", "player", "pin", "hand_card", "character", "building", "weapon", "pylon", "entity",
    "member", "enemy", "fighter", "party_member", "unconscious", "scored",
]  # fmt: skip
Relation = Literal["you", "each_opponent", "every_seat", "left_of"]
"""Seats named from the controller's side, for any number of seats: you; each opponent; every
seat; the seat to your left (the next in turn order). Read for sides, `who` and `by`."""
Side = Relation
LaneRule = Literal["this", "opposing", "other", "adjacent", "any"]
CardType = Literal["guy", "prank", "pin"]
Face = Literal["up", "down", "any"]
PickMode = Literal["choose", "random", "all"]
Ref = Literal["this", "holder", "you", "each_opponent", "every_seat", "left_of", "trigger", "same"]
Duration = Literal["turn", "permanent"]
Who = Relation
How = Literal["random", "choose"]
Where = Literal["this_lane", "choose_lane", "each_empty_lane"]
By = Relation
SelfRule = Literal["exclude", "only"]
Mode = Literal["attack", "defense"]
Rank = Literal["front", "middle", "back"]

MAX_AMOUNT = 20
MAX_COUNT = 10


@dataclass(frozen=True, slots=True)
class Selector:
    """What an effect or a condition reaches (docs/abilities.md, "Selectors")."""

    what: What = "guy"
    side: Side = "every_seat"
    lane: LaneRule | None = None
    tribe: str | None = None
    cls: str | None = None
    type: CardType | None = None
    token: bool | None = None
    self_: SelfRule | None = None
    attack_at_least: int | None = None
    health_at_least: int | None = None
    cost_at_most: int | None = None
    face: Face | None = None
    pick: PickMode = "choose"
    count: int = 1
    optional: bool = False
    ref: Ref | None = None


@dataclass(frozen=True, slots=True)
class Condition:
    """What must hold for an ability to fire (every key given)."""

    unopposed: bool | None = None
    opposed: bool | None = None
    count: Selector | None = None
    at_least: int | None = None
    at_most: int | None = None
    life_at_most: int | None = None
    hand_at_most: int | None = None
    mode: Mode | None = None
    holder_tribe: str | None = None
    holder_attack_at_least: int | None = None


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing an ability does (`do`), with the fields its verb reads."""

    do: Verb
    amount: int | Literal["full"] | None = None
    target: Selector | None = None
    attack: int | None = None
    health: int | None = None
    duration: Duration | None = None
    keyword: str | None = None
    who: Who | None = None
    how: How | None = None
    card: str | None = None
    where: Where | None = None
    side: Side | None = None
    count: int | None = None
    name: str | None = None
    defense: int | None = None
    what: What | None = None
    tribe: str | None = None
    status: str | None = None
    """The status ailment a `status` effect gives (one of the game's `Vocabulary.statuses`)."""
    rank: Rank | None = None


@dataclass(frozen=True, slots=True)
class Cost:
    """What an activated ability costs: tapping this card (or a weapon's holder), gas or
    energy (the game's resource), Jiggawatts (tapped Pylons)."""

    tap: bool = False
    holder_tap: bool = False
    resource: int = 0
    jiggawatts: int = 0


@dataclass(frozen=True, slots=True)
class Ability:
    """A trigger, an optional condition and the effects, in the order printed."""

    trigger: Trigger
    effects: tuple[Effect, ...]
    by: By | None = None
    filter: Selector | None = None
    amount: int | None = None
    condition: Condition | None = None
    cost: Cost | None = None


@dataclass(frozen=True, slots=True)
class Words:
    """The words of the vocabulary a game supports (DESIGN.md §10, docs/abilities.md): its
    triggers, its verbs, the fields of each table it reads (`selector`, `condition`,
    `effect`, `ability`, `cost`), and the words a field may hold (a `what`, a side, a pick,
    a shorthand target, ...). Its loader refuses any other word, so that a card can never
    silently do less than its text."""

    triggers: frozenset[str]
    verbs: frozenset[str]
    fields: Mapping[str, frozenset[str]]
    values: frozenset[str]

    @classmethod
    def of(
        cls,
        *,
        triggers: Collection[str],
        verbs: Collection[str],
        values: Collection[str],
        selector: Collection[str] = (),
        condition: Collection[str] = (),
        effect: Collection[str] = (),
        ability: Collection[str] = (),
        cost: Collection[str] = (),
    ) -> Words:
        """A game's declaration, field names by the table they belong to."""
        tables = {"selector": selector, "condition": condition, "effect": effect,
                  "ability": ability, "cost": cost}  # fmt: skip
        return cls(
            frozenset(triggers),
            frozenset(verbs),
            {name: frozenset(keys) for name, keys in tables.items()},
            frozenset(values),
        )


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What a game adds to the words: the words it supports, its keywords, its cards (id ->
    is a token), its handlers, the largest amount its numbers reach (life 20, or a Power
    Level of 9000), and the stats `modify` may change."""

    words: Words
    keywords: Collection[str]
    cards: Mapping[str, bool]
    handlers: Collection[str]
    max_amount: int = MAX_AMOUNT
    stats: tuple[str, ...] = ("attack", "health")
    statuses: Collection[str] = ()
    """The status ailments a `status` effect may give (RPG Get!: poison, sleep, ...)."""


def _choice(value: object, kind: Any, where: str, field: str) -> Any:
    allowed = get_args(kind)
    if value not in allowed:
        raise CardDataError(
            f"{where}: field {field!r} must be one of {', '.join(allowed)}, got {value!r:.60}"
        )
    return value


def _int(value: object, where: str, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CardDataError(f"{where}: field {field!r} must be an int, got {value!r:.60}")
    if not low <= value <= high:
        raise CardDataError(f"{where}: field {field!r} must be in {low}..{high}, got {value}")
    return value


def _bool(value: object, where: str, field: str) -> bool:
    if not isinstance(value, bool):
        raise CardDataError(f"{where}: field {field!r} must be true or false, got {value!r:.60}")
    return value


def _name(value: object, where: str, field: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 40:
        raise CardDataError(f"{where}: field {field!r} must be a short text, got {value!r:.60}")
    return value


def _table(value: object, where: str, allowed: Collection[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise CardDataError(f"{where} must be a table, got {value!r:.60}")
    unknown = sorted(set(value) - set(allowed))
    if unknown:
        raise CardDataError(
            f"{where}: unknown field {unknown[0]!r}; known: {', '.join(sorted(allowed))}"
        )
    return value


_SELECTOR_KEYS = {
    "what", "side", "lane", "tribe", "class", "type", "token", "self", "attack_at_least",
    "health_at_least", "cost_at_most", "face", "pick", "count", "optional",
}  # fmt: skip


def parse_selector(
    value: object, where: str, *, filter_only: bool = False, limit: int = MAX_AMOUNT
) -> Selector:
    """A selector from its TOML form: a shorthand string or a table (numbers up to `limit`)."""
    if isinstance(value, str):
        return Selector(ref=_choice(value, Ref, where, "target"))
    data = _table(value, where, _SELECTOR_KEYS)
    if filter_only and ("pick" in data or "count" in data or "optional" in data):
        raise CardDataError(f"{where}: a filter picks nothing (no pick, count or optional)")
    get = data.get

    def number(key: str) -> int | None:
        return None if key not in data else _int(data[key], where, key, 0, limit)

    sel = Selector(
        what=_choice(get("what", "guy"), What, where, "what"),
        side=_choice(get("side", "every_seat"), Side, where, "side"),
        lane=None if "lane" not in data else _choice(data["lane"], LaneRule, where, "lane"),
        tribe=None if "tribe" not in data else _name(data["tribe"], where, "tribe"),
        cls=None if "class" not in data else _name(data["class"], where, "class"),
        type=None if "type" not in data else _choice(data["type"], CardType, where, "type"),
        token=None if "token" not in data else _bool(data["token"], where, "token"),
        self_=None if "self" not in data else _choice(data["self"], SelfRule, where, "self"),
        face=None if "face" not in data else _choice(data["face"], Face, where, "face"),
        pick=_choice(get("pick", "choose"), PickMode, where, "pick"),
        count=_int(get("count", 1), where, "count", 1, MAX_COUNT),
        optional=_bool(get("optional", False), where, "optional"),
        attack_at_least=number("attack_at_least"),
        health_at_least=number("health_at_least"),
        cost_at_most=number("cost_at_most"),
    )
    if sel.what == "hand_card" and sel.pick == "random":
        raise CardDataError(
            f"{where}: a hand card cannot be picked at random (the hand is its owner's secret)"
        )
    return sel


_CONDITION_KEYS = {"unopposed", "opposed", "count", "at_least", "at_most", "life_at_most",
                   "hand_at_most", "mode", "holder_tribe", "holder_attack_at_least"}  # fmt: skip


def parse_condition(value: object, where: str, limit: int = MAX_AMOUNT) -> Condition:
    """A condition from its TOML table (numbers up to `limit`, or 99)."""
    data = _table(value, where, _CONDITION_KEYS)
    if ("at_least" in data or "at_most" in data) and "count" not in data:
        raise CardDataError(f"{where}: at_least and at_most need a count selector")
    if not data:
        raise CardDataError(f"{where}: an empty condition says nothing")

    def number(key: str) -> int | None:
        return None if key not in data else _int(data[key], where, key, 0, max(99, limit))

    return Condition(
        unopposed=None if "unopposed" not in data else _bool(data["unopposed"], where, "unopposed"),
        opposed=None if "opposed" not in data else _bool(data["opposed"], where, "opposed"),
        count=None
        if "count" not in data
        else _not_same(parse_selector(data["count"], f"{where}: count", limit=limit), where),
        at_least=number("at_least"),
        at_most=number("at_most"),
        life_at_most=number("life_at_most"),
        hand_at_most=number("hand_at_most"),
        mode=None if "mode" not in data else _choice(data["mode"], Mode, where, "mode"),
        holder_tribe=None
        if "holder_tribe" not in data
        else _name(data["holder_tribe"], where, "holder_tribe"),
        holder_attack_at_least=number("holder_attack_at_least"),
    )


# Which fields each verb takes, beyond `do` (a field a verb does not read is refused: a typo
# must not pass as a card that silently does less).
_VERB_FIELDS: dict[str, frozenset[str]] = {
    "damage": frozenset({"amount", "target"}),
    "heal": frozenset({"amount", "target"}),
    "destroy": frozenset({"target"}),
    "modify": frozenset({"attack", "health", "defense", "target", "duration"}),
    "grant": frozenset({"keyword", "target", "duration"}),
    "move": frozenset({"target"}),
    "return": frozenset({"target"}),
    "loot": frozenset({"amount"}),
    "draw": frozenset({"amount", "who"}),
    "draw_to": frozenset({"amount"}),
    "discard": frozenset({"amount", "who", "how"}),
    "token": frozenset({"card", "where", "side", "count"}),
    "energy": frozenset({"amount"}),
    "play_free": frozenset({"target"}),
    "handler": frozenset({"name", "target"}),
    "level": frozenset({"amount", "target"}),
    "mode": frozenset({"target"}),
    "tap": frozenset({"target"}),
    "untap": frozenset({"target"}),
    "search": frozenset({"card", "what", "tribe"}),
    "recycle": frozenset(),
    "status": frozenset({"status", "target"}),
    "cure": frozenset({"target"}),
    "rank": frozenset({"rank", "target"}),
    "resurrect": frozenset({"amount", "target"}),
    "recruit": frozenset({"card", "tribe"}),
    "bank_destroy": frozenset({"amount", "who"}),
    "unscore": frozenset({"target"}),
}
_NEEDS: dict[str, tuple[str, ...]] = {
    "damage": ("amount", "target"),
    "heal": ("amount", "target"),
    "destroy": ("target",),
    "modify": ("target",),
    "grant": ("keyword", "target"),
    "move": ("target",),
    "return": ("target",),
    "loot": ("amount",),
    "draw": ("amount",),
    "draw_to": ("amount",),
    "discard": ("amount",),
    "token": ("card", "where"),
    "energy": ("amount",),
    "play_free": ("target",),
    "handler": ("name",),
    "level": ("amount", "target"),
    "mode": ("target",),
    "tap": ("target",),
    "untap": ("target",),
    "search": (),
    "recycle": (),
    "status": ("status", "target"),
    "cure": ("target",),
    "rank": ("rank", "target"),
    "resurrect": ("target",),
    "recruit": (),
    "bank_destroy": ("amount",),
    "unscore": ("target",),
}


def parse_effect(value: object, where: str, words: Vocabulary) -> Effect:
    """One effect from its TOML table, checked against its verb."""
    if not isinstance(value, Mapping):
        raise CardDataError(f"{where} must be a table, got {value!r:.60}")
    do = _choice(value.get("do"), Verb, where, "do")
    data = _table(value, where, _VERB_FIELDS[do] | {"do"})
    for field in _NEEDS[do]:
        if field not in data:
            raise CardDataError(f"{where}: a {do!r} effect needs field {field!r}")
    amount: int | Literal["full"] | None = None
    top = words.max_amount
    if "amount" in data:
        full = do == "heal" and data["amount"] == "full"
        low, high = (-10, 10) if do == "level" else (0, top)
        amount = "full" if full else _int(data["amount"], where, "amount", low, high)
    target = None
    if "target" in data:
        target = parse_selector(data["target"], f"{where}: target", limit=top)
    if do == "play_free" and target is not None and target.what != "hand_card":
        raise CardDataError(
            f"{where}: play_free's target must select hand cards (what = hand_card)"
        )
    if do != "play_free" and target is not None and target.what == "hand_card":
        raise CardDataError(f"{where}: only play_free reaches into a hand")
    keyword = None
    if "keyword" in data:
        keyword = _name(data["keyword"], where, "keyword")
        if keyword not in words.keywords:
            known = ", ".join(sorted(words.keywords))
            raise CardDataError(f"{where}: unknown keyword {keyword!r}; known: {known}")
    card = None
    if "card" in data:
        card = _name(data["card"], where, "card")
        if do in ("search", "recruit") and card not in words.cards:
            raise CardDataError(f"{where}: {card!r} is not a card of this set")
        if do not in ("search", "recruit") and not words.cards.get(card, False):
            raise CardDataError(f"{where}: {card!r} is not a token card of this set")
    if do == "search" and "card" not in data and "what" not in data:
        raise CardDataError(f"{where}: a 'search' names a card or what kind of card (what)")
    if do == "recruit" and ("card" in data) == ("tribe" in data):
        raise CardDataError(f"{where}: a 'recruit' names a card or a tribe, one of the two")
    status = None
    if "status" in data:
        status = _name(data["status"], where, "status")
        if status not in words.statuses:
            known = ", ".join(sorted(words.statuses)) or "none"
            raise CardDataError(f"{where}: unknown status {status!r}; known: {known}")
    for stat in ("attack", "health", "defense"):
        if stat in data and stat not in words.stats:
            raise CardDataError(f"{where}: this game's cards have no {stat!r} to modify")
    name = None
    if "name" in data:
        name = _name(data["name"], where, "name")
        if name not in words.handlers:
            raise CardDataError(f"{where}: no handler called {name!r} in code")
    effect = Effect(
        do=do,
        amount=amount,
        target=target,
        attack=None if "attack" not in data else _int(data["attack"], where, "attack", -top, top),
        health=None if "health" not in data else _int(data["health"], where, "health", -top, top),
        defense=None
        if "defense" not in data
        else _int(data["defense"], where, "defense", -top, top),
        what=None if "what" not in data else _choice(data["what"], What, where, "what"),
        tribe=None if "tribe" not in data else _name(data["tribe"], where, "tribe"),
        duration=None
        if "duration" not in data
        else _choice(data["duration"], Duration, where, "duration"),
        keyword=keyword,
        who=None if "who" not in data else _choice(data["who"], Who, where, "who"),
        how=None if "how" not in data else _choice(data["how"], How, where, "how"),
        card=card,
        where=None if "where" not in data else _choice(data["where"], Where, where, "where"),
        side=None if "side" not in data else _choice(data["side"], Side, where, "side"),
        count=None if "count" not in data else _int(data["count"], where, "count", 1, MAX_COUNT),
        name=name,
        status=status,
        rank=None if "rank" not in data else _choice(data["rank"], Rank, where, "rank"),
    )
    if do == "modify" and effect.attack is None and effect.health is None and not effect.defense:
        raise CardDataError(f"{where}: a 'modify' effect needs a stat to change")
    return effect


_ABILITY_KEYS = {"trigger", "effects", "by", "filter", "amount", "condition", "cost"}
_COST_KEYS = {"tap", "holder_tap", "resource", "jiggawatts"}


def parse_cost(value: object, where: str, limit: int) -> Cost:
    """An activated ability's cost table (at least one thing paid)."""
    data = _table(value, where, _COST_KEYS)
    cost = Cost(
        tap=_bool(data.get("tap", False), where, "tap"),
        holder_tap=_bool(data.get("holder_tap", False), where, "holder_tap"),
        resource=_int(data.get("resource", 0), where, "resource", 0, limit),
        jiggawatts=_int(data.get("jiggawatts", 0), where, "jiggawatts", 0, MAX_COUNT),
    )
    if cost == Cost():
        raise CardDataError(f"{where}: an activated ability costs something")
    return cost


def parse_ability(value: object, where: str, words: Vocabulary) -> Ability:
    """One `[[card.ability]]` table."""
    data = _table(value, where, _ABILITY_KEYS)
    trigger = _choice(data.get("trigger"), Trigger, where, "trigger")
    effects = data.get("effects")
    if not isinstance(effects, list) or not effects or len(effects) > MAX_COUNT:
        raise CardDataError(f"{where}: field 'effects' must list 1..{MAX_COUNT} effects")
    parsed = tuple(parse_effect(e, f"{where}: effect {i}", words) for i, e in enumerate(effects, 1))
    if trigger == "static" and any(e.do not in ("modify", "grant") for e in parsed):
        raise CardDataError(f"{where}: a static ability may only modify or grant")
    for i, e in enumerate(parsed):
        if _is_same(e.target) and (trigger == "static" or i == 0 or parsed[i - 1].target is None):
            raise CardDataError(
                f'{where}: effect {i + 1}: target "same" needs an earlier effect with a target '
                "in the same ability, and no static ability has one"
            )
    if "by" in data and trigger not in ("card_played", "token_made"):
        raise CardDataError(f"{where}: field 'by' is for card_played and token_made")
    if "filter" in data and trigger != "card_played":
        raise CardDataError(f"{where}: field 'filter' is for card_played")
    if "amount" in data and trigger != "vengeful":
        raise CardDataError(f"{where}: field 'amount' is for vengeful")
    if ("cost" in data) != (trigger == "activated"):
        raise CardDataError(f"{where}: an activated ability, and only it, has a 'cost'")
    _Checker(words.words).ability(data, where)
    return Ability(
        trigger=trigger,
        effects=parsed,
        by=None if "by" not in data else _choice(data["by"], By, where, "by"),
        filter=None
        if "filter" not in data
        else _not_same(parse_selector(data["filter"], f"{where}: filter", filter_only=True), where),
        amount=None if "amount" not in data else _int(data["amount"], where, "amount", 1, 99),
        condition=None
        if "condition" not in data
        else parse_condition(data["condition"], f"{where}: condition", words.max_amount),
        cost=None
        if "cost" not in data
        else parse_cost(data["cost"], f"{where}: cost", words.max_amount),
    )


# The fields whose values are words of the vocabulary (not numbers, names or card data).
_WORD_FIELDS = {
    "selector": {"what", "side", "lane", "face", "pick", "self"},
    "effect": {"who", "how", "where", "side", "duration", "what", "rank"},
    "ability": {"by"},
    "condition": {"mode"},
}
# What a selector is when it does not say (a default is a word the game must support too).
_SELECTOR_DEFAULTS = {"what": "guy", "side": "every_seat", "pick": "choose"}


class _Checker:
    """Checks a parsed ability's TOML against the words a game supports."""

    def __init__(self, words: Words) -> None:
        self.words = words

    def refuse(self, where: str, field: str, value: object = None) -> None:
        said = f"field {field!r}" if value is None else f"field {field!r}: {value!r}"
        raise CardDataError(f"{where}: {said} is not a word of this game")

    def table(self, data: Mapping[str, Any], where: str, kind: str) -> None:
        fields = self.words.fields[kind]
        for key, value in data.items():
            if key not in fields:
                self.refuse(where, key)
            if key in _WORD_FIELDS.get(kind, ()) and value not in self.words.values:
                self.refuse(where, key, value)

    def selector(self, value: object, where: str) -> None:
        if isinstance(value, str):
            if value not in self.words.values:
                self.refuse(where, "target", value)
            return
        assert isinstance(value, Mapping)
        self.table(value, where, "selector")
        for key, default in _SELECTOR_DEFAULTS.items():
            if key not in value and default not in self.words.values:
                self.refuse(where, key, default)

    def ability(self, data: Mapping[str, Any], where: str) -> None:
        words = self.words
        if data["trigger"] not in words.triggers:
            self.refuse(where, "trigger", data["trigger"])
        self.table({k: v for k, v in data.items() if k not in ("trigger", "effects")},
                   where, "ability")  # fmt: skip
        if "cost" in data:
            self.table(data["cost"], f"{where}: cost", "cost")
        if "filter" in data:
            self.selector(data["filter"], f"{where}: filter")
        if "condition" in data:
            self.table(data["condition"], f"{where}: condition", "condition")
            if "count" in data["condition"]:
                self.selector(data["condition"]["count"], f"{where}: condition: count")
        for i, effect in enumerate(data["effects"], 1):
            at = f"{where}: effect {i}"
            if effect["do"] not in words.verbs:
                self.refuse(at, "do", effect["do"])
            self.table({k: v for k, v in effect.items() if k != "do"}, at, "effect")
            if "target" in effect:
                self.selector(effect["target"], f"{at}: target")


def _is_same(sel: Selector | None) -> bool:
    return sel is not None and sel.ref == "same"


def _not_same(sel: Selector, where: str) -> Selector:
    if _is_same(sel):
        raise CardDataError(
            f'{where}: "same" names an effect\'s targets; a count or filter has none'
        )
    return sel


def carried_targets(ab: Ability, effect: int, previous: tuple[int, ...]) -> tuple[int, ...] | None:
    """The targets effect number `effect` of `ab` starts with: the previous effect's when it
    targets "same" (the card's "it"), so that one choice serves both; None when it finds
    its own."""
    if effect < len(ab.effects) and _is_same(ab.effects[effect].target):
        return previous
    return None


def parse_abilities(value: object, where: str, words: Vocabulary) -> tuple[Ability, ...]:
    """A card's `ability` list (absent: none)."""
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_COUNT:
        raise CardDataError(f"{where}: 'ability' must be a list of at most {MAX_COUNT} tables")
    return tuple(parse_ability(a, f"{where}: ability {i}", words) for i, a in enumerate(value, 1))
