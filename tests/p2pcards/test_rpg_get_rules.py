"""RPG Get!'s rules, each test citing the rulebook line it checks (the text
000_34065cf589791de6.txt, not part of p2pcards, numbered as `cat -n` numbers it) and, where
the text is open, the choice of rules.md it follows. Positions are reached through the real
rules (rpg_get_helpers.Table)."""

from __future__ import annotations

import random

import pytest
from rpg_get_helpers import FILLER, Table, deck, fight, saber_back_to_a_full_bank

from p2pcards.dealer import LocalDealer
from p2pcards.errors import GameOptionError, IllegalActionError
from p2pcards.games.rpg_get import GAME, RpgGetState
from p2pcards.games.rpg_get.actions import (
    MULLIGAN,
    PASS,
    Act,
    Activate,
    Attempt,
    Bank,
    Defend,
    Enlist,
    Equip,
    MakeRoom,
    Oppose,
    Recruit,
    Redraw,
    Reshuffle,
    Start,
    parse_slots,
    slot_list,
)  # fmt: skip
from p2pcards.games.rpg_get.state import (
    ACTIVE,
    BANK,
    BANK_LIMIT,
    DECK,
    DISCARD,
    HAND,
    INVENTORY,
    PARTY,
    SCORE,
)  # fmt: skip

MISSION_TABLE = [
    ["ryudo", "elena", "clear-the-forest", "broadsword"],
    ["vyse", "rag-rappy", "booma", "de-rol-le", "gazer"],
]


def on_mission(mission: str = "clear-the-forest", hands: list[list[str]] | None = None) -> Table:
    """Seat 0 has played Elena and equipped a Broadsword, and attempts `mission`."""
    t = Table(hands or MISSION_TABLE)
    t.pass_until("play")
    t.do(Recruit, card="elena")
    t.do(Equip, card="broadsword")
    t.pass_until("mission")
    t.do(Attempt, card=mission)
    return t


def test_the_opening_hand_is_nine_and_a_hand_without_a_character_must_be_redrawn() -> None:
    """Line 9: 9 cards; the whole hand may be redrawn; a hand with no Character must be
    (choice 2: it goes back into the deck, so the deck stays whole)."""
    state = GAME.new_initial_state(2, decks=[deck("ryudo"), deck("vyse")])
    state.apply_action(state.chance_outcome_for(None, 0))
    for _ in range(9):
        state.apply_action(state.chance_outcome_for(FILLER))
    assert len(state.pile(0, HAND)) == 9 and state.current_player() == 0
    assert state.legal_actions() == [MULLIGAN]
    state.apply_action(MULLIGAN)
    assert len(state.pile(0, DECK)) == 80 and not state.pile(0, HAND)
    for card in ["ryudo"] + [FILLER] * 8:
        state.apply_action(state.chance_outcome_for(card))
    assert len(state.pile(0, DECK)) == 71
    assert {type(a) for a in state.legal_actions()} == {Start, type(MULLIGAN)}


def test_opening_redraws_stop_after_seven_when_a_character_is_held() -> None:
    """Line 9 "as much as desired", bounded (rules.md choice 2): 7 redraws at most."""
    state = GAME.new_initial_state(2, decks=[deck("ryudo"), deck("vyse")])
    state.apply_action(state.chance_outcome_for(None, 0))
    for _ in range(7):
        for card in ["ryudo"] + [FILLER] * 8:
            state.apply_action(state.chance_outcome_for(card))
        assert MULLIGAN in state.legal_actions()
        state.apply_action(MULLIGAN)
    for card in ["ryudo"] + [FILLER] * 8:
        state.apply_action(state.chance_outcome_for(card))
    assert MULLIGAN not in state.legal_actions()


def test_setup_gives_five_counters_and_the_roll_chooses_the_first_seat() -> None:
    """Line 10: 5 reward counters each; line 11 (choice 5): the first seat by a roll, which
    decides its opening first and takes the first turn."""
    t = Table([["ryudo"], ["vyse"], ["aika"]], first=2)
    assert [t.state.counters(s) for s in range(3)] == [5, 5, 5]
    assert t.state.turn_seat == 2 and t.state.current_player() == 2
    assert [t.state.card_at(s) for s in t.slots(2, PARTY)] == ["aika"]


def test_a_deck_without_a_character_is_refused() -> None:
    """Line 9 and rules.md choice 3: the forced redraw would never end."""
    with pytest.raises(GameOptionError, match="no Character"):
        GAME.new_initial_state(2, decks=[deck(), deck("vyse")])


def test_redraw_phase_allows_two_redraws() -> None:
    """Line 32: discard up to two cards and draw as many."""
    t = Table(MISSION_TABLE, more=[["rag-rappy", "booma"]])
    t.draws(0, "rag-rappy", "booma")
    t.do(Redraw, card=FILLER)
    t.do(Redraw, card=FILLER)
    assert t.state.phase == "play"
    assert [t.state.card_at(s) for s in t.slots(0, DISCARD)] == [FILLER, FILLER]
    hand = [t.state.card_at(s) for s in t.slots(0, HAND)]
    assert "rag-rappy" in hand and "booma" in hand and len(hand) == 8


