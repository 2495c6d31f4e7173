"""Gammasphere TCG Prototype 3, rule by rule. Each test cites the rulebook line it checks
(../shared/seeds/004_8844080fa8b4f3e6.txt) or the choice of our rules document
(p2pcards/games/gammasphere/rules.md, "choice N") where the text is open or stops."""

from __future__ import annotations

import pytest
from gamma_helpers import DB, GAME, Table, deck

from p2pcards.errors import GameOptionError, IllegalActionError
from p2pcards.games.gammasphere.actions import (
    CONCEDE,
    DIRECT,
    END,
    Activate,
    Attack,
    Discard,
    Play,
    Switch,
)
from p2pcards.games.gammasphere.state import ATTACK_MODE, DEFENSE_MODE


def test_each_player_starts_with_gas_power_and_seven_cards() -> None:
    """Line 23: 3000 gas; line 24: Power Level 9000; line 25: a hand of 7. The first player
    gains its 300 at once (line 28) and draws nothing on the game's first turn (choice 3)."""
    t = Table()
    st = t.state
    assert st.turn() == 1 and st.current_player() == 0
    assert [st.power(0), st.power(1)] == [9000, 9000]
    assert [st.gas(0), st.gas(1)] == [3300, 3000]
    assert [st.hand_size(0), st.hand_size(1)] == [7, 7]
    t.end()
    assert st.turn() == 2 and st.hand_size(1) == 8 and st.gas(1) == 3300


def test_the_level_example_of_the_rulebook() -> None:
    """Line 15: Lv 5, attack 2000, attack mod 300: 2600 at Lv 7, 1400 at Lv 3. Saiyan Elite is
    Lv 4, attack 1550, mod 350: 2600 at Lv 7, 1200 at Lv 3 (the same formula)."""
    elite = DB.by_id["saiyan-elite"]
    t = Table(["saiyan-elite", "pylon"])
    t.pylons(2)
    slot = t.play("saiyan-elite")
    st = t.state
    assert (st.level(slot), st.attack(slot), st.defense(slot)) == (4, 1550, 1200)
    st._change_level(slot, +3)  # level changes come from effects (choice 17)
    assert st.attack(slot) == elite.attack + 3 * elite.attack_mod == 2600
    assert st.defense(slot) == elite.defense + 3 * elite.defense_mod
    st._change_level(slot, -4)
    assert (st.level(slot), st.attack(slot)) == (3, 1550 - 350) == (3, 1200)
    st._change_level(slot, -9)
    assert st.level(slot) == 1  # never below 1 (line 14)
    st._change_level(slot, +20)
    assert st.level(slot) == 10


def test_a_pylon_costs_100_gas_and_taps_for_a_jiggawatt_untapping_next_turn() -> None:
    """Line 20: constructing a Pylon costs 100 gas; tapping one gives 1 Jiggawatt; tapped
    Pylons untap at the start of your next turn. A Jiggawatt cost taps Pylons (line 9)."""
    t = Table(["zealot", "pylon", "pylon"])
    st = t.state
    t.pylons(2)
    assert st.gas(0) == 3300 - 200 and st.jiggawatts(0) == 2
    t.play("zealot")  # 200 gas and 1 Jiggawatt
    assert st.gas(0) == 2900 and st.jiggawatts(0) == 1
    assert sum(st.tapped(p) for p in st.pylons(0)) == 1
    t.to_turn(3)
    assert st.jiggawatts(0) == 2


def test_a_card_costs_what_you_can_afford_and_no_more() -> None:
    """Line 29: play as many as you can afford: no Jiggawatts, no Zealot."""
    t = Table(["zealot"])
    plays = {a.card for a in t.state.legal_actions() if isinstance(a, Play)}
    assert "zealot" not in plays and "pylon" in plays
    with pytest.raises(IllegalActionError):
        t.act(Play(t.slot("zealot", "hand:0"), "zealot"))


def test_a_unique_entity_is_one_copy_on_the_whole_field() -> None:
    """Line 9: no copy of a unique entity your opponent has in play, and one of yours."""
    t = Table(["marshal-jim-raynot", "marshal-jim-raynot", "pylon", "pylon"],
              ["marshal-jim-raynot", "pylon", "pylon"])  # fmt: skip
    t.pylons(2)
    t.play("marshal-jim-raynot")
    plays = {a.card for a in t.state.legal_actions() if isinstance(a, Play)}
    assert "marshal-jim-raynot" not in plays  # already one of ours
    t.end()
    t.pylons(2)
    plays = {a.card for a in t.state.legal_actions() if isinstance(a, Play)}
    assert "marshal-jim-raynot" not in plays  # the opponent has it in play


