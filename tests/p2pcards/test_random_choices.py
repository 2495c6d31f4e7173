"""Every card that picks at random, in both collectible games: the dealer's number is what
chooses, and every candidate is as likely as the others.

A random target is a roll of the dealer among the effect's candidates, a random discard a
pick of a position in the hand (docs/abilities.md: `pick = "random"`, "chance picks
uniformly"; `how = "random"`). Each card is brought to the chance step through the real rules
with more candidates than it picks, and then:

- every number the roll (or pick) may give is tried in turn: each chooses one candidate, a
  different one for each number, and together they choose every candidate and nothing else
  (so an interpreter that took the first candidate, or ignored the number, fails);
- the seeded dealer settles it 600 times from the same position: every candidate comes up,
  and the counts pass a chi-square test of equal chances.

The cards: Rise of the Guys' Tantrum Toddler, Laser Tag, Toaster Bot, Pinball Wizard (random
targets) and Pickpocket (a random discard), its rules.md's list of random cards; Gammasphere's
Rickroller (its one random card, a random discard) and, since no card of its set has one yet,
a random target read from a card patched to say "random" (its interpreter has the word).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Hashable
from typing import NamedTuple

import pytest
from chance_helpers import assert_uniform, is_random_choice, numbered, sample, sides
from gamma_helpers import DB as GAMMA_DB
from gamma_helpers import Table as GammaTable
from guys_helpers import Table as GuysTable
from guys_helpers import react_to

from p2pcards.engine import State
from p2pcards.games.gammasphere import GammaState
from p2pcards.games.rise_of_the_guys import GuysState
from p2pcards.games.rise_of_the_guys.actions import PASS
from p2pcards.zones import ZoneState

SEED = 24


def settled(state: State, *numbers: int) -> State:
    """A copy of `state` after its pending rolls or picks give `numbers`, in order."""
    s = state.clone()
    for number in numbers:
        assert is_random_choice(s), f"no roll or pick left for {number}"
        s.apply_action(numbered(s, number))
    return s


def settled_one(state: State, number: int) -> State:
    """A copy of `state` after its pending roll gives `number` (more may follow)."""
    s = state.clone()
    s.apply_action(numbered(s, number))
    return s


class Position(NamedTuple):
    """A state at a card's random choice, the candidates it may choose among, and what a
    state shows of the choice made (the candidates hit, or the card discarded)."""

    state: State
    candidates: list[Hashable]
    chosen: Callable[[State], Hashable]


# --- Rise of the Guys ----------------------------------------------------------------------


def to_chance(t: GuysTable) -> None:
    """Pass (and reveal, as the rules make a seat) until a roll or a random pick waits."""
    t.hold = True
    while not t.state.is_chance_node():
        menu = t.state.legal_actions()
        t.act(PASS if PASS in menu else menu[0])


def guys_hit(t: GuysTable, slots: list[int]) -> Position:
    """The position `t` is at, the Guys in `slots` as the candidates, and which of them took
    damage (or were destroyed by it)."""
    before = t.state.clone()

    def hit(after: State) -> Hashable:
        assert isinstance(after, GuysState)
        return frozenset(
            s for s in slots if after.lane_of(s) < 0 or after.damage(s) > before.damage(s)
        )

    return Position(t.state, [frozenset([s]) for s in slots], hit)


def discarded(state: ZoneState, seat: int) -> Position:
    """The position, the cards in `seat`'s hand as the candidates (all different), and the
    one that left it."""
    hand = state.zone_cards(f"hand:{seat}")
    assert len(set(hand)) == len(hand) > 1 and None not in hand, hand

    def gone(after: State) -> Hashable:
        assert isinstance(after, ZoneState)
        (card,) = set(hand) - set(after.zone_cards(f"hand:{seat}"))
        return card

    return Position(state, list(hand), gone)


def tantrum_toddler() -> Position:
    """Tantrum Toddler played to lane 1 ("a random Guy in another lane", either side): three
    Guys stand in other lanes, two of the opponent's and one of its own player's, and the
    opponent's Mr. Doctor in lane 1 is no candidate."""
    t = GuysTable(["tantrum-toddler", "handsome-man"], ["hothead", "mr-doctor", "hothead"])
    react_to(t, 6, ("hothead", 0), ("mr-doctor", 1), ("hothead", 2))
    t.play("handsome-man", 3)
    t.hold = True
    t.play("tantrum-toddler", 1)
    st = t.state
    return guys_hit(t, [st.lane_guy(1, 0), st.lane_guy(1, 2), st.lane_guy(0, 3)])


