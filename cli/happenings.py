"""What a step did, told from what one seat's replica shows before and after it: the same
telling for every collectible game.

A view draws a `Scene` of a state (each seat's counters, the cards in play with their
numbers and marks, where every other card lies and its name where the viewer knows it);
`changes` tells the difference of two scenes in sentences: life, Power Level, gas or energy
gained and lost, damage taken and healed, levels and stats changed, cards destroyed, returned,
made or moved, cards discarded or shuffled back. A scene holds only what the replica knows
(a card it does not know has no name), so nothing told can say a hidden card.

The narrator (cli/narration.py) takes scenes at the public moments inside a step (an
effect before and after it lands, a lane's combat: `ZoneState.listen`), so a step with
several effects and deaths is told in the order they happened.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol, cast

from cli.wording import Seats, sentence
from p2pcards.engine import Action, State
from p2pcards.errors import P2PCardsError
from p2pcards.history import Event
from p2pcards.interpreter import Table, resolving
from p2pcards.zones import Pick, Roll, ZoneState


class Gauge(NamedTuple):
    """One of a seat's numbers (life, Power Level, gas): its value and how a change of it is
    said, `{n}` the amount (None: not told that way)."""

    value: int
    down: str | None  # 'take {n} damage'
    up: str | None  # 'heal {n}'
    unit: str  # 'life', shown with the values: '(20 → 17 life)'
    refills: bool = False  # set anew each turn (energy): a new turn's value is not told


class InPlay(NamedTuple):
    """A card in play as the viewer sees it: its name (None: face down and unknown), whose,
    where (a lane), its numbers in order (damage first if it takes any) and its marks."""

    name: str | None
    seat: int
    place: str
    numbers: tuple[tuple[str, int], ...]
    marks: frozenset[str] = frozenset()


class Scene(NamedTuple):
    """A state as one viewer may know it, for telling what changed."""

    turn: int
    counters: tuple[tuple[Gauge, ...], ...]  # per seat
    in_play: dict[int, InPlay]
    elsewhere: dict[int, tuple[str, str | None]]  # slot -> (zone name, card name or None)


def zone_scene(
    slots: int,
    zone_of: Callable[[int], str],
    name: Callable[[int], str | None],
    in_play: dict[int, InPlay],
) -> dict[int, tuple[str, str | None]]:
    """Where each card not in play lies (`zone_of`), with its name where the viewer knows it
    and it lies face up in a public pile (a discard pile)."""
    out: dict[int, tuple[str, str | None]] = {}
    for slot in range(slots):
        if slot in in_play:
            continue
        zone = zone_of(slot)
        out[slot] = (zone, name(slot) if zone.startswith("discard") else None)
    return out


def _whose(seats: Seats, card: InPlay, name: str | None) -> str:
    where = f" in {card.place}" if card.place.startswith("lane") else ""
    return f"{seats.whose(card.seat)} {name or 'face-down card'}{where}"


def _counters(before: Scene, after: Scene, seats: Seats) -> list[str]:
    out = []
    new_turn = after.turn != before.turn
    for seat, (was_all, now_all) in enumerate(zip(before.counters, after.counters, strict=True)):
        for was, now in zip(was_all, now_all, strict=True):
            if was.value == now.value or (new_turn and now.refills):
                continue
            verb = now.down if now.value < was.value else now.up
            if verb is None:
                continue
            amount = abs(now.value - was.value)
            said = seats.says(seat, verb.split(" ", 1)[0])
            rest = verb.split(" ", 1)[1].format(n=amount) if " " in verb else ""
            unit = "" if now.unit in verb else f" {now.unit}"
            out.append(f"{said} {rest} ({was.value} → {now.value}{unit}).")
    return out


def _numbers(was: InPlay, now: InPlay) -> list[str]:
    """A card's numbers that changed, each as a phrase: 'takes 2 damage', 'level 4 → 5'."""
    old = dict(was.numbers)
    parts = []
    for key, value in now.numbers:
        before = old.get(key)
        if before is None or before == value:
            continue
        if key == "damage":
            parts.append(
                f"takes {value - before} damage" if value > before else f"heals {before - value}"
            )
        elif key == "level":
            way = "up" if value > before else "down"
            parts.append(
                f"goes {way} {abs(value - before)} level{'s' * (abs(value - before) > 1)}"
                f" ({before} → {value})"
            )
        else:
            parts.append(f"{'' if parts else 'has '}{key} {before} → {value}")
    return parts


def _card_changes(
    before: Scene, after: Scene, seats: Seats, effect: bool, skip: frozenset[int]
) -> list[str]:
    out = []
    for slot, was in before.in_play.items():
        now = after.in_play.get(slot)
        who = _whose(seats, was, now.name if now and now.name else was.name)
        if now is None:
            zone = after.elsewhere.get(slot, ("gone", None))[0]
            if zone.startswith("hand"):
                out.append(f"{who} goes back to the hand.")
            elif slot not in skip:  # to the discard pile, or a token out of the game
                out.append(f"{who} is destroyed.")
            continue
        if now.place != was.place and now.place and was.place:
            out.append(f"{who} moves to {now.place}.")
            who = _whose(seats, now, now.name or was.name)
        if now.name != was.name and was.name is not None:
            continue  # another card in the slot's place: nothing to compare
        parts = [] if after.turn != before.turn else _numbers(was, now)
        if effect:
            added = sorted(now.marks - was.marks)
            parts += [f"is now {m}" for m in added] or [
                f"is no longer {m}" for m in sorted(was.marks - now.marks)
            ]
        if parts:
            health = dict(now.numbers)
            hurt = health.get("damage") != dict(was.numbers).get("damage")
            left = ""
            if hurt and "health" in health:
                left = f" ({max(0, health['health'] - health['damage'])} health left)"
            out.append(f"{who} {', '.join(parts)}{left}.")
    for slot, now in after.in_play.items():
        if slot in before.in_play or slot in skip:
            continue
        if slot not in before.elsewhere:  # a new slot: a token
            where = f" in {now.place}" if now.place else ""
            out.append(f"a {now.name} token joins {seats.whose(now.seat)} side{where}.")
    return out