def test_rewards_go_to_the_bank_free_or_the_inventory_for_their_cost() -> None:
    """Line 35: bank for free, inventory for the RP cost; line 38: bank to inventory only in
    the Play phase, for the cost."""
    t = Table([["ryudo", "broadsword", "gibarta", "broadsword"], ["vyse"]])
    t.pass_until("play")
    t.do(Bank, card="gibarta")
    assert t.state.counters(0) == 5 and len(t.slots(0, BANK)) == 1
    t.do(Equip, card="broadsword")
    t.do(Equip, card="broadsword")
    assert t.state.counters(0) == 1 and len(t.slots(0, INVENTORY)) == 2
    assert not [a for a in t.state.legal_actions() if isinstance(a, Equip)]  # Gibarta costs 3
    t.pass_until("mission")
    assert not [a for a in t.state.legal_actions() if isinstance(a, Equip)]


def test_a_banked_reward_moves_to_the_inventory_for_its_cost() -> None:
    """Line 38, 128: from the bank to the inventory in the Play phase, paying its RP."""
    t = Table([["elena", "gibarta"], ["vyse"]])
    t.pass_until("play")
    t.do(Bank, card="gibarta")
    (gibarta,) = t.slots(0, BANK)
    t.do(Equip, slot=gibarta)
    assert t.state.zone_of(gibarta) == "inventory:0" and t.state.counters(0) == 5 - 3


def test_the_bank_holds_twenty_and_a_full_bank_discards_one_first() -> None:
    """Line 36-37: 20 cards at most; with 20, a card goes in only after one is discarded."""
    t = Table([["ryudo", *["buckler"] * 8], ["vyse"]], more=[["buckler"] * 18])
    t.draws(0, *["buckler"] * 18)
    while len(t.slots(0, BANK)) < BANK_LIMIT:
        while not (t.state.phase == "play" and t.state.turn_seat == 0):
            t.act(PASS)
        while len(t.slots(0, BANK)) < BANK_LIMIT and t.slots(0, HAND):
            t.do(Bank, card="buckler", drop=-1)
        t.act(PASS)
    while not (t.state.phase == "play" and t.state.turn_seat == 0):
        t.act(PASS)
    banks = [a for a in t.state.legal_actions() if isinstance(a, Bank)]
    assert banks and all(a.drop in t.slots(0, BANK) for a in banks)
    t.act(banks[0])
    assert len(t.slots(0, BANK)) == BANK_LIMIT and t.state.zone_of(banks[0].drop) == "discard:0"


def test_a_reward_back_to_a_full_bank_has_its_owner_discard_one_to_make_room() -> None:
    """Line 130: "If moved back to your bank and you already have the maximum number of
    cards in your bank, you must discard one to make room" (rules.md, choice 24): the owner
    chooses which of the bank's 20, before anyone else decides; the Reward stays in the bank."""
    t, saber = saber_back_to_a_full_bank()
    st = t.state
    bank = t.slots(0, BANK)
    assert saber in bank and len(bank) == BANK_LIMIT + 1  # back, over the limit for now
    assert st.current_player() == 0
    rooms = st.legal_actions()
    assert all(isinstance(a, MakeRoom) for a in rooms) and st.room_for == saber
    assert sorted(a.slot for a in rooms) == sorted(s for s in bank if s != saber)
    replica = st.observation(1)  # another seat checks the card named as it is shown
    with pytest.raises(IllegalActionError):
        replica.apply_action(MakeRoom(saber, "saber"))
    t.act(rooms[-1])
    assert len(t.slots(0, BANK)) == BANK_LIMIT and saber in t.slots(0, BANK)
    assert st.zone_of(rooms[-1].slot) == "discard:0" and st.room_for == -1
    assert st.windows and st.current_player() == 1  # the attack's window goes on


def test_a_character_of_the_same_name_replaces_the_one_in_play() -> None:
    """Line 39-40, 73: the old one is discarded, the new one takes its place."""
    t = Table([["ryudo", "ryudo-lv2", "elena"], ["vyse"]])
    t.pass_until("play")
    t.do(Recruit, card="ryudo-lv2")
    t.do(Recruit, card="elena")
    party = [t.state.card_at(s) for s in t.slots(0, PARTY)]
    assert party == ["ryudo-lv2", "elena"]
    assert [t.state.card_at(s) for s in t.slots(0, DISCARD)] == ["ryudo"]


def test_the_party_attack_step_goes_on_while_something_can_be_done() -> None:
    """Line 56: the attempter may end the step at any time; while an Attack is left it is
    asked again after each one."""
    t = on_mission()
    t.do(Enlist, slot=t.slots(0, PARTY, "ryudo")[0])
    t.do(Enlist, slot=t.slots(0, PARTY, "elena")[0])
    t.do(Oppose, card="booma")
    t.act(PASS)
    state = t.state
    (booma,) = state.zone_slots("enemies")
    ryudo = t.slots(0, ACTIVE, "ryudo")[0]
    t.act(Act(ryudo, ryudo, 0, slot_list([booma])))
    t.act(PASS)  # Booma does not Defend
    assert state.phase == "party-attack" and state.current_player() == 0  # Elena, the sword
    t.act(PASS)
    assert state.phase == "enemy-attack"