def test_no_attack_on_the_games_first_turn() -> None:
    """Choice 3: no attacks on the game's first turn."""
    t = Table(["saiyan-pod-baby"])
    t.play("saiyan-pod-baby")
    assert not any(isinstance(a, Attack) for a in t.state.legal_actions())


def _duel(mine: str, theirs: str, *, their_mode: bool) -> Table:
    """Seat 1 plays `theirs` (Defense Mode if `their_mode`), then seat 0 plays `mine` in
    Attack Mode on turn 3: ready to attack."""
    t = Table([mine, "pylon", "pylon", "pylon"], [theirs, "pylon", "pylon", "pylon"])
    t.end()
    t.pylons(3)
    t.play(theirs, defense=their_mode)
    t.end()
    t.pylons(3)
    t.play(mine)
    return t


def test_against_defense_mode_a_weaker_defender_is_destroyed_without_damage() -> None:
    """Line 37: defense less than attack: the defender is destroyed (choice 11: no damage)."""
    t = _duel("saiyan-elite", "space-marine", their_mode=True)  # 1550 against 600
    st = t.state
    (marine,) = st.characters(1)
    t.attack(st.characters(0)[0], marine)
    assert st.characters(1) == [] and st.power(1) == 9000 and st.power(0) == 9000
    assert "space-marine" in st.zone_cards("discard:1")


def test_against_defense_mode_a_stronger_defender_costs_the_attacker_the_difference() -> None:
    """Line 37: defense greater than attack: neither is destroyed, and your Power Level
    drops by the difference."""
    t = _duel("saiyan-pod-baby", "zealot", their_mode=True)  # 300 against 800
    st = t.state
    attacker, defender = st.characters(0)[0], st.characters(1)[0]
    t.attack(attacker, defender)
    assert st.characters(1) == [defender] and st.characters(0) == [attacker]
    assert st.power(0) == 9000 - 500 and st.tapped(attacker)


def test_against_attack_mode_the_weaker_falls_and_its_player_loses_the_difference() -> None:
    """Line 39: the defender's attack less than yours: it is destroyed (choice 11: its player
    loses the difference); greater: yours is destroyed and you lose the difference."""
    t = _duel("saiyan-elite", "zealot", their_mode=False)  # 1550 against 1200 (+300: Pylons)
    st = t.state
    mine, theirs = st.characters(0)[0], st.characters(1)[0]
    gap = st.attack(mine) - st.attack(theirs)
    assert gap > 0
    t.attack(mine, theirs)
    assert st.characters(1) == [] and st.power(1) == 9000 - gap
    t = _duel("space-marine", "zealot", their_mode=False)  # 800 against 1500
    st = t.state
    mine, theirs = st.characters(0)[0], st.characters(1)[0]
    gap = st.attack(theirs) - st.attack(mine)
    assert gap > 0
    t.attack(mine, theirs)
    assert st.characters(0) == [] and st.power(0) == 9000 - gap


def test_equal_values_destroy_both_in_attack_mode_and_nothing_in_defense_mode() -> None:
    """Choice 10: equal attacks destroy both, no damage; attack equal to defense: nothing."""
    t = _duel("zealot", "zealot", their_mode=False)
    st = t.state
    t.attack(st.characters(0)[0], st.characters(1)[0])
    assert st.characters(0) == st.characters(1) == [] and st.power(0) == st.power(1) == 9000
    t = _duel("saiyan-pod-baby", "saiyan-pod-baby", their_mode=True)  # 300 against 200
    st = t.state
    t.state._def_p[st.characters(1)[0]] = 100  # defense 300: equal
    t.attack(st.characters(0)[0], st.characters(1)[0])
    assert len(st.characters(1)) == 1 and st.power(0) == st.power(1) == 9000


def test_only_an_untapped_character_in_attack_mode_attacks_once_a_turn() -> None:
    """Lines 33-34: in Attack Mode, untapped; choice 9: attacking taps it."""
    t = _duel("saiyan-elite", "bunker", their_mode=False)
    st = t.state
    elite = st.characters(0)[0]
    t.act(Switch(elite))
    assert st.mode(elite) == DEFENSE_MODE
    assert not any(isinstance(a, Attack) for a in st.legal_actions())
    t.to_turn(5)
    t.act(Switch(elite))
    assert st.mode(elite) == ATTACK_MODE
    t.attack(elite, st.buildings(1)[0])  # 1550 against the Bunker's 2500
    assert st.power(0) == 9000 - 950 and st.tapped(elite)
    assert Switch(elite) not in st.legal_actions()  # line 29: a tapped one cannot switch
    assert not any(isinstance(a, Attack) for a in st.legal_actions())


