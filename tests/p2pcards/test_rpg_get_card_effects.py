"""A test per card of RPG Get!'s set (issue 25): each card is put where it matters, through
the real rules, and what it does is checked against its printed numbers (the rulebook lines
of its type: 72-90, combat 105-131)."""

from __future__ import annotations

import pytest
from rpg_get_helpers import DB, KNOCKOUT, Table, knock_out_alone

from p2pcards.answers import Take, Target
from p2pcards.games.rpg_get.actions import (
    PASS,
    Act,
    Activate,
    Attempt,
    Enlist,
    Equip,
    Oppose,
    PlayEvent,
    Recruit,
    slot_list,
)  # fmt: skip
from p2pcards.games.rpg_get.cards import Card
from p2pcards.games.rpg_get.state import ACTIVE, DISCARD, INVENTORY, PARTY, RpgGetState

BIG = "tower-of-valmar"  # PP 9, EP 10: room for any party member and any enemy
BEAR = "hildebear"  # 7 HP, no Defense: a plain target
HERO = "humar"  # 7 HP, no Defense, warrior and hunter


def _user(card: Card) -> str:
    """A character that may use a Reward (line 146: every classification it needs)."""
    if card.type == "character":
        return card.id
    return next(c.id for c in DB.cards if c.type == "character" and card.classes <= c.classes)


def _attempt(t: Table, enemies: list[str]) -> None:
    """Seat 0 attempts the big mission with its whole party; seat 1 plays `enemies`."""
    st = t.state
    t.pass_until("mission")
    t.do(Attempt, card=BIG)
    while st.phase == "party":
        enlist = [a for a in st.legal_actions() if isinstance(a, Enlist)]
        t.act(enlist[0] if enlist else PASS)
    for enemy in enemies:
        t.do(Oppose, card=enemy)
    while st.phase == "enemies":
        t.act(PASS)


def _strike(st: RpgGetState, user: int, source: int, index: int, target: int) -> int:
    """The damage an attack should deal: X, the modifiers in force, `*` nothing."""
    action = st.card(source).actions[index]
    return 0 if action.fixed else action.amount + st.attack_bonus(user)


def _check_attack(t: Table, user: int, source: int, index: int, target: int) -> None:
    st = t.state
    action = st.card(source).actions[index]
    before, expected = st.hp_left(target), _strike(st, user, source, index, target)
    t.act(Act(source, user, index, slot_list([target])))
    while st.windows:
        t.act(PASS)
    assert st.hp_left(target) == max(0, before - expected) or st.zone_of(target) != "enemies"
    if action.inflicts and st.zone_of(target) == "enemies" and action.inflicts != "sleep":
        assert st.has_status(target, action.inflicts)


def _check_actions(t: Table, user: int, source: int) -> None:
    """The first combat action of `source` used by `user` in the Party Attack step."""
    st = t.state
    card = st.card(source)
    (bear,) = st.zone_slots("enemies")
    kinds = [a.kind for a in card.actions]
    if "attack" in kinds:
        _check_attack(t, user, source, kinds.index("attack"), bear)
    elif "support" in kinds:
        i = kinds.index("support")
        t.act(Act(source, user, i, ""))
        assert st._boost[0] == card.actions[i].amount and st._more[0] == card.actions[i].more
    elif "recovery" in kinds:
        i = kinds.index("recovery")
        acts = [a for a in st.legal_actions() if isinstance(a, Act) and a.source == source]
        assert acts and all(a.index == i for a in acts if a.source == source)
    else:  # a Defense: offered when the enemy attacks the user
        t.act(PASS)
        while st.phase == "party-attack":
            t.act(PASS)
        t.act(Act(bear, bear, 0, slot_list([user])))
        assert any(getattr(a, "source", None) == source for a in st.legal_actions())


def _check_ability(t: Table, user: int, source: int) -> None:
    st = t.state
    options = [a for a in st.legal_actions() if isinstance(a, Activate) and a.slot == source]
    assert options, "its Ability is offered"
    seat = st.current_player()
    counters = st.counters(seat)
    cost = st.card(source).abilities[options[0].ability].cost
    digest = st.public_digest()
    t.act(options[0])
    while st.current_player() == seat and any(
        isinstance(a, Target) for a in st.legal_actions()
    ):  # fmt: skip
        t.act(next(a for a in st.legal_actions() if isinstance(a, Target)))
    assert cost is not None and st.counters(seat) == counters - cost.resource
    assert st.public_digest() != digest


CARDS = [c.id for c in DB.cards]