def test_the_party_step_keeps_within_the_missions_party_points() -> None:
    """Line 50, 82: the active party's cost is at most the PP (Clear the Forest: 4)."""
    t = Table([["ryudo-lv2", "elena", "aika", "clear-the-forest"], ["vyse"]])
    t.pass_until("play")
    t.do(Recruit, card="elena")
    t.do(Recruit, card="aika")
    t.pass_until("mission")
    t.do(Attempt, card="clear-the-forest")
    assert t.state.phase == "party"
    t.do(Enlist, slot=t.slots(0, PARTY, "ryudo-lv2")[0])  # cost 3: 1 PP left
    enlist = [a for a in t.state.legal_actions() if isinstance(a, Enlist)]
    assert [t.state.card_at(a.slot) for a in enlist] == ["aika"]


def test_the_enemy_step_goes_round_once_from_the_left_within_the_ep_and_one_boss() -> None:
    """Line 51-53: every other seat once, clockwise from the attempter's left, the attempter
    not asked; the sizes within the EP; at most one Boss (line 52, 150)."""
    hands = [
        ["ryudo", "gibarta-trial"],
        ["vyse", "de-rol-le", "rag-rappy"],
        ["aika", "de-rol-le", "booma", "booma"],
    ]
    t = Table(hands)
    t.pass_until("mission")
    t.do(Attempt, card="gibarta-trial")  # EP 8
    t.do(Enlist, slot=t.slots(0, PARTY)[0])
    assert t.state.phase == "enemies" and t.state.current_player() == 1
    t.do(Oppose, card="de-rol-le")  # size 4, the Boss
    t.act(PASS)
    assert t.state.current_player() == 2
    opposes = [a for a in t.state.legal_actions() if isinstance(a, Oppose)]
    enemies = {a.card for a in opposes if t.state.card(a.slot).type == "enemy"}
    assert enemies == {"booma"}  # no second Boss
    t.do(Oppose, card="booma")
    t.do(Oppose, card="booma")  # 4 + 2 + 2 = 8: the EP is spent
    assert t.state.phase == "party-attack" and t.state.current_player() == 0


def test_an_attack_hits_up_to_y_distinct_targets_and_defense_takes_off_damage() -> None:
    """Line 122: X(Y); line 124: fewer targets allowed, never one twice; line 103, 111: the
    target's side may Defend, once per card per attempt."""
    t = on_mission()
    t.do(Enlist, slot=t.slots(0, PARTY, "ryudo")[0])
    t.do(Enlist, slot=t.slots(0, PARTY, "elena")[0])
    t.do(Oppose, card="rag-rappy")
    t.do(Oppose, card="booma")
    state = t.state
    rappy, booma = state.zone_slots("enemies")
    elena = t.slots(0, ACTIVE, "elena")[0]
    aims = {a.targets for a in state.legal_actions() if isinstance(a, Act) and a.source == elena
            and state.card(elena).actions[a.index].kind == "attack"}  # fmt: skip
    assert aims == {slot_list([rappy]), slot_list([booma]), slot_list([rappy, booma])}
    with pytest.raises(IllegalActionError):
        parse_slots(f"{booma},{booma}")
    ryudo = t.slots(0, ACTIVE, "ryudo")[0]
    t.act(Act(ryudo, ryudo, 0, slot_list([booma])))  # 3 damage
    assert state.windows and state.current_player() == 1
    t.do(Defend, target=booma, source=booma)  # Booma's Defense 1
    assert not state.windows and state.hp_left(booma) == 4 - 2
    t.act(Act(elena, elena, 0, slot_list([booma])))  # 1(2) on one target
    # Booma's Defense is spent this attempt: no window asks anyone, and it takes the 1.
    assert not state.windows and state.hp_left(booma) == 1


def test_kills_discard_enemies_and_a_cleared_attempt_scores_the_mission() -> None:
    """Line 119-120: an enemy at 0 HP is discarded; line 63-64: all enemies defeated, the
    mission goes to the score pile and its RP to the counters."""
    t = on_mission()
    t.do(Enlist, slot=t.slots(0, PARTY, "ryudo")[0])
    t.act(PASS)
    t.do(Oppose, card="rag-rappy")
    t.act(PASS)
    state = t.state
    (rappy,) = state.zone_slots("enemies")
    ryudo = t.slots(0, ACTIVE, "ryudo")[0]
    t.act(Act(ryudo, ryudo, 0, slot_list([rappy])))
    assert state.zone_of(rappy) == "discard:1"
    assert [state.card_at(s) for s in t.slots(0, SCORE)] == ["clear-the-forest"]
    assert state.counters(0) == 5 - 2 + 2 and state.victory_points(0) == 1
    assert state.phase in ("reconcile", "redraw") and not t.slots(0, ACTIVE)