def test_a_building_is_attacked_only_when_its_side_has_no_character_then_the_player() -> None:
    """Choices 12-13: characters first, then buildings, then the player directly."""
    t = Table(["saiyan-elite", "pylon"], ["bunker", "saiyan-pod-baby"])
    t.end()
    t.play("bunker")
    t.play("saiyan-pod-baby", defense=True)
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    st = t.state
    targets = {a.target for a in st.legal_actions() if isinstance(a, Attack)}
    assert targets == set(st.characters(1))
    t.attack(elite, st.characters(1)[0])  # the Pod Baby falls
    t.to_turn(5)
    targets = {a.target for a in st.legal_actions() if isinstance(a, Attack)}
    assert targets == set(st.buildings(1))
    bunker = st.buildings(1)[0]
    t.attack(elite, bunker)  # 1550 against 2500: seat 0 loses 950, the Bunker stands
    assert st.power(0) == 9000 - 950 and st.buildings(1) == [bunker]


@pytest.mark.parametrize("bunker", [True, False])
def test_two_shady_templars_do_not_shut_out_every_attack(bunker: bool) -> None:
    """Choice 27: each Shady Templar ("if you control another character, this can't be
    attacked") shields the other, so neither guards: the attack goes to the building
    (choice 12), or with none, to the player (choice 13)."""
    t = Table(["saiyan-elite"], ["shady-templar", "shady-templar"] + ["bunker"] * bunker)
    st = t.state
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.end()
    t.pylons(4)
    templars = [t.play("shady-templar"), t.play("shady-templar")]
    if bunker:
        t.play("bunker")
    t.end()
    assert st.characters(1) == templars
    targets = {a.target for a in st.legal_actions() if isinstance(a, Attack)}
    assert targets == (set(st.buildings(1)) if bunker else {DIRECT})
    t.attack(elite, targets.pop())
    if bunker:  # 1550 against the Bunker's 2500 (line 37)
        assert st.power(0) == 9000 - 950 and st.power(1) == 9000
    else:
        assert st.power(1) == 9000 - 1550


def test_power_level_gains_stop_at_9000() -> None:
    """Line 24: the Power Level starts at 9000 and "does not increase every turn"; it sets no
    maximum, and choice 28 keeps 9000 as one: a Senzoo Bean ("Gain 1500 Power Level") at
    9000 changes nothing, and at 8000 gives back 1000."""
    t = Table(["senzoo-bean", "senzoo-bean"])
    st = t.state
    t.pylons(2)
    t.play("senzoo-bean")
    assert st.power(0) == 9000
    st._power[0] = 8000  # the damage a Kamehamehaha deals; no card of seat 0's deals it
    t.play("senzoo-bean")
    assert st.power(0) == 9000


def test_a_direct_attack_takes_the_attackers_attack() -> None:
    """Choice 13: no character and no building: the player loses the attacker's attack."""
    t = Table(["saiyan-elite", "pylon"])
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.to_turn(3)
    t.attack(elite, DIRECT)
    assert t.state.power(1) == 9000 - 1550


def test_a_weapon_adds_its_bonus_and_is_destroyed_with_its_holder() -> None:
    """Line 18: weapons attach and add attack and defense; choice 14: one a holder, gone
    with it."""
    t = Table(["space-marine", "gauss-rifle", "neosteel-plating"], ["saiyan-elite", "pylon"])
    marine = t.play("space-marine")
    t.play("gauss-rifle", host=marine)
    st = t.state
    assert (st.attack(marine), st.defense(marine)) == (800 + 300, 600 + 100)
    assert not any(a.card == "neosteel-plating" for a in st.legal_actions() if isinstance(a, Play))
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.end()
    t.end()
    t.attack(elite, marine)  # 1550 against 1100 in Attack Mode
    assert st.zone_cards("gear:0") == [] and "gauss-rifle" in st.zone_cards("discard:0")
    assert st.weapon_of(marine) == -1


def test_a_refinery_adds_300_gas_a_turn() -> None:
    """Line 28: 300 gas a turn, plus 300 for each Refinery in play."""
    t = Table(["refinery"])
    t.play("refinery")
    st = t.state
    assert st.gas(0) == 3300 - 700
    t.to_turn(3)
    assert st.gas(0) == 2600 + 600