@pytest.mark.parametrize("card_id", CARDS)
def test_each_card_does_what_it_says(card_id: str) -> None:
    """The card in play, used as printed (line 69-90, 91-131)."""
    card = DB.by_id[card_id]
    kind = card.type
    if kind == "mission":
        t = Table([[HERO, card_id], ["vyse"]])
        st = t.state
        t.pass_until("mission")
        t.do(Attempt, card=card_id)
        while st.attempter >= 0:
            enlist = [a for a in st.legal_actions() if isinstance(a, Enlist)]
            t.act(enlist[0] if enlist else PASS)
        assert st.victory_points(0) == card.vp and st.counters(0) == 5 + card.rp  # line 65
        return
    if kind in ("enemy", "roadblock"):
        t = Table([[HERO, BIG], ["vyse", card_id]])
        st = t.state
        t.pass_until("mission")
        t.do(Attempt, card=BIG)
        t.do(Enlist, slot=t.slots(0, PARTY)[0])
        (hero,) = t.slots(0, ACTIVE)
        if kind == "roadblock":  # line 88: its effect, then discarded
            strike = card.actions[0]
            t.do(Oppose, card=card_id, targets=slot_list([hero]))
            assert st.hp_left(hero) == 7 - (0 if strike.fixed else strike.amount)
            assert not strike.inflicts or st.has_status(hero, strike.inflicts)
            assert t.slots(1, DISCARD, card_id)
            return
        t.do(Oppose, card=card_id)
        (enemy,) = st.zone_slots("enemies")
        assert st.hp_left(enemy) == card.hp and st._boss == card.boss  # line 53, 86
        while st.phase == "enemies":
            t.act(PASS)
        while st.phase == "party-attack":
            t.act(PASS)
        kinds = [a.kind for a in card.actions]
        if "attack" in kinds:
            i = kinds.index("attack")
            expected = _strike(st, enemy, enemy, i, hero)
            t.act(Act(enemy, enemy, i, slot_list([hero])))
            while st.windows:
                t.act(PASS)
            assert st.hp_left(hero) == max(0, 7 - expected)
        elif card.abilities:
            _check_ability(t, enemy, enemy)
        return
    if kind == "event":
        _event(card)
        return
    if any(e.do == "resurrect" for a in card.abilities for e in a.effects):
        _resurrect(card)
        return
    user = _user(card)
    hand = [user, BIG] if kind == "character" else [user, card_id, BIG]
    t = Table([hand, ["vyse", BEAR]])
    st = t.state
    t.pass_until("play")
    if kind == "reward":
        t.do(Equip, card=card_id)
        (source,) = t.slots(0, INVENTORY)
        assert st.counters(0) == 5 - card.rp  # line 35
    (member,) = t.slots(0, PARTY)
    if kind == "character":
        source = member
    _attempt(t, [BEAR])
    if any(a.trigger == "activated" for a in card.abilities) and not card.actions:
        _check_ability(t, member, source)
        return
    if not card.actions:  # an Intrinsic only: it is in force
        assert st.attack_bonus(member) >= 1 or card.abilities[0].trigger == "start_of_turn"
        return
    _check_actions(t, member, source)


def _resurrect(card: Card) -> None:
    """Line 134: a card that resurrects, once a character of its seat is unconscious (Aika,
    sent alone, knocked out by three enemies; Ryudo keeps the seat in the game)."""
    user = _user(card)
    hand = [user, "aika", "rag-rappy-den"] + ([card.id] if card.type != "character" else [])
    t = Table([hand, ["vyse", *KNOCKOUT]])
    st = t.state
    t.pass_until("play")
    t.do(Recruit, card="aika")
    if card.type == "reward":
        t.do(Equip, card=card.id)
    aika = knock_out_alone(t, "aika")
    assert st.zone_of(aika) == "unconscious:0"
    while not (st.phase == "play" and st.turn_seat == 0):
        t.act(PASS)
    source = t.slots(0, INVENTORY)[0] if card.type == "reward" else t.slots(0, PARTY, user)[0]
    t.act(next(a for a in st.legal_actions() if isinstance(a, Activate) and a.slot == source))
    assert st.zone_of(aika) == "party:0"


def _event(card: Card) -> None:
    """An Event played at its time (line 77-78), what it does seen on the table."""
    if card.when == "enemy_step":
        t = Table([["vyse", BIG], [HERO, card.id]], more=[[], ["booma", "rag-rappy"]])
        st = t.state
        t.pass_until("mission")
        t.do(Attempt, card=BIG)
        while st.phase == "party":
            t.act(PASS)
        t.do(PlayEvent, card=card.id)
        takes = [a for a in st.legal_actions() if isinstance(a, Take)]
        t.act(takes[0])
        found = takes[0].card
        assert found is None or [st.card_at(s) for s in st.zone_slots("enemies")] == [found]
        return
    t = Table([[HERO, "ryudo", card.id, BIG], ["vyse", BEAR, "clear-the-forest"]])
    st = t.state
    if card.when == "attempt":
        _attempt(t, [BEAR])
    else:
        t.pass_until("play")
    digest = st.public_digest()
    t.do(PlayEvent, card=card.id)
    while st.current_player() == 0 and any(isinstance(a, Target) for a in st.legal_actions()):
        t.act(next(a for a in st.legal_actions() if isinstance(a, Target)))
    assert t.slots(0, DISCARD, card.id) and st.public_digest() != digest