def toaster_bot() -> Position:
    """Toaster Bot falls in combat with a Hothead ("When destroyed: deal 1 damage to a
    random opposing Guy."): the opponent's other Hotheads, in lanes 1 to 3, are the
    candidates (a Hothead has 1 health: the one hit is destroyed)."""
    t = GuysTable(["toaster-bot"], ["hothead"] * 4)
    react_to(t, 4, ("hothead", 0), ("hothead", 1), ("hothead", 2), ("hothead", 3))
    t.play("toaster-bot", 0)
    st = t.state
    hotheads = [st.lane_guy(1, lane) for lane in (1, 2, 3)]
    to_chance(t)
    assert st.lane_guy(0, 0) < 0 and st.lane_guy(1, 0) < 0  # both fell in lane 0
    return guys_hit(t, hotheads)


def pinball_wizard() -> Position:
    """A Pin played beside Pinball Wizard ("Whenever you play a Pin, deal 1 damage to a
    random opposing Guy."), three opposing Guys standing."""
    t = GuysTable(["pinball-wizard", "name-tag"], ["hothead", "mr-doctor", "hothead"])
    react_to(t, 6, ("hothead", 0), ("mr-doctor", 1), ("hothead", 2))
    t.play("pinball-wizard", 3)
    t.hold = True
    t.play("name-tag", host="pinball-wizard")
    st = t.state
    return guys_hit(t, [st.lane_guy(1, lane) for lane in (0, 1, 2)])


def pickpocket() -> Position:
    """Pickpocket revealed ("When revealed: your opponent discards a random card."), the
    opponent's hand of different cards."""
    hand1 = ["hothead", "mr-doctor", "lunch-lady", "crossing-guard", "smack"]
    t = GuysTable(["pickpocket"], hand1, more1=["nurse-nancy", "group-hug"])
    t.draws(1, "nurse-nancy", "group-hug")
    react_to(t, 2)
    played = t.play("pickpocket", 0)
    assert played.face_down
    to_chance(t)
    return discarded(t.state, 1)


def laser_tag() -> Position:
    """Laser Tag ("Deal 1 damage to two random opposing Guys, face up or face down.") with
    three opposing Guys, one face down: two rolls, the second among the two not hit; the
    candidates are the pairs of Guys."""
    t = GuysTable(["laser-tag"], ["robutt", "jack-in-the-box", "robutt"])
    react_to(t, 6, ("robutt", 0), ("jack-in-the-box", 2), ("robutt", 3))
    st = t.state
    assert st.face_down(st.lane_guy(1, 2))
    t.hold = True
    t.play("laser-tag")
    guys = [st.lane_guy(1, lane) for lane in (0, 2, 3)]
    pairs: list[Hashable] = [frozenset(pair) for pair in itertools.combinations(guys, 2)]
    return guys_hit(t, guys)._replace(candidates=pairs)


# --- Gammasphere ---------------------------------------------------------------------------


def rickroller() -> Position:
    """Rickroller played ("When played: your opponent discards a random card."), the
    opponent's opening hand of seven different cards."""
    hand1 = ["zealot", "zerglet", "space-marine", "saiyan-scout", "ki-blast", "senzoo-bean",
             "warp-in"]  # fmt: skip
    t = GammaTable(["rickroller"], hand1)
    t.hold = True
    t.play("rickroller")
    return discarded(t.state, 1)