def test_a_failed_attempt_discards_the_mission_and_the_enemies_left() -> None:
    """Line 65-66: otherwise the mission is discarded, and the enemies left too."""
    t = on_mission()
    t.do(Enlist, slot=t.slots(0, PARTY, "ryudo")[0])
    t.act(PASS)
    t.do(Oppose, card="booma")
    t.act(PASS)
    booma = t.state.zone_slots("enemies")[0]
    t.act(PASS)  # no attack: the Enemy Attack step
    assert t.state.phase == "enemy-attack" and t.state.current_player() == 1
    t.act(PASS)
    assert "clear-the-forest" in [t.state.card_at(s) for s in t.slots(0, DISCARD)]
    assert t.state.zone_of(booma) == "discard:1" and not t.slots(0, SCORE)


def test_rewards_need_the_classifications_and_go_back_to_the_bank_after_use() -> None:
    """Line 158: a Reward only for a user with all its classifications (Broadsword: warrior,
    so Ryudo and not Elena); line 130: after use it returns to the bank."""
    t = on_mission()
    t.do(Enlist, slot=t.slots(0, PARTY, "ryudo")[0])
    t.do(Enlist, slot=t.slots(0, PARTY, "elena")[0])
    t.do(Oppose, card="booma")
    t.act(PASS)
    (sword,) = t.slots(0, INVENTORY)
    users = {a.user for a in t.state.legal_actions() if isinstance(a, Act) and a.source == sword}
    assert {t.state.card_at(u) for u in users} == {"ryudo"}
    booma = t.state.zone_slots("enemies")[0]
    ryudo = t.slots(0, ACTIVE, "ryudo")[0]
    t.act(Act(sword, ryudo, 0, slot_list([booma])))
    assert t.state.zone_of(sword) == "bank:0"


def test_an_enemy_attack_knocks_a_character_out_and_a_seat_without_party_loses() -> None:
    """Line 117-118: a character at 0 HP goes to the unconscious pile; line 14, 75: a seat
    with no character in its party loses at once; the last seat in wins."""
    hands = [["aika", "rag-rappy-den"], ["vyse", "booma", "booma", "rag-rappy"]]
    t = Table(hands)
    t.pass_until("mission")
    t.do(Attempt, card="rag-rappy-den")  # EP 5
    aika = t.slots(0, PARTY)[0]
    t.do(Enlist, slot=aika)
    t.do(Oppose, card="booma")
    t.do(Oppose, card="booma")
    t.do(Oppose, card="rag-rappy")
    t.act(PASS)  # Aika does not attack
    state = t.state
    for enemy in state.zone_slots("enemies"):
        assert state.current_player() == 1
        t.act(Act(enemy, enemy, 0, slot_list([aika])))  # Aika has no Defense: no window
    assert state.zone_of(aika) == "unconscious:0"
    assert state.in_game() == (1,) and state.returns() == [0.0, 1.0] and state.is_terminal()


def test_status_phase_poison_hurts_but_kills_only_when_an_attempt_begins() -> None:
    """Line 42-43: poison deals 1 in the Status phase; line 121: at 0 HP outside an attempt
    nobody is killed until the next attempt begins; line 14: then the seat is out."""
    hands = [["aika", "clear-the-forest", "clear-the-forest"], ["vyse", "poison-lily", "rockslide"]]
    t = Table(hands)
    t.pass_until("mission")
    t.do(Attempt, card="clear-the-forest")
    aika = t.slots(0, PARTY)[0]
    t.do(Enlist, slot=aika)
    t.do(Oppose, card="rockslide", targets=str(aika))  # 1 damage
    t.do(Oppose, card="poison-lily")
    state = t.state
    (lily,) = state.zone_slots("enemies")
    t.act(PASS)
    t.act(Act(lily, lily, 0, slot_list([aika])))  # 1 and poison
    assert state.has_status(aika, "poison") and state.hp_left(aika) == 3
    for hp in (2, 1, 0):
        t.act(PASS)  # the attempt or the mission phase ends
        while not (state.phase == "mission" and state.turn_seat == 0):
            t.act(PASS)
        assert state.hp_left(aika) == hp and state.zone_of(aika) == "party:0"
    t.do(Attempt, card="clear-the-forest")
    assert state.zone_of(aika) == "unconscious:0" and state.returns() == [0.0, 1.0]


def test_reconcile_draws_up_to_nine() -> None:
    """Line 46: the hand is exactly 9 at the end of the turn."""
    t = Table(MISSION_TABLE)
    t.pass_until("play")
    t.do(Recruit, card="elena")
    t.do(Equip, card="broadsword")
    assert len(t.slots(0, HAND)) == 6
    t.pass_until("mission")
    t.act(PASS)
    assert t.state.turn_seat == 1 and len(t.slots(0, HAND)) == 9