def _pile_changes(
    before: Scene, after: Scene, seats: Seats, skip: frozenset[int], at_random: bool
) -> list[str]:
    out = []
    shuffled: dict[str, int] = {}
    for slot, (zone, name) in after.elsewhere.items():
        was = before.elsewhere.get(slot)
        if was is None or was[0] == zone or slot in skip:
            continue
        owner = int(zone.rsplit(":", 1)[1]) if ":" in zone else -1
        if was[0].startswith("hand") and zone.startswith("discard"):
            how = " at random" if at_random else ""
            out.append(f"{seats.says(owner, 'discard')} {name}{how}.")
        elif was[0].startswith("discard") and zone.startswith("deck"):
            shuffled[zone] = shuffled.get(zone, 0) + 1
        elif was[0].startswith("deck") and zone.startswith("discard"):
            out.append(f"{name} goes from the top of {seats.its(owner)} deck to the discard pile.")
    for zone, n in shuffled.items():
        owner = int(zone.rsplit(":", 1)[1])
        cards = "a card" if n == 1 else f"{n} cards"
        out.append(
            f"{seats.says(owner, 'shuffle')} {cards} of {seats.its(owner)} "
            "discard pile into the deck."
        )
    return out


def changes(
    before: Scene,
    after: Scene,
    seats: Seats,
    *,
    cause: str | None = None,
    skip: frozenset[int] = frozenset(),
    at_random: bool = False,
) -> list[str]:
    """What changed from `before` to `after` in sentences; `cause`: the card whose effect did
    it (each sentence says so first); `skip`: the slots the action itself told of (a card
    played, a card discarded by choice); `at_random`: a card left a hand by a random pick."""
    told = [
        *_counters(before, after, seats),
        *_card_changes(before, after, seats, cause is not None, skip),
        *_pile_changes(before, after, seats, skip, at_random),
    ]
    return [sentence(line) if cause is None else f"{cause}: {line}" for line in told]


class Telling(Protocol):
    """What a view gives to have its steps told from scenes (a collectible game's view):
    `scene`, `closing` (a new turn, the result), `slot_name`; `strikes(state, lane, seats)`
    too where a board fights lane by lane, and `opening(before, after, seats)` where a view
    tells its fighters in its own words before the scene's changes (cli/narration.py)."""

    def scene(self, state: Any, seats: Seats) -> Scene: ...
    def closing(self, before: Any, after: Any, seats: Seats) -> list[str]: ...
    def slot_name(self, state: Any, slot: int) -> str: ...


def telling_of(view: object) -> Telling | None:
    """The view as a `Telling`, if it tells its steps from scenes."""
    return cast(Telling, view) if hasattr(view, "scene") else None


def _played(action: Action, start: Scene) -> frozenset[int]:
    """The card an action takes from a hand (played, discarded by choice): its sentence
    tells it, so its move is not told again. (A target chosen is told as what befalls it.)"""
    slot = getattr(action, "slot", None)
    held = isinstance(slot, int) and start.elsewhere.get(slot, ("", None))[0].startswith("hand")
    return frozenset((slot,)) if held and isinstance(slot, int) else frozenset()


def happened(view: Telling, before: State, event: Event, after: State, seats: Seats) -> list[str]:
    """What a step did, in the order it happened: the step is applied again to a copy of
    the viewer's replica `before`, listened to (`ZoneState.listen`), and a scene is taken at
    each public moment inside it; the last one is compared with `after`. A step the copy
    cannot apply (a replica short of a sighting) is told from `before` and `after` alone."""
    start = view.scene(before, seats)
    skip = _played(event.action, start)
    at_random = isinstance(event.action, Pick)
    # An answer to an ability (a target, a lane) or a random pick for one goes on with it:
    # what it does first is that card's doing.
    source = resolving(cast(Table, before)) if hasattr(before, "_frames") else -1
    answering = before.current_player() >= 0 or isinstance(event.action, Pick | Roll)
    first = view.slot_name(before, source) if source >= 0 and answering else None
    told: list[str] = []
    last = start

    def listen(state: ZoneState, label: str, number: int) -> None:
        nonlocal first, last
        now = view.scene(state, seats)
        cause = view.slot_name(state, number) if label == "effect" else first
        first = None
        told.extend(changes(last, now, seats, cause=cause, skip=skip, at_random=at_random))
        last = now
        strikes = getattr(view, "strikes", None)
        if label == "lane" and strikes is not None:
            told.extend(strikes(state, number, seats))

    if isinstance(before, ZoneState):
        copy = before.clone()
        copy.listen(listen)
        try:
            copy.apply_action(event.action)
        except P2PCardsError:
            told.clear()
            last, first = start, None
    told += changes(
        last, view.scene(after, seats), seats, cause=first, skip=skip, at_random=at_random
    )
    return told