def random_gremlin(monkeypatch: pytest.MonkeyPatch) -> Position:
    """Trollface Gremlin read as "switch a random enemy character's mode" (the set has no
    random target yet; Gammasphere's interpreter reads `pick = "random"`), three enemies."""
    t = GammaTable(["trollface-gremlin", "pylon", "pylon"],
                   ["saiyan-pod-baby", "zerglet", "gas-probe"])  # fmt: skip
    rules = t.state.rules
    kind = GAMMA_DB.index["trollface-gremlin"]
    card = rules.cards[kind]
    (ability,) = card.abilities
    (effect,) = ability.effects
    assert effect.target is not None and effect.target.pick == "choose"
    randomly = dataclasses.replace(effect.target, pick="random")
    ability = dataclasses.replace(ability, effects=(dataclasses.replace(effect, target=randomly),))
    patched = list(rules.cards)
    patched[kind] = dataclasses.replace(card, abilities=(ability,))
    monkeypatch.setattr(rules, "cards", tuple(patched))  # the rules are shared: restored after
    # The interpreter reads abilities from the rules' book, which a state holds from its birth.
    book = rules.book
    abilities = list(book.abilities)
    abilities[kind] = (ability,)
    patched_book = dataclasses.replace(book, abilities=tuple(abilities))
    monkeypatch.setattr(rules, "book", patched_book)
    monkeypatch.setattr(t.state, "_book", patched_book)
    t.end()
    enemies = [t.play(card) for card in ("saiyan-pod-baby", "zerglet", "gas-probe")]
    t.end()
    st = t.state
    before = {slot: st.mode(slot) for slot in enemies}
    t.hold = True
    t.play("trollface-gremlin")

    def switched(after: State) -> Hashable:
        assert isinstance(after, GammaState)
        return frozenset(s for s in enemies if after.mode(s) != before[s])

    return Position(st, [frozenset([s]) for s in enemies], switched)


SINGLE = {
    "tantrum-toddler": tantrum_toddler,
    "toaster-bot": toaster_bot,
    "pinball-wizard": pinball_wizard,
    "pickpocket": pickpocket,
    "rickroller": rickroller,
}


def position(name: str, monkeypatch: pytest.MonkeyPatch) -> Position:
    return random_gremlin(monkeypatch) if name == "random-target" else SINGLE[name]()


@pytest.mark.parametrize("name", [*SINGLE, "random-target"])
def test_the_dealers_number_chooses_the_card(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each number the roll or pick may give chooses one candidate, a different one each,
    and all of them (a roll has one side per candidate, a pick one per card in hand)."""
    state, candidates, chosen = position(name, monkeypatch)
    assert state.is_chance_node()
    assert sides(state) == len(candidates) > 1
    results = [chosen(settled(state, n)) for n in range(sides(state))]
    assert sorted(map(repr, results)) == sorted(map(repr, candidates)), results


@pytest.mark.parametrize("name", ["pickpocket", "rickroller"])
def test_a_random_discard_takes_the_card_at_the_position_picked(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pick's position is a place in the hand: the pick of place i discards the i-th card
    of the hand as the zone orders it."""
    state, candidates, chosen = position(name, monkeypatch)
    assert [chosen(settled(state, i)) for i in range(len(candidates))] == candidates


@pytest.mark.parametrize("name", [*SINGLE, "random-target"])
def test_over_many_rolls_every_candidate_comes_up_equally_often(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seeded dealer settles the choice 600 times from the same position: every
    candidate comes up, and the counts pass a chi-square test of equal chances."""
    state, candidates, chosen = position(name, monkeypatch)
    assert_uniform(sample(state, chosen, SEED), candidates)


def test_laser_tag_hits_each_pair_of_opposing_guys_for_two_of_its_six_rolls() -> None:
    """Laser Tag's two rolls: 3 sides, then 2 among the Guys the first missed; the six
    sequences hit two different Guys each, and every pair of the three exactly twice."""
    state, pairs, chosen = laser_tag()
    assert sides(state) == 3
    results = []
    for first in range(3):
        after_first = settled_one(state, first)
        assert sides(after_first) == 2
        second = [chosen(settled(after_first, n)) for n in range(2)]
        assert second[0] != second[1]
        results += second
    assert sorted(map(repr, results)) == sorted(map(repr, pairs * 2))


def test_laser_tag_over_many_plays_hits_every_pair_equally_often() -> None:
    """The seeded dealer plays Laser Tag 600 times from the same position: each pair of the
    three opposing Guys is hit, as often as the others (chi-square)."""
    state, pairs, chosen = laser_tag()
    assert_uniform(sample(state, chosen, SEED), pairs)