def _deck_out(seed: int) -> RpgGetState:
    """The first random 2-seat game, from `seed` on, played to a decking with a payment
    possible (most random games end before a deck runs out)."""
    for tried in range(seed, seed + 200):
        state = GAME.new_initial_state(2)
        dealer, rng = LocalDealer(tried), random.Random(tried)
        while not state.is_terminal():
            if state.phase == "decking" and len(state.legal_actions()) > 1:
                return state
            if state.is_chance_node():
                state.apply_action(dealer.sample(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"no game from seed {seed} decked with VP to pay")


def test_decking_pays_two_vp_to_shuffle_the_discard_into_a_new_deck() -> None:
    """Line 15, 165: a seat that cannot draw at the end of its turn may put scored missions
    worth 2 VP or more out of play and shuffle its discard pile into a new deck."""
    state = _deck_out(0)
    seat = state.current_player()
    assert not state.pile(seat, DECK) and len(state.pile(seat, HAND)) < 9
    pay = state.legal_actions()[0]
    assert isinstance(pay, Reshuffle)
    paid = parse_slots(pay.missions)
    assert sum(state.card(m).vp for m in paid) >= 2
    vp, discards = state.victory_points(seat), len(state.pile(seat, DISCARD))
    state.apply_action(pay)
    assert all(state.zone_of(m) == f"out:{seat}" for m in paid)
    assert state.victory_points(seat) == vp - sum(state.card(m).vp for m in paid)
    assert not state.pile(seat, DISCARD) and len(state.pile(seat, DECK)) == discards
    assert state.is_chance_node()  # the Reconcile phase draws on from the new deck


def test_a_seat_that_declines_to_pay_at_decking_loses() -> None:
    """Line 15: a seat that cannot draw and does not pay loses; the other seat wins."""
    state = _deck_out(0)
    seat = state.current_player()
    assert state.legal_actions()[-1] == PASS
    state.apply_action(PASS)
    assert state.is_terminal() and state.returns()[seat] == 0.0 and sum(state.returns()) == 1.0


def test_a_list_of_slots_has_one_form() -> None:
    """Line 124's "never the same target twice", on the wire: distinct, lowest first."""
    assert parse_slots(slot_list([9, 3])) == (3, 9)
    for bad in ("9,3", "3,3", "3,", "-1", "a"):
        with pytest.raises(IllegalActionError):
            parse_slots(bad)


def test_paralysis_stops_attack_and_support_and_outlasts_the_status_phase() -> None:
    """Line 171: a paralysed character uses no Attack or Support; line 42: the Status phase
    cures all but poison and paralysis."""
    hands = [["vyse", "rag-rappy-den"], ["aika", "mantis-claw", "gazer"]]
    t = fight(hands, ["mantis-claw", "gazer"])
    state = t.state
    vyse = t.slots(0, ACTIVE)[0]
    claw, gazer = state.zone_slots("enemies")
    t.act(PASS)  # to the Enemy Attack step
    t.act(Act(claw, claw, 0, slot_list([vyse])))  # 1, paralysis
    t.act(Act(gazer, gazer, 0, slot_list([vyse])))  # 1, block
    assert state.has_status(vyse, "paralysis") and state.has_status(vyse, "block")
    t.act(PASS)
    while not (state.phase == "mission" and state.turn_seat == 0):
        t.act(PASS)
    assert state.has_status(vyse, "paralysis") and not state.has_status(vyse, "block")


def test_a_paralysed_member_has_no_attack_to_use() -> None:
    """Line 171, in the Party Attack step of the next attempt."""
    hands = [["vyse", "clear-the-forest", "clear-the-forest"], ["aika", "mantis-claw", "rag-rappy"]]
    t = fight(hands, ["mantis-claw"], "clear-the-forest")
    state = t.state
    vyse = t.slots(0, ACTIVE)[0]
    (claw,) = state.zone_slots("enemies")
    kinds = {state.card(a.source).actions[a.index].kind for a in state.legal_actions()
             if isinstance(a, Act)}  # fmt: skip
    assert kinds == {"attack", "support"}
    t.act(PASS)
    t.act(Act(claw, claw, 0, slot_list([vyse])))
    assert state.has_status(vyse, "paralysis")
    while not (state.phase == "mission" and state.turn_seat == 0):
        t.act(PASS)
    t.do(Attempt, card="clear-the-forest")
    t.do(Enlist, slot=vyse)
    t.do(Oppose, card="rag-rappy")
    t.act(PASS)
    # Vyse can use nothing, so the Party Attack step ends by itself (line 56, choice 13).
    assert state.phase == "enemy-attack" and state.current_player() == 1


def test_block_stops_magic_and_move_rewards() -> None:
    """Line 172: a blocked character cannot use Magic or Move Rewards (Battle Cry is Move);
    other Rewards stay usable."""
    hands = [["vyse", "battle-cry", "pirate-cutlass", "clear-the-forest"], ["aika", "gazer"]]
    t = fight(hands, ["gazer"], "clear-the-forest")
    state = t.state
    vyse = t.slots(0, ACTIVE)[0]
    cry, cutlass = t.slots(0, INVENTORY)
    sources = {a.source for a in state.legal_actions() if isinstance(a, Act)}
    assert {cry, cutlass, vyse} <= sources
    t.act(PASS)
    (gazer,) = state.zone_slots("enemies")
    t.act(Act(gazer, gazer, 0, slot_list([vyse])))  # block
    assert state.has_status(vyse, "block")
    # Blocked in the Enemy Attack step, it would now find only the Cutlass usable.
    usable = {source for source, _, _ in state._usable(vyse, ("attack", "support"))}
    assert cutlass in usable and cry not in usable


def test_support_adds_to_the_next_attack_and_recovery_heals_once_a_round() -> None:
    """Line 102, 109, 123: a Support's +X (_) goes to the side's next attack; line 98, 113:
    a card's Recovery once per round."""
    hands = [["elena", "vyse", "rag-rappy-den"], ["aika", "de-rol-le"]]
    t = fight(hands, ["de-rol-le"])
    state = t.state
    elena, vyse = sorted(t.slots(0, ACTIVE), key=lambda s: state.card_at(s) != "elena")
    (boss,) = state.zone_slots("enemies")
    t.act(Act(vyse, vyse, 1, ""))  # Support +1
    assert Act(vyse, vyse, 1, "") not in state.legal_actions()  # line 109: once an attempt
    t.act(Act(elena, elena, 0, slot_list([boss])))  # 1 + 1
    if state.windows:
        t.act(PASS)  # De Rol Le keeps its Defense
    assert state.hp_left(boss) == 8 - 2
    t.act(PASS)
    t.act(Act(boss, boss, 0, slot_list([elena, vyse])))  # 3(2)
    assert state.windows and state.current_player() == 0  # Elena's Recovery could answer
    t.act(PASS)
    assert state.hp_left(elena) == 2 and state.hp_left(vyse) == 3
    t.act(PASS)  # the attempt fails
    assert state.attempter == -1


def test_recovery_heals_and_is_used_once_a_round() -> None:
    """Line 96-98, 113: Recovery heals (never above full HP) and a card's once per round."""
    hands = [["elena", "vyse", "rag-rappy-den", "rag-rappy-den"], ["aika", "booma", "booma"]]
    t = fight(hands, ["booma"])
    state = t.state
    elena, vyse = sorted(t.slots(0, ACTIVE), key=lambda s: state.card_at(s) != "elena")
    (booma,) = state.zone_slots("enemies")
    t.act(PASS)
    t.act(Act(booma, booma, 0, slot_list([vyse])))  # 2
    t.act(PASS)  # the attempt fails; seat 1's turn, then seat 0's
    while not (state.phase == "mission" and state.turn_seat == 0):
        t.act(PASS)
    assert state.hp_left(vyse) == 4
    t.do(Attempt, card="rag-rappy-den")
    while state.phase == "party":
        enlist = [a for a in state.legal_actions() if isinstance(a, Enlist)]
        t.act(enlist[0] if enlist else PASS)
    t.do(Oppose, card="booma")
    t.act(PASS)
    heal = Act(elena, elena, 1, slot_list([elena, vyse]))
    t.act(heal)
    assert state.hp_left(vyse) == 6 and state.hp_left(elena) == 5
    assert not [a for a in state.legal_actions() if isinstance(a, Act) and a.index == 1
                and a.source == elena]  # fmt: skip


def test_an_attack_window_asks_only_the_seats_that_could_defend() -> None:
    """Line 111 (choice 12): the window of an Attack asks, from the attacker's left, the seats
    whose targeted cards could Defend; a seat with none is not asked (its pass is public)."""
    hands = [["ryudo", "rag-rappy-den"], ["vyse", "rag-rappy"], ["aika", "booma"]]
    t = Table(hands)
    t.pass_until("mission")
    t.do(Attempt, card="rag-rappy-den")
    t.do(Enlist, slot=t.slots(0, PARTY)[0])
    t.do(Oppose, card="rag-rappy")
    t.act(PASS)
    t.do(Oppose, card="booma")
    t.act(PASS)
    state = t.state
    rappy, booma = state.zone_slots("enemies")
    ryudo = t.slots(0, ACTIVE)[0]
    t.act(Act(ryudo, ryudo, 0, slot_list([booma])))
    # Seat 1 sits first on the attacker's left but controls no target: seat 2 is asked.
    assert state.windows and state.current_player() == 2
    assert state.legal_actions() == [Defend(booma, booma, 1), PASS]
    t.act(PASS)
    assert not state.windows and state.hp_left(booma) == 1 and state.hp_left(rappy) == 2
    # Ryudo's one Attack is spent (line 100) and nothing else is left: the Party Attack step
    # ends by itself (line 56) and the Rag Rappy's controller, first on the left, acts.
    assert state.phase == "enemy-attack" and state.current_player() == 1


def test_another_seats_replica_refuses_a_play_naming_the_wrong_kind_of_card() -> None:
    """Line 37-39 on a replica: seat 1 cannot see seat 0's hand, yet refuses a Character
    play that names a Reward (the one check, on a copy that learns the named card)."""
    t = Table(MISSION_TABLE)
    t.pass_until("play")
    replica = t.state.observation(1)
    sword = t.slots(0, HAND, "broadsword")[0]
    with pytest.raises(IllegalActionError, match="may not"):
        replica.verify_action(Recruit(sword, "broadsword"))
    elena = t.slots(0, HAND, "elena")[0]
    replica.verify_action(Recruit(elena, "elena"))
    banked = Bank(sword, "broadsword", -1, None)
    assert banked.public().card is None
    replica.apply_action(banked.public())
    assert replica.zone_of(sword) == "bank:0" and replica.card_at(sword) is None


SLEEP_TABLE = [
    ["elena", "ryudo", "dream-dust", "rag-rappy-den"],
    ["vyse", "booma", "rag-rappy", "dream-moth"],
]


def _sleeping_booma() -> Table:
    """Elena's Dream Dust has put seat 1's Booma to sleep; a Rag Rappy is awake."""
    t = fight(SLEEP_TABLE, ["booma", "rag-rappy"])
    state = t.state
    booma = state.zone_slots("enemies")[0]
    (dust,) = t.slots(0, INVENTORY)
    elena = t.slots(0, ACTIVE, "elena")[0]
    t.act(Act(dust, elena, 0, slot_list([booma])))
    while state.windows:
        t.act(PASS)
    assert state.has_status(booma, "sleep") and state.hp_left(booma) == 4
    return t


def test_an_attempt_with_only_sleeping_enemies_left_succeeds() -> None:
    """Line 67-68: all enemies defeated but sleeping ones: the Enemy Attack and Enemy Status
    steps are skipped, the sleepers not added back, and the attempt succeeds."""
    t = _sleeping_booma()
    state = t.state
    booma, rappy = state.zone_slots("enemies")
    ryudo = t.slots(0, ACTIVE, "ryudo")[0]
    t.act(Act(ryudo, ryudo, 0, slot_list([rappy])))
    assert [state.card_at(s) for s in t.slots(0, SCORE)] == ["rag-rappy-den"]
    assert state.zone_of(booma) == "discard:1" and state.attempter == -1


def test_sleeping_enemies_sit_out_the_enemy_attack_and_wake_after_the_status_step() -> None:
    """Line 175: a sleeping enemy is out of the attempt (it does not act) but may be targeted;
    line 62: after the Enemy Status step, with enemies remaining, it comes back and acts."""
    t = _sleeping_booma()
    state = t.state
    booma, rappy = state.zone_slots("enemies")
    t.act(PASS)  # to the Enemy Attack step
    sources = {a.source for a in state.legal_actions() if isinstance(a, Act)}
    assert state.current_player() == 1 and sources == {rappy}
    t.act(PASS)
    assert not state.has_status(booma, "sleep") and state.current_player() == 1
    sources = {a.source for a in state.legal_actions() if isinstance(a, Act)}
    assert sources == {booma}  # the woken one acts; the Rag Rappy had its turn
    t.act(PASS)
    assert state.attempter == -1 and not t.slots(0, SCORE)  # enemies remained: failure


def test_a_sleeping_character_cannot_defend_and_wakes_when_the_attempt_ends() -> None:
    """Line 175: a sleeping character is out of the attempt until the end of the Enemy Status
    step (it uses no action, a Defense included) and goes back to the party."""
    t = fight(SLEEP_TABLE, ["dream-moth", "booma"])
    state = t.state
    moth, booma = state.zone_slots("enemies")
    ryudo = t.slots(0, ACTIVE, "ryudo")[0]
    t.act(PASS)
    t.act(Act(moth, moth, 0, slot_list([ryudo])))
    while state.windows:
        t.act(PASS)
    assert state.has_status(ryudo, "sleep")
    t.act(Act(booma, booma, 0, slot_list([ryudo])))
    # Ryudo's Defense is not offered, asleep; Elena's Recovery may answer (line 98).
    assert not any(isinstance(a, Defend) for a in state.legal_actions())
    while state.windows:
        t.act(PASS)
    assert state.hp_left(ryudo) == 4
    t.act(PASS)
    assert state.zone_of(ryudo) == "party:0" and not state.has_status(ryudo, "sleep")


def test_combo_repeats_an_attack_on_the_same_targets_each_a_distinct_attack() -> None:
    """Line 133: Twin Fang 1(1), Combo 2: used again at once on the same target, without
    another copy, each use a distinct attack (each opens its own window) and optional."""
    hands = [["vyse", "twin-fang", "rag-rappy-den"], ["aika", "booma", "de-rol-le"]]
    t = fight(hands, ["booma"])
    state = t.state
    (booma,) = state.zone_slots("enemies")
    (fang,) = t.slots(0, INVENTORY)
    vyse = t.slots(0, ACTIVE)[0]
    t.act(Act(fang, vyse, 0, slot_list([booma])))
    assert state.windows and state.current_player() == 1
    t.do(Defend, target=booma)  # Booma's Defense takes the 1 off the first attack
    assert state.hp_left(booma) == 4 and state.zone_of(fang) == "bank:0"
    again = Act(fang, vyse, 0, slot_list([booma]))
    assert state.current_player() == 0 and state.legal_actions() == [again, PASS]
    t.act(again)  # Booma's Defense is spent: no window
    assert state.hp_left(booma) == 3 and state.legal_actions() == [again, PASS]
    t.act(PASS)  # the third use is declined
    assert state.hp_left(booma) == 3 and state.phase == "party-attack"
    assert again not in state.legal_actions()


def test_a_confused_card_rolls_its_targets_among_every_applicable_one() -> None:
    """Line 174: a confused enemy's target is chosen at random among all active members and
    enemies (itself included), by a roll of the table's beacon (choice 29)."""
    hands = [["vyse", "hypno-spores", "rag-rappy-den"], ["aika", "booma", "rag-rappy"]]
    t = fight(hands, ["booma", "rag-rappy"])
    state = t.state
    booma, rappy = state.zone_slots("enemies")
    (spores,) = t.slots(0, INVENTORY)
    vyse = t.slots(0, ACTIVE)[0]
    t.act(Act(spores, vyse, 0, slot_list([booma])))
    while state.windows:
        t.act(PASS)
    assert state.has_status(booma, "confusion") and state.zone_of(spores) == "discard:0"
    t.act(PASS)  # to the Enemy Attack step
    rolled = Act(booma, booma, 0, "")
    assert rolled in state.legal_actions()
    assert not [a for a in state.legal_actions() if isinstance(a, Act) and a.source == booma
                and a.targets]  # fmt: skip
    state.apply_action(rolled)
    assert state.is_chance_node()
    everyone = sorted([vyse, booma, rappy])
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    state.apply_action(state.chance_outcome_for(None, everyone.index(rappy)))
    # The roll chose the Rag Rappy: Booma's 2 kills its ally, which has no Defense to ask.
    assert state.zone_of(rappy) == "discard:1" and state.hp_left(vyse) == 6


def test_a_confused_character_rolls_the_targets_of_its_ability_too() -> None:
    """Line 174: "Whenever this character needs to choose a target, the target is randomly
    chosen between all applicable targets": an Ability's target too, not only an Attack's
    (choice 29), rolled among those the Ability may take (Fomar's puts an enemy to sleep)."""
    hands = [["fomar", "rag-rappy-den"], ["vyse", "whirlwind", "booma", "rag-rappy"]]
    t = fight(hands, ["whirlwind", "booma", "rag-rappy"])  # Whirlwind confuses Fomar (line 88)
    state = t.state
    (fomar,) = t.slots(0, ACTIVE)
    booma, rappy = sorted(state.zone_slots("enemies"), key=lambda s: state.card_at(s) != "booma")
    assert state.has_status(fomar, "confusion")
    state.apply_action(Activate(fomar, 0, fomar))
    assert state.is_chance_node()  # no question to seat 0: the table rolls
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 2] * 2)
    candidates = state.zone_slots("enemies")  # in play order, as the Ability would offer them
    state.apply_action(state.chance_outcome_for(None, candidates.index(rappy)))
    assert state.has_status(rappy, "sleep") and not state.has_status(booma, "sleep")
    assert state.counters(0) == 5 - 1 and state.current_player() == 0