def test_the_hand_limit_is_ten_at_the_end_of_a_turn() -> None:
    """Line 25: over 10 at the end of a turn, discard down to 10, choosing which."""
    t = Table()
    st = t.state
    for _ in range(3):
        t.end()
        t.end()
    assert st.turn() == 7 and st.hand_size(0) == 10  # 7, then a card on turns 3, 5 and 7
    t.end()  # 10 cards: no discard
    assert st.turn() == 8 and st.hand_size(1) == 11  # seat 1 drew on turns 2, 4, 6 and 8
    t.end()
    assert st.phase() == "discard" and st.current_player() == 1
    t.act(st.legal_actions()[0])
    assert st.turn() == 9 and st.hand_size(0) == 11
    t.end()
    assert st.phase() == "discard" and st.current_player() == 0
    actions = st.legal_actions()
    assert actions and all(isinstance(a, Discard) for a in actions)
    t.act(actions[0])
    assert st.hand_size(0) == 10 and st.turn() == 10


def test_a_player_who_must_draw_from_an_empty_deck_loses() -> None:
    """Choice 4: decking loses, as in Yu-Gi-Oh."""
    t = Table(round_cap=None)
    st = t.state
    while not st.is_terminal():
        actions = st.legal_actions()
        t.act(actions[0] if isinstance(actions[0], Discard) else END)
    assert st.zone_slots("deck:1") == [] and st.winners() == (0,)


def test_a_power_level_at_zero_ends_the_game() -> None:
    """Line 24: at zero you lose; a hit past zero leaves it at zero."""
    t = Table(["saiyan-elite", "pylon"])
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.state._power[1] = 1000
    t.to_turn(3)
    t.attack(elite, DIRECT)
    assert t.state.is_terminal() and t.state.winners() == (0,)
    assert t.state.power(1) == 0


def test_conceding_and_the_round_cap() -> None:
    """A player who concedes loses; the round cap gives the game to the higher Power Level."""
    t = Table()
    t.act(CONCEDE)
    assert t.state.winners() == (1,)
    t = Table(round_cap=2)
    t.to_turn(5)
    assert t.state.is_terminal() and t.state.winners() == (0, 1)


def test_decks_are_forty_cards_four_copies_pylons_unlimited() -> None:
    """Lines 9, 20, 21, choice 2."""
    assert GAME.deck(deck("zealot", "zealot")) == {"zealot": 2, "pylon": 38}
    with pytest.raises(GameOptionError, match="at most 4"):
        GAME.deck(deck(*["zealot"] * 5))
    with pytest.raises(GameOptionError, match="40 cards needed"):
        GAME.deck({"pylon": 39})
    for name in GAME.default_decks:
        assert sum(GAME.deck(name).values()) == 40


def test_a_character_switches_mode_at_most_once_a_turn() -> None:
    """Line 29: as many characters as you want switch mode; choice 8: each once a turn."""
    t = Table(["saiyan-pod-baby"])
    baby = t.play("saiyan-pod-baby")
    t.act(Switch(baby))
    assert Switch(baby) not in t.state.legal_actions()
    with pytest.raises(IllegalActionError):
        t.act(Switch(baby))
    t.to_turn(3)
    assert Switch(baby) in t.state.legal_actions()


def test_an_event_or_activated_effect_needs_a_target_but_a_character_does_not() -> None:
    """Choice 24: no enemy character, no Nuclear Launch Detected and no Photon Cannon use
    (their costs are not paid for nothing); a Trollface Gremlin, whose "when played" finds no
    target, is still played."""
    t = Table(
        ["nuclear-launch-detected", "photon-cannon", "trollface-gremlin"], ["saiyan-pod-baby"]
    )
    st = t.state
    t.pylons(4)
    cannon = t.play("photon-cannon")
    plays = {a.card for a in st.legal_actions() if isinstance(a, Play)}
    assert "nuclear-launch-detected" not in plays and "trollface-gremlin" in plays
    assert not any(isinstance(a, Activate) for a in st.legal_actions())
    nuke = Play(t.slot("nuclear-launch-detected", "hand:0"), "nuclear-launch-detected")
    with pytest.raises(IllegalActionError):
        st.apply_action(nuke)  # the one validation path refuses it too
    gremlin = t.play("trollface-gremlin")
    assert st.characters(0) == [gremlin] and st.ask() is None
    t.end()
    t.play("saiyan-pod-baby")
    t.end()
    assert Activate(cannon, 0) in st.legal_actions() and nuke in st.legal_actions()