def test_poison_kills_an_enemy_in_the_enemy_status_step_and_the_attempt_succeeds() -> None:
    """Line 60-61: each poisoned enemy takes 1 after the actions; line 63: with no enemy left
    the attempt succeeds."""
    hands = [["aika", "vyse", "rag-rappy-den"], ["ryudo", "booma"]]
    t = fight(hands, ["booma"])
    state = t.state
    (booma,) = state.zone_slots("enemies")
    aika, vyse = sorted(t.slots(0, ACTIVE), key=lambda s: state.card_at(s) != "aika")
    t.act(Act(vyse, vyse, 0, slot_list([booma])))
    t.do(Defend, target=booma)  # 2 - 1
    t.act(Act(aika, aika, 0, slot_list([booma])))  # 2 and poison
    assert state.hp_left(booma) == 1 and state.has_status(booma, "poison")
    t.act(PASS)  # Vyse keeps its Support; to the Enemy Attack step
    t.act(PASS)  # Booma does not attack: the Enemy Status step's poison kills it
    assert state.zone_of(booma) == "discard:1"
    assert [state.card_at(s) for s in t.slots(0, SCORE)] == ["rag-rappy-den"]


def test_a_defense_larger_than_the_damage_leaves_it_at_zero() -> None:
    """Line 116: damage never falls below 0 (a Buckler's 2 against a Rag Rappy's 1 heals
    nothing)."""
    hands = [["ryudo", "buckler", "rag-rappy-den"], ["vyse", "rag-rappy", "booma"]]
    t = fight(hands, ["rag-rappy", "booma"])
    state = t.state
    rappy, booma = state.zone_slots("enemies")
    ryudo = t.slots(0, ACTIVE)[0]
    (buckler,) = t.slots(0, INVENTORY)
    t.act(Act(ryudo, ryudo, 0, slot_list([booma])))
    t.act(PASS)  # no Defense; Ryudo has nothing left, so the Enemy Attack step begins
    t.act(Act(booma, booma, 0, slot_list([ryudo])))  # 2
    t.do(Defend, target=ryudo, source=ryudo)  # Ryudo's own Defense 1
    assert state.hp_left(ryudo) == 6 - 1
    t.act(Act(rappy, rappy, 0, slot_list([ryudo])))  # 1
    t.do(Defend, target=ryudo, source=buckler)  # 2: nothing, not a heal
    assert state.hp_left(ryudo) == 5 and state.zone_of(buckler) == "bank:0"
