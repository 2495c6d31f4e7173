"""The rules of rpg-battle, card by card and rule by rule, against the rulebook.

Rulebook: ../shared/seeds/003_cfa394b9cdefb20c.txt; each test cites the line it checks.
Where the book is silent, the engine's choice is cited as "our choice (rules.md §N)": the numbered
list in p2pcards/games/rpg_battle/rules.md (also docs/rules/rpg-battle.md).
Every position is built through the public API, and the test decides every chance outcome.

Most tests use DUEL: seat 0 drafts Gideon (17 HP, STR 4, MAG 2), Mystra (17, 2, 4) and
Vex (13, 4, 4); seat 1 drafts Kalen (17, 3, 3), Sybil (23, 1, 3) and Sera (30, 1, 1).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rpg_helpers import (
    GAME,
    MAG,
    MAX_HP,
    QTY,
    QUICK,
    STR,
    apply,
    attack,
    deal,
    discard_of,
    draft_order,
    end_turn,
    fill,
    hp_map,
    pass_until,
    play,
    play_of,
    react_of,
    setup,
    take_hits,
)

from p2pcards import CHANCE, TERMINAL
from p2pcards.dealer import LocalDealer
from p2pcards.errors import GameOptionError, IllegalActionError
from p2pcards.games.rpg_battle.actions import (
    EndTurn,
    Pass,
    Pick,
    Play,
    Take,
)
from p2pcards.zones import Deal

DUEL = (["gideon", "mystra", "vex"], ["kalen", "sybil", "sera"])
THREE = (["gideon", "mystra"], ["vex", "kalen"], ["sera", "sybil"])
FOUR = (["gideon"], ["vex"], ["kalen"], ["mystra"])
ATTACKS = {"attack": 1, "attack-ii": 2, "attack-iii": 3}  # rulebook lines 38-40
ATTACK_ALLS = {"attack-all": 1, "attack-all-ii": 2}  # rulebook lines 41-42
HEALS = {"heal": 1, "heal-ii": 2, "heal-iii": 3}  # rulebook lines 43-45
HEAL_ALLS = {"heal-all": 1, "heal-all-ii": 2}  # rulebook lines 46-47
ABSORBS = {"absorb": 1, "absorb-ii": 2, "absorb-iii": 3}  # rulebook lines 48-50
REVIVES = {"revive": 1, "revive-ii": 2}  # rulebook lines 51-52
DRAFT_SIZE = {2: 3, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1}  # rulebook line 9
DISCARDS = {"discard": 1, "discard-ii": 2}  # rulebook lines 53-54
DRAWS = {"draw": 1, "draw-ii": 2}  # rulebook lines 55-56


def plays(state, card):
    """The legal plays of one card (fillers in the hand have plays of their own)."""
    return [a for a in state.legal_actions() if isinstance(a, Play) and a.card == card]


def illegal(state, action) -> None:
    """The action is refused, is not among the legal actions, and changes nothing."""
    before = state.public_digest()
    assert action not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert state.public_digest() == before


def seat1_turn_after(*hits, hand1=(), extra0=(), lineups=DUEL):
    """DUEL, where seat 0's Gideon, Mystra and Vex in turn play hits[i] = (card, target) or
    None (pass), each target taking the hit; then seat 0 ends its turn and seat 1 is to act."""
    hand0 = [hit[0] for hit in hits if hit] + list(extra0)
    state = setup(lineups, {0: hand0, 1: list(hand1)})
    for hit in hits:
        if hit:
            attack(state, *hit)
        else:
            state.apply_action(Pass())
    end_turn(state)
    assert state.current_player() == 1
    return state


def kalen_knocked_out(hand1=(), lineup1=DUEL[1]):
    """Seat 1's turn, Kalen KO'd: Attack III by Gideon (12) and Attack II by Vex (8) >= 17 HP;
    Mystra hits Sera with Attack II (2 x 2 = 4): Sera 26/30."""
    hits = ("attack-iii", "kalen"), ("attack-ii", "sera"), ("attack-ii", "kalen")
    state = seat1_turn_after(*hits, hand1=hand1, lineups=(DUEL[0], lineup1))
    assert state.hp("kalen") == 0
    assert state.hp("sera") == MAX_HP["sera"] - 2 * STR["mystra"] == 26
    return state


# ---------------------------------------------------------------------- the components


def test_character_table_matches_rulebook():
    # rulebook lines 13-22: the HP column (STR and MAG are checked by the card tests below).
    state = setup([["vex"], ["kalen"], ["anya"], ["sera"], ["gideon"], ["mystra"], ["sybil"],
                   ["thorne"]])  # fmt: skip
    for name, hp in MAX_HP.items():
        assert state.max_hp(name) == hp, name


def test_deck_composition_matches_rulebook():
    # rulebook line 34: "These 100 cards"; lines 36-59: the Qty column. The first card dealt
    # is any of them with probability Qty / 100.
    assert sum(QTY.values()) == 100
    state = GAME.new_initial_state(2)
    apply(state, *(Pick(name) for name in draft_order(DUEL)))
    assert state.is_chance_node()
    assert state.deck_size() == 100
    outcomes = dict(state.chance_outcomes())
    assert outcomes == pytest.approx({Deal(card): qty / 100 for card, qty in QTY.items()})


def test_no_more_copies_dealt_than_the_deck_holds():
    # rulebook line 47: "Heal All II | 1": the deck holds one copy, so it is dealt only once.
    state = GAME.new_initial_state(2)
    apply(state, *(Pick(name) for name in draft_order(DUEL)))
    deal(state, ["heal-all-ii"])
    assert Deal("heal-all-ii") not in dict(state.chance_outcomes())
    with pytest.raises(IllegalActionError):
        state.apply_action(Deal("heal-all-ii"))


# ---------------------------------------------------------------------------- the draft


@pytest.mark.parametrize("players", range(2, 9))
def test_draft_size_by_seat_count(players):
    # rulebook line 9: "For 2-player games, each player should draft 3 characters. For 3-player
    # games, draft 2 each, and for 4 or more players, choose 1 each."
    each = DRAFT_SIZE[players]
    state = GAME.new_initial_state(players)
    names = list(MAX_HP)
    for name in names[: players * each]:
        assert state.decision().kind == "pick"
        state.apply_action(Pick(name))
    assert state.is_chance_node()  # the draft is over: the deal begins
    assert [len(state.characters(seat)) for seat in range(players)] == [each] * players


def test_seats_take_turns_drafting_and_lineup_is_pick_order():
    # rulebook line 9: "take turns drafting"; our choice (rules.md §1-2): seat 0, 1, 2, 0, 1,
    # 2 (not a snake), and the left-to-right order of line 30 is the pick order.
    state = GAME.new_initial_state(3)
    seen = []
    for name in draft_order(THREE):
        seen.append(state.current_player())
        state.apply_action(Pick(name))
    assert seen == [0, 1, 2, 0, 1, 2]
    assert [state.characters(seat) for seat in range(3)] == [list(line) for line in THREE]


def test_drafted_character_cannot_be_picked_again():
    # rulebook line 9: "take turns drafting each of these characters": each is unique.
    state = GAME.new_initial_state(2)
    state.apply_action(Pick("vex"))
    assert Pick("vex") not in state.legal_actions()
    assert len(state.legal_actions()) == 7
    illegal(state, Pick("vex"))
    illegal(state, Pick("merlin"))  # not a character of lines 15-22 at all


def test_only_picks_during_the_draft():
    # rulebook line 34: cards are dealt "once all players have completed their character draft".
    state = GAME.new_initial_state(2)
    state.apply_action(Pick("vex"))
    illegal(state, Pass())
    illegal(state, play_of(state, "attack", "vex"))


def test_characters_start_at_max_hp():
    # rulebook line 9: "Start each character at their maximum HP".
    state = setup(DUEL)
    for name in DUEL[0] + DUEL[1]:
        assert state.hp(name) == state.max_hp(name) == MAX_HP[name]
        assert state.is_active(name)


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_five_cards_dealt_to_each_player(players):
    # rulebook line 34: "shuffle these and deal 5 cards to each player, then place the rest of
    # the cards facedown as the draw deck".
    state = GAME.new_initial_state(players)
    apply(state, *(Pick(name) for name in list(MAX_HP)[: players * DRAFT_SIZE[players]]))
    fill(state)
    assert [state.hand_size(seat) for seat in range(players)] == [5] * players
    assert state.deck_size() == 100 - 5 * players
    assert state.discard_pile() == []


def test_hands_are_hidden_from_other_seats():
    # rulebook line 57: a Steal takes a card "sight unseen", so hands are hidden; our choice
    # (rules.md §12): a seat's observation knows its own hand only.
    state = setup(DUEL, {0: ["dodge"], 1: ["counter"]})
    view = state.observation(0)
    assert "dodge" in view.hand(0)
    assert view.hand(1) == [None] * 5


# ------------------------------------------------------------------------- the turn


def test_seat_0_opens_and_characters_act_left_to_right_once_each():
    # rulebook line 30: "For each of your active characters, from left to right, you may have
    # them take one action"; our choice (rules.md §1): seat 0 opens the first round.
    state = setup(DUEL)
    acting = []
    while state.decision().kind == "play":
        assert state.current_player() == 0
        acting.append(state.decision().character)
        state.apply_action(Pass())
    assert acting == DUEL[0]
    assert state.decision().kind == "end-turn"
    assert state.current_player() == 0


def test_turn_passes_to_the_next_player():
    # rulebook line 30: "This ends your turn and it passes to the next player."
    state = setup(THREE)
    order = []
    for _ in range(4):
        order.append((state.current_player(), state.decision().character))
        end_turn(state)
    assert order == [(0, "gideon"), (1, "vex"), (2, "sera"), (0, "gideon")]


def test_pass_spends_no_card():
    # rulebook line 30: "you MAY have them take one action": a character can do nothing.
    state = setup(DUEL, {0: ["attack"]})
    assert Pass() in state.legal_actions()
    state.apply_action(Pass())
    assert state.hand_size(0) == 5
    assert state.discard_pile() == []
    assert state.decision().character == "mystra"


def test_card_not_in_hand_is_refused():
    # rulebook line 30: an action is taken "by playing a card from your hand".
    state = setup(DUEL, {0: ["attack"]})
    illegal(state, play_of(state, "attack-iii", "kalen"))
    illegal(state, play_of(state, "fireball", "kalen"))


def test_turn_ends_only_after_every_character_acted():
    # rulebook line 30: "After you have exhausted your actions, you may draw ...".
    state = setup(DUEL)
    for _ in DUEL[0]:
        illegal(state, EndTurn(False))
        state.apply_action(Pass())
    assert state.legal_actions() == [EndTurn(False)]


def test_end_turn_draw_back_up_to_five():
    # rulebook line 30: "you may draw back up to a 5-card hand".
    state = setup(DUEL, {0: ["attack"] * 3})
    for _ in DUEL[0]:
        attack(state, "attack", "sera")
    assert state.hand_size(0) == 2
    assert state.legal_actions() == [EndTurn(True), EndTurn(False)]
    deck = state.deck_size()
    state.apply_action(EndTurn(True))
    deal(state, ["heal", "heal-ii", "draw"])
    assert not state.is_chance_node()
    assert state.hand_size(0) == 5
    assert state.deck_size() == deck - 3
    assert state.current_player() == 1


def test_end_turn_draw_one():
    # rulebook line 30: "..., or draw 1. This ends your turn".
    state = setup(DUEL, {0: ["attack"] * 3})
    for _ in DUEL[0]:
        attack(state, "attack", "sera")
    state.apply_action(EndTurn(False))
    deal(state, ["draw"])
    assert not state.is_chance_node()
    assert state.hand_size(0) == 3
    assert "draw" in state.hand(0)
    assert state.current_player() == 1


@pytest.mark.parametrize(("played", "offers_refill"), [(0, False), (1, False), (2, True)])
def test_draw_up_to_five_offered_only_when_it_draws_more_than_one(played, offers_refill):
    # rulebook line 30: "draw back up to a 5-card hand, or draw 1"; our choice (rules.md
    # §14): with 4 or more cards the refill is no better than drawing 1, so only
    # "draw 1" is offered.
    state = setup(DUEL, {0: ["attack"] * played})
    for _ in range(played):
        attack(state, "attack", "sera")
    while state.decision().kind == "play":
        state.apply_action(Pass())
    assert EndTurn(False) in state.legal_actions()
    if offers_refill:
        assert EndTurn(True) in state.legal_actions()
    else:
        illegal(state, EndTurn(True))


def test_no_hand_limit_after_drawing_one():
    # rulebook line 30: "or draw 1"; the book sets no hand limit (rules.md §13), so a
    # full hand of 5 becomes 6.
    state = setup(DUEL)
    end_turn(state, refill=False)
    assert state.hand_size(0) == 6


def test_reshuffle_discard_pile_when_the_deck_runs_out():
    # rulebook line 34: a "draw deck ... with space next to it for a discard pile"; the book is
    # silent on an empty deck. Our choice (rules.md §15): when a draw finds the deck
    # empty, the discard pile is shuffled into a new face-down deck.
    state = setup(DUEL, {0: ["draw"]})
    play(state, "draw")
    fill(state)
    assert state.discard_pile() == ["draw"]
    while state.deck_size() > 0:
        end_turn(state)
    assert state.reshuffles() == 0  # nothing happens until a card must be drawn
    assert state.discard_pile() == ["draw"]
    seat = state.current_player()
    hand = state.hand_size(seat)
    while state.decision().kind == "play":
        state.apply_action(Pass())
    state.apply_action(EndTurn(False))
    assert state.reshuffles() == 1
    assert state.discard_pile() == []
    assert state.deck_size() == 1
    assert state.chance_outcomes() == [(Deal("draw"), 1.0)]
    state.apply_action(Deal("draw"))
    assert state.hand_size(seat) == hand + 1
    assert state.deck_size() == 0


def test_draw_with_no_card_anywhere_draws_nothing():
    # rulebook line 30: "draw 1"; our choice (rules.md §15): with the deck and the discard
    # pile both empty there is nothing to draw, and the turn simply ends.
    state = setup(DUEL)
    while state.deck_size() > 0:
        end_turn(state)
    assert state.discard_pile() == []
    seat = state.current_player()
    hand = state.hand_size(seat)
    end_turn(state)
    assert not state.is_chance_node()
    assert state.hand_size(seat) == hand
    assert state.reshuffles() == 0
    assert state.current_player() == 1 - seat


# ---------------------------------------------------------------- knock-outs and HP


def test_one_hp_left_is_still_active():
    # rulebook line 9: KO only "If they would drop below 1 HP".
    state = setup(DUEL, {0: ["attack-iii", "attack"]})
    attack(state, "attack-iii", "kalen")  # Gideon: 4 x 3 = 12
    state.apply_action(Pass())
    attack(state, "attack", "kalen")  # Vex: 4
    assert state.hp("kalen") == 17 - 12 - 4 == 1
    assert state.is_active("kalen")


def test_ko_below_one_hp():
    # rulebook line 9 / 26: "If they would drop below 1 HP ... they cannot take action"; the HP
    # marker stops at 0 (Kalen 17 - 12 - 6 would be -1).
    state = setup(DUEL, {0: ["attack-iii", "attack-iii", "attack"]})
    attack(state, "attack-iii", "kalen")  # Gideon: 12
    attack(state, "attack-iii", "kalen")  # Mystra: 2 x 3 = 6
    assert state.hp("kalen") == 0
    assert not state.is_active("kalen")


def test_kod_character_cannot_be_attacked():
    # rulebook line 9: a KO'd card is tilted out of the battle; our choice (rules.md §8):
    # attacks target active opposing characters only.
    state = setup(DUEL, {0: ["attack-iii", "attack-iii", "attack"]})
    attack(state, "attack-iii", "kalen")
    attack(state, "attack-iii", "kalen")
    illegal(state, play_of(state, "attack", "kalen"))
    assert {a.target for a in plays(state, "attack")} == {"sybil", "sera"}


def test_kod_character_cannot_act():
    # rulebook line 9: "tilt their card sideways to signify that they cannot take action".
    state = kalen_knocked_out(hand1=["attack"])
    acting = []
    while state.decision().kind == "play":
        acting.append(state.decision().character)
        state.apply_action(Pass())
    assert acting == ["sybil", "sera"]


@pytest.mark.parametrize("card", [*HEALS, *ABSORBS])
def test_kod_character_cannot_be_healed(card):
    # rulebook line 9: "cannot be healed except via the Revive action"; line 26: "they cannot be
    # healed with normal healing spells". Absorbing damage away from them would heal them too.
    state = kalen_knocked_out(hand1=[card])
    assert state.decision().character == "sybil"
    illegal(state, play_of(state, card, "kalen"))


@pytest.mark.parametrize("card", HEAL_ALLS)
def test_heal_all_leaves_kod_character_at_zero(card):
    # rulebook line 9: "cannot be healed except via the Revive action" (Heal All, lines 46-47,
    # heals the others). Sybil's MAG is 3.
    state = kalen_knocked_out(hand1=[card])
    play(state, card)
    assert state.hp("kalen") == 0
    assert not state.is_active("kalen")
    assert state.hp("sera") == min(30, 26 + MAG["sybil"] * HEAL_ALLS[card])  # 29, then 30


def test_hp_never_exceeds_max_after_heal():
    # rulebook line 9: characters start "at their maximum HP", the top cell of their card: Heal
    # III (3 x 3 = 9) on Kalen at 13/17 stops at 17.
    state = seat1_turn_after(("attack", "kalen"), hand1=["heal-iii"])
    assert state.hp("kalen") == 13
    play(state, "heal-iii", "kalen")
    assert state.hp("kalen") == 17


def test_heal_targets_only_characters_with_damage():
    # rulebook line 43: "Remove MAG damage": our choice (rules.md §8): a Heal that has a
    # character with damage to act on is played at one, never at a character with none.
    state = seat1_turn_after(("attack", "kalen"), hand1=["heal"])
    illegal(state, play_of(state, "heal", "sybil"))
    illegal(state, play_of(state, "heal"))  # not at no one either: it has something to act on
    assert plays(state, "heal") == [play_of(state, "heal", "kalen")]


def four_way_battle():
    """FOUR after three turns: Gideon's Attack All II (8 each), Vex KOs Kalen (seat 2 out),
    Mystra KOs Vex (seat 1 out); seat 0 to act."""
    state = setup(FOUR, {0: ["attack-all-ii", "attack-iii"], 1: ["attack-iii"], 3: ["attack-iii"]})
    play(state, "attack-all-ii")
    take_hits(state)
    assert hp_map(state) == {"gideon": 17, "vex": 13 - 8, "kalen": 17 - 8, "mystra": 17 - 8}
    end_turn(state)
    attack(state, "attack-iii", "kalen")  # Vex: 12 >= 9
    end_turn(state)
    assert state.current_player() == 3  # seat 2 is out: its turn is skipped
    attack(state, "attack-iii", "vex")  # Mystra: 2 x 3 = 6 >= 5
    end_turn(state)
    return state


def test_player_out_when_all_characters_kod():
    # rulebook line 26: "if all of a player's characters are KO'd, they are out of the game".
    state = four_way_battle()
    assert state.current_player() == 0
    assert not state.is_terminal()
    assert {a.target for a in plays(state, "attack-iii")} == {"mystra"}
    state.apply_action(Pass())
    end_turn(state)
    assert state.current_player() == 3  # seats 1 and 2 get no more turns


def test_last_player_with_an_active_character_wins():
    # rulebook line 26: "The winner is the last player with at least one character still active."
    state = four_way_battle()
    attack(state, "attack-iii", "mystra")  # Gideon: 12 >= 9
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.winners() == [0]
    assert state.returns() == [1.0, 0.0, 0.0, 0.0]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply_action(Pass())


def test_game_goes_on_while_two_players_have_active_characters():
    # rulebook line 26: the game ends only with one player left.
    state = kalen_knocked_out()
    assert not state.is_terminal()
    assert state.winners() == []
    assert state.returns() == [0.0, 0.0]


# -------------------------------------------------------------------- attack cards


@pytest.mark.parametrize("attacker", ["gideon", "mystra"])
@pytest.mark.parametrize("card", ATTACKS)
def test_attack_deals_str_times_power(card, attacker):
    # rulebook lines 38-40: "Deal STR damage" / "STR X 2" / "STR X 3" "to one character";
    # line 7: "Their STR determines how powerful their attacks are".
    state = setup(DUEL, {0: [card]})
    pass_until(state, attacker)
    before = hp_map(state)
    attack(state, card, "sera")
    assert state.hp("sera") == 30 - STR[attacker] * ATTACKS[card]
    assert hp_map(state) == {**before, "sera": state.hp("sera")}
    assert state.discard_pile() == [card]
    assert state.hand_size(0) == 4


@pytest.mark.parametrize("card", ATTACKS)
def test_attack_cannot_target_own_character(card):
    # rulebook line 38: "one character"; our choice (rules.md §8): an opposing one.
    state = setup(DUEL, {0: [card]})
    for own in DUEL[0]:
        illegal(state, play_of(state, card, own))
    assert {a.target for a in plays(state, card)} == set(DUEL[1])


@pytest.mark.parametrize("card", ATTACK_ALLS)
def test_attack_all_hits_every_opposing_character(card):
    # rulebook lines 41-42: "Deal STR (X 2) damage to all opposing characters."
    state = setup(DUEL, {0: [card]})
    play(state, card)
    take_hits(state)
    damage = STR["gideon"] * ATTACK_ALLS[card]
    assert hp_map(state) == {
        **{name: MAX_HP[name] for name in DUEL[0]},
        **{name: MAX_HP[name] - damage for name in DUEL[1]},
    }
    assert state.discard_pile() == [card]


@pytest.mark.parametrize("card", ATTACK_ALLS)
def test_attack_all_asks_each_targets_owner_separately(card):
    # rulebook line 41: "all opposing characters", each of which may answer with a Quick Action
    # (lines 58-59): every target's owner is asked on its own, in seat order, left to right.
    damage = STR["gideon"] * ATTACK_ALLS[card]
    state = setup(THREE, {0: [card], 1: ["dodge"], 2: ["counter"]})
    play(state, card)
    asked = []
    answers = {"vex": react_of(state, "dodge", 1), "sybil": react_of(state, "counter", 2)}
    while state.decision().kind == "react":
        d = state.decision()
        assert (d.attacker, d.damage) == ("gideon", damage)
        asked.append((state.current_player(), d.character))
        state.apply_action(answers.get(d.character, Pass()))
    assert asked == [(1, "vex"), (1, "kalen"), (2, "sera"), (2, "sybil")]
    assert hp_map(state) == {
        "gideon": 17 - damage,  # Sybil's Counter
        "mystra": 17,
        "vex": 13,  # Vex dodged
        "kalen": 17 - damage,
        "sera": 30 - damage,
        "sybil": 23,
    }


def test_attack_all_skips_kod_characters():
    # rulebook line 41: "all opposing characters": a KO'd one is out of the battle (line 9).
    state = setup(DUEL, {0: ["attack-iii", "attack-iii", "attack-all"]})
    attack(state, "attack-iii", "kalen")
    attack(state, "attack-iii", "kalen")
    play(state, "attack-all")
    asked = []
    while state.decision().kind == "react":
        asked.append(state.decision().character)
        state.apply_action(Pass())
    assert asked == ["sybil", "sera"]
    assert state.hp("kalen") == 0


# ---------------------------------------------------------------------- Quick Actions


@pytest.mark.parametrize("card", QUICK)
def test_quick_action_cannot_be_played_on_own_turn(card):
    # rulebook line 30: "playing a card from your hand (other than a Quick Action card, which you
    # may use during other people's turns)".
    state = setup(DUEL, {0: [card, "attack"]})
    assert not any(isinstance(a, Play) and a.card == card for a in state.legal_actions())
    illegal(state, play_of(state, card))
    illegal(state, play_of(state, card, "kalen"))
    illegal(state, react_of(state, card))


def test_attacked_owner_answers_during_the_attackers_turn():
    # rulebook line 30: Quick Actions are used "during other people's turns"; lines 58-59: "Use
    # when being attacked". The window goes to the target's owner, with the Quick cards held.
    state = setup(DUEL, {0: ["attack-ii"], 1: ["dodge", "counter", "attack"]})
    play(state, "attack-ii", "kalen")
    d = state.decision()
    assert (d.kind, d.character, d.attacker, d.damage) == ("react", "kalen", "gideon", 8)
    assert state.current_player() == 1
    assert state.legal_actions() == [Pass(), react_of(state, "dodge"), react_of(state, "counter")]
    illegal(state, react_of(state, "attack"))  # not a Quick Action
    illegal(state, play_of(state, "attack", "gideon"))  # no actions of its own in seat 0's turn


def test_reaction_window_opens_even_without_a_quick_card():
    # rulebook line 58: "Use when being attacked"; our choice (rules.md §5): the window
    # opens whenever the owner holds cards, so the table's rhythm reveals nothing.
    state = setup(DUEL, {0: ["attack"]})
    play(state, "attack", "kalen")
    assert state.current_player() == 1
    assert state.legal_actions() == [Pass()]
    illegal(state, react_of(state, "dodge"))  # seat 1 holds no Dodge
    state.apply_action(Pass())
    assert state.hp("kalen") == 17 - 4


def empty_seat2_hand(hand1):
    """THREE: Gideon's and Mystra's Discard II leave seat 2 one card, Vex's Discard the last."""
    state = setup(THREE, {0: ["discard-ii", "discard-ii"], 1: ["discard", *hand1]})
    for _ in range(2):
        play(state, "discard-ii", seat=2)
        for _ in range(2):
            state.apply_action(discard_of(state, state.hand(2)[0]))
    end_turn(state)
    play(state, "discard", seat=2)
    state.apply_action(discard_of(state, state.hand(2)[0]))
    assert state.hand_size(2) == 0
    assert state.decision().character == "kalen"
    return state


def test_no_reaction_window_when_owner_holds_no_card():
    # rulebook line 58: a reaction needs a card; our choice (rules.md §5): with an empty
    # hand there is nothing to wait for, the damage lands at once.
    state = empty_seat2_hand(["attack"])
    play(state, "attack", "sera")
    assert state.hp("sera") == 30 - STR["kalen"]
    assert state.decision().kind == "end-turn"
    assert state.current_player() == 1


@pytest.mark.parametrize("card", [*ATTACKS, *ATTACK_ALLS])
def test_dodge_takes_zero_damage(card):
    # rulebook line 58: "Dodge ... Use when being attacked to take zero damage."
    power = {**ATTACKS, **ATTACK_ALLS}[card]
    state = setup(DUEL, {0: [card], 1: ["dodge"]})
    play(state, card, None if card in ATTACK_ALLS else "kalen")
    assert state.decision().character == "kalen"
    state.apply_action(react_of(state, "dodge"))
    take_hits(state)
    assert state.hp("kalen") == 17
    assert state.hp("gideon") == 17
    if card in ATTACK_ALLS:  # the others did not dodge
        assert state.hp("sybil") == 23 - 4 * power
    assert state.discard_pile() == [card, "dodge"]
    assert "dodge" not in state.hand(1)


@pytest.mark.parametrize("card", [*ATTACKS, *ATTACK_ALLS])
def test_counter_reverses_the_attack(card):
    # rulebook line 59: "Counter ... Use when being attacked to reverse the attack": the
    # attacker takes the STR x power it meant to deal.
    power = {**ATTACKS, **ATTACK_ALLS}[card]
    state = setup(DUEL, {0: [card], 1: ["counter"]})
    play(state, card, None if card in ATTACK_ALLS else "kalen")
    state.apply_action(react_of(state, "counter"))
    asked = []
    while state.decision().kind == "react":
        asked.append(state.decision().character)
        state.apply_action(Pass())
    assert asked == (["sybil", "sera"] if card in ATTACK_ALLS else [])  # never Gideon: rules.md §7
    assert state.hp("kalen") == 17
    assert state.hp("gideon") == 17 - STR["gideon"] * power
    assert state.discard_pile() == [card, "counter"]
    assert "counter" not in state.hand(1)


def test_counter_can_knock_out_the_attacker():
    # rulebook line 59: "reverse the attack"; with line 9 a reversed attack can KO: Vex (13)
    # already took Kalen's Attack (3), then its own Attack III (12) comes back: 10 - 12 < 1.
    state = seat1_turn_after(None, None, None, hand1=["attack", "counter"], extra0=["attack-iii"])
    attack(state, "attack", "vex")
    end_turn(state)
    pass_until(state, "vex")
    play(state, "attack-iii", "kalen")
    state.apply_action(react_of(state, "counter"))
    assert state.hp("vex") == 0
    assert state.hp("kalen") == 17
    assert state.decision().kind == "end-turn"  # Vex was the last to act


def test_counter_knockout_mid_attack_all_lets_the_other_hits_land():
    # rulebook line 59: "reverse the attack"; our choice (rules.md §7): if a Counter KOs the
    # attacker mid-Attack All, the remaining hits still land. Vex (13) took Kalen's Attack III
    # (9); its Attack All (4) countered by Kalen leaves it 0; Sybil and Sera still take 4.
    state = seat1_turn_after(
        None, None, None, hand1=["attack-iii", "counter"], extra0=["attack-all"]
    )
    attack(state, "attack-iii", "vex")
    assert state.hp("vex") == 4
    end_turn(state)
    pass_until(state, "vex")
    play(state, "attack-all")
    state.apply_action(react_of(state, "counter"))
    assert state.hp("vex") == 0
    take_hits(state)
    assert (state.hp("kalen"), state.hp("sybil"), state.hp("sera")) == (17, 19, 26)


def test_knocked_out_on_own_turn_ends_it_without_drawing():
    # rulebook line 26: "if all of a player's characters are KO'd, they are out of the game"; our
    # choice (rules.md §16): KO'd on its own turn (by a Counter), the seat's turn ends at once,
    # without the end-of-turn draw. Vex (seat 0) at 10 attacks Kalen, whose Counter returns 12.
    state = setup([["vex"], ["kalen"], ["sera"], ["sybil"]],
                  {0: ["attack-iii"], 1: ["attack", "counter"]})  # fmt: skip
    end_turn(state)
    attack(state, "attack", "vex")
    for _ in range(3):
        end_turn(state)
    assert (state.current_player(), state.hp("vex")) == (0, 10)
    hand = state.hand_size(0)
    play(state, "attack-iii", "kalen")
    state.apply_action(react_of(state, "counter"))
    assert state.hp("vex") == 0
    assert not state.is_terminal()
    assert state.decision().kind == "play"
    assert (state.current_player(), state.decision().character) == (1, "kalen")
    assert state.hand_size(0) == hand - 1


# ----------------------------------------------------------------------- heal cards


@pytest.mark.parametrize("card", HEALS)
def test_heal_removes_mag_times_power(card):
    # rulebook lines 43-45: "Remove MAG (X 2, X 3) damage from one character"; line 7: "MAG
    # determines how powerful their healing spells". Kalen (MAG 3) heals Sera at 18/30.
    state = seat1_turn_after(None, None, ("attack-iii", "sera"), hand1=[card])
    assert state.hp("sera") == 18
    play(state, card, "sera")
    assert state.hp("sera") == 18 + MAG["kalen"] * HEALS[card]
    assert state.discard_pile() == ["attack-iii", card]


def test_heal_only_friendly_characters():
    # rulebook line 43: Heal: "Remove MAG damage from one character."; line 38: Attack: "Deal
    # STR damage to one character."; lines 41 and 46 name each family's side: "all opposing
    # characters", "all friendly characters". Our choice (rules.md §8): a single-target card
    # acts on its family's side, so Heal on one of your own, as Attack on an opponent. Kalen
    # hits Gideon, then Sybil may not heal him.
    state = seat1_turn_after(("attack-iii", "kalen"), hand1=["attack", "heal"])
    attack(state, "attack", "gideon")
    assert state.hp("gideon") == 17 - 3
    illegal(state, play_of(state, "heal", "gideon"))
    assert plays(state, "heal") == [play_of(state, "heal", "kalen")]


@pytest.mark.parametrize("card", HEAL_ALLS)
def test_heal_all_heals_every_friendly_character(card):
    # rulebook lines 46-47: "Remove MAG (X 2) damage from all friendly characters", never above
    # max HP (line 9). Kalen (MAG 3) heals Kalen 5/17, Sybil 21/23, Sera 18/30.
    state = seat1_turn_after(
        ("attack-iii", "kalen"), ("attack", "sybil"), ("attack-iii", "sera"), hand1=[card]
    )
    amount = MAG["kalen"] * HEAL_ALLS[card]
    play(state, card)
    assert hp_map(state) == {
        "gideon": 17, "mystra": 17, "vex": 13,
        "kalen": 5 + amount, "sybil": min(23, 21 + amount), "sera": 18 + amount,
    }  # fmt: skip
    assert state.hp("sybil") == 23


def test_heal_all_with_no_damage_is_played_to_no_effect():
    # rulebook line 30: "take one action by playing a card from your hand" (no rule asks that
    # the card do something); our choice (rules.md §8): a card with nothing to act on may still
    # be played, to no effect. Heal All with every friend at full HP heals no one.
    state = setup(DUEL, {0: ["heal-all"]})
    before = hp_map(state)
    assert plays(state, "heal-all") == [play_of(state, "heal-all")]
    play(state, "heal-all")
    assert hp_map(state) == before
    assert state.discard_pile() == ["heal-all"]
    assert state.hand_size(0) == 4
    assert state.decision().character == "mystra"


# --------------------------------------------------------------------- absorb cards


def absorbs(state, card, target):
    """The amounts offered for an Absorb from `target`."""
    return [a.amount for a in plays(state, card) if a.target == target]


@pytest.mark.parametrize("card", ABSORBS)
def test_absorb_moves_mag_times_power_damage_to_self(card):
    # rulebook lines 48-50: "Move up to MAG (X 2, X 3) damage from elsewhere to self." Kalen
    # (MAG 3) takes damage off Sera at 18/30: the most the card allows.
    state = seat1_turn_after(None, None, ("attack-iii", "sera"), hand1=[card])
    moved = MAG["kalen"] * ABSORBS[card]
    state.apply_action(play_of(state, card, "sera", amount=moved))
    assert state.hp("sera") == 18 + moved
    assert state.hp("kalen") == 17 - moved
    assert state.discard_pile() == ["attack-iii", card]


@pytest.mark.parametrize("card", ABSORBS)
def test_absorb_amount_is_the_players_choice(card):
    # rulebook lines 48-50: "Move UP TO MAG (X 2, X 3) damage": our choice (rules.md §10): the
    # player names the amount, any whole number from 1 to MAG x power. Kalen moves just 2.
    state = seat1_turn_after(None, None, ("attack-iii", "sera"), hand1=[card])
    most = MAG["kalen"] * ABSORBS[card]
    assert absorbs(state, card, "sera") == list(range(1, most + 1))
    illegal(state, play_of(state, card, "sera", amount=most + 1))
    illegal(state, play_of(state, card, "sera", amount=0))
    illegal(state, play_of(state, card, "sera"))  # an Absorb names its amount
    state.apply_action(play_of(state, card, "sera", amount=2))
    assert (state.hp("sera"), state.hp("kalen")) == (20, 15)


def test_absorb_moves_no_more_than_the_damage_there():
    # rulebook line 49: "up to MAG X 2" damage "from elsewhere": Sera has only 2 damage, so
    # Absorb II (6) can move 1 or 2.
    state = seat1_turn_after(None, ("attack", "sera"), hand1=["absorb-ii"])
    assert absorbs(state, "absorb-ii", "sera") == [1, 2]
    illegal(state, play_of(state, "absorb-ii", "sera", amount=3))
    state.apply_action(play_of(state, "absorb-ii", "sera", amount=2))
    assert (state.hp("sera"), state.hp("kalen")) == (30, 15)


def test_absorb_may_knock_out_the_absorber():
    # rulebook line 48: "Move up to MAG damage from elsewhere to self"; line 9: "If they would
    # drop below 1 HP during battle", they are KO'd. Nothing caps the amount by the absorber's
    # HP (our choice, rules.md §10). Kalen at 5 takes 9 of Sera's 12 damage and is KO'd.
    state = seat1_turn_after(
        ("attack-iii", "kalen"), None, ("attack-iii", "sera"), hand1=["absorb-iii"]
    )
    assert state.hp("kalen") == 5
    assert absorbs(state, "absorb-iii", "sera") == list(range(1, 10))
    state.apply_action(play_of(state, "absorb-iii", "sera", amount=9))
    assert (state.hp("kalen"), state.hp("sera")) == (0, 27)
    assert not state.is_active("kalen")
    assert not state.is_terminal()
    assert state.decision().character == "sybil"


def test_absorb_only_from_another_friendly_character():
    # rulebook line 48: "from elsewhere to self"; our choice (rules.md §10): from another of
    # your own characters with damage (the healing family's side, rules.md §8), never from
    # oneself. Kalen has just hit Gideon, so Sybil (MAG 3) can only take 1-3 from Sera.
    state = seat1_turn_after(None, None, ("attack-iii", "sera"), hand1=["attack", "absorb"])
    attack(state, "attack", "gideon")
    assert state.decision().character == "sybil"
    assert [(a.target, a.amount) for a in plays(state, "absorb")] == [
        ("sera", 1), ("sera", 2), ("sera", 3),
    ]  # fmt: skip
    for target in ("gideon", "sybil", "kalen"):
        illegal(state, play_of(state, "absorb", target, amount=1))
    state.apply_action(play_of(state, "absorb", "sera", amount=3))
    assert (state.hp("sera"), state.hp("sybil")) == (21, 20)


def test_absorb_never_from_a_kod_character():
    # rulebook line 9: a KO'd character "cannot be healed except via the Revive action", and
    # taking its damage away would heal it.
    state = kalen_knocked_out(hand1=["absorb"])
    assert state.decision().character == "sybil"
    illegal(state, play_of(state, "absorb", "kalen", amount=1))
    assert {a.target for a in plays(state, "absorb")} == {"sera"}


# --------------------------------------------------------------------- revive cards


@pytest.mark.parametrize("card", REVIVES)
def test_revive_brings_back_with_mag_times_power_hp(card):
    # rulebook lines 51-52: "Revive and heal a character up to MAG (X 2) HP"; line 9: a KO'd
    # character "cannot be healed except via the Revive action". Sybil (MAG 3) revives Kalen.
    state = kalen_knocked_out(hand1=[card])
    play(state, card, "kalen")
    assert state.hp("kalen") == MAG["sybil"] * REVIVES[card]
    assert state.is_active("kalen")
    assert state.decision().character == "sera"  # our choice (rules.md §16): Kalen, to the
    end_turn(state)  # left of Sybil, already had its chance this turn
    end_turn(state)
    assert state.decision().character == "kalen"  # and acts again from the next turn


def test_revived_character_to_the_right_acts_this_turn():
    # rulebook line 30: "For each of your active characters, from left to right"; our choice
    # (rules.md §16): a character revived to the right of the one acting still acts this turn.
    state = kalen_knocked_out(hand1=["revive"], lineup1=["sybil", "kalen", "sera"])
    assert state.decision().character == "sybil"
    play(state, "revive", "kalen")
    assert state.decision().character == "kalen"


@pytest.mark.parametrize("card", REVIVES)
def test_revive_only_kod_characters(card):
    # rulebook line 51: "Revive and heal a character": only a KO'd one (line 9).
    state = kalen_knocked_out(hand1=[card])
    for target in ("sera", "sybil", "gideon"):
        illegal(state, play_of(state, card, target))
    assert plays(state, card) == [play_of(state, card, "kalen")]


def test_revive_only_friendly_characters():
    # rulebook line 51: "Revive and heal a character"; our choice (rules.md §8): one of your
    # own, the healing family's side (Heal All, line 46: "all friendly characters"). Seat 0's
    # Gideon holds a Revive while seat 1's Kalen is KO'd: nothing to act on.
    hits = ("attack-iii", "kalen"), ("attack-ii", "sera"), ("attack-ii", "kalen")
    state = seat1_turn_after(*hits, extra0=["revive"])
    end_turn(state)
    assert state.decision().character == "gideon"
    illegal(state, play_of(state, "revive", "kalen"))
    assert plays(state, "revive") == [play_of(state, "revive")]


# -------------------------------------------------------------------- discard cards


@pytest.mark.parametrize("card", DISCARDS)
def test_discard_victim_chooses_the_cards(card):
    # rulebook lines 53-54: "An opponent must discard 1 (2) card(s) from their hand": the
    # opponent chooses which.
    state = setup(DUEL, {0: [card], 1: ["dodge", "counter", "heal"]})
    play(state, card, seat=1)
    chosen = ["counter", "heal"][: DISCARDS[card]]
    for left, choice in zip(range(DISCARDS[card], 0, -1), chosen, strict=True):
        d = state.decision()
        assert (d.kind, d.count, state.current_player()) == ("discard", left, 1)
        assert set(state.legal_actions()) == {discard_of(state, c) for c in state.hand(1)}
        state.apply_action(discard_of(state, choice))
    assert state.discard_pile() == [card, *chosen]
    assert state.hand_size(1) == 5 - DISCARDS[card]
    assert state.current_player() == 0
    assert state.decision().character == "mystra"


def test_discard_choice_must_be_held():
    # rulebook line 53: "discard 1 card from THEIR hand".
    state = setup(DUEL, {0: ["discard"], 1: ["dodge"]})
    play(state, "discard", seat=1)
    illegal(state, discard_of(state, "counter"))
    illegal(state, Pass())


def test_discard_stops_when_the_victims_hand_is_empty():
    # rulebook line 54: "discard 2 cards"; our choice (rules.md §11): a victim holding 1
    # card discards just that one.
    state = setup(THREE, {0: ["discard-ii", "discard"], 1: ["discard", "discard-ii"]})
    for card in ("discard-ii", "discard"):
        play(state, card, seat=2)
        while state.decision().kind == "discard":
            state.apply_action(discard_of(state, state.hand(2)[0]))
    end_turn(state)
    play(state, "discard", seat=2)
    state.apply_action(discard_of(state, state.hand(2)[0]))
    assert state.hand_size(2) == 1
    play(state, "discard-ii", seat=2)
    state.apply_action(discard_of(state, state.hand(2)[0]))
    assert state.hand_size(2) == 0
    assert state.decision().kind == "end-turn"
    assert state.current_player() == 1


def test_discard_and_steal_need_an_opponent_with_cards():
    # rulebook lines 53 and 57: "from their hand" / "from an opponents hand"; our choice
    # (rules.md §11-12): never at oneself, nor at a seat with an empty hand.
    state = empty_seat2_hand(["steal"])
    illegal(state, play_of(state, "steal", seat=2))
    illegal(state, play_of(state, "steal", seat=1))
    assert plays(state, "steal") == [play_of(state, "steal", seat=0)]


# ------------------------------------------------------------- cards with no effect


@pytest.mark.parametrize("card", ["heal", "heal-ii", "absorb", "absorb-iii", "revive"])
def test_card_with_nothing_to_act_on_is_played_to_no_effect(card):
    # rulebook line 30: "you may have them take one action by playing a card from your hand":
    # the action is playing a card; no rule asks that it do something. Our choice (rules.md
    # §8): with nothing to act on (no damage anywhere, no one KO'd) the card is offered once, at
    # no one; it goes to the discard pile and does nothing.
    state = setup(DUEL, {0: [card]})
    before = hp_map(state)
    assert plays(state, card) == [play_of(state, card)]
    illegal(state, play_of(state, card, "gideon"))
    play(state, card)
    assert hp_map(state) == before
    assert state.discard_pile() == [card]
    assert state.hand_size(0) == 4


def test_playing_dead_cards_empties_the_hand_for_the_refill():
    # rulebook line 30: "After you have exhausted your actions, you may draw back up to a 5-card
    # hand": a hand emptied of cards that can do nothing is refilled with fresh ones, which is
    # why such cards are offered (rules.md §8).
    state = setup(DUEL, {0: ["revive", "revive-ii", "heal-all", "dodge", "counter"]})
    for card in ("revive", "revive-ii", "heal-all"):
        play(state, card)
    assert sorted(state.hand(0)) == ["counter", "dodge"]
    assert EndTurn(True) in state.legal_actions()
    state.apply_action(EndTurn(True))
    deal(state, ["attack-iii", "attack-iii", "attack-ii"])
    assert sorted(state.hand(0)) == ["attack-ii", "attack-iii", "attack-iii", "counter", "dodge"]


# ------------------------------------------------------------------------ draw cards


@pytest.mark.parametrize("card", DRAWS)
def test_draw_takes_extra_cards(card):
    # rulebook lines 55-56: "You may draw an additional card" / "up to 2 additional cards";
    # our choice (rules.md §13): the card draws them in full, at once, to the player only.
    state = setup(DUEL, {0: [card]})
    deck = state.deck_size()
    play(state, card)
    for _ in range(DRAWS[card]):
        assert state.is_chance_node()
        assert state.observation(1).chance_outcomes() == [(Deal(None), 1.0)]
        state.apply_action(Deal("heal-ii"))
    assert not state.is_chance_node()
    assert state.hand(0).count("heal-ii") == DRAWS[card]
    assert state.hand_size(0) == 5 - 1 + DRAWS[card]
    assert state.deck_size() == deck - DRAWS[card]
    assert state.discard_pile() == [card]
    assert state.decision().character == "mystra"


# ----------------------------------------------------------------------- steal card

VICTIM_HAND = ["dodge", "dodge", "heal", "counter", "attack-iii"]


def steal_from_seat1():
    """THREE: Gideon plays Steal at seat 1, which holds VICTIM_HAND: the chance node."""
    state = setup(THREE, {0: ["steal"], 1: VICTIM_HAND})
    play(state, "steal", seat=1)
    assert state.is_chance_node()
    return state


def test_steal_is_a_chance_node_over_the_victims_hand():
    # rulebook line 57: "Take a card, sight unseen": each card of the victim's hand is equally
    # likely; the outcome names the position taken and the card there.
    state = steal_from_seat1()
    assert state.current_player() == CHANCE
    expected = {Take(i, card): 0.2 for i, card in enumerate(VICTIM_HAND)}
    assert dict(state.chance_outcomes()) == pytest.approx(expected)
    with pytest.raises(IllegalActionError):
        state.apply_action(Take(0, "revive"))  # position 0 holds a Dodge
    with pytest.raises(IllegalActionError):
        state.apply_action(Take(5, "dodge"))  # the victim holds five cards


def test_steal_moves_the_card_to_the_thief():
    # rulebook line 57: "Take a card ... from an opponents hand."
    state = steal_from_seat1()
    state.apply_action(Take(3, "counter"))
    assert Counter(state.hand(1)) == Counter(VICTIM_HAND) - Counter(["counter"])
    assert state.hand(0).count("counter") == 1
    assert state.hand_size(0) == 5
    assert state.discard_pile() == ["steal"]
    assert state.decision().character == "mystra"


def test_stolen_card_known_only_to_thief_and_victim():
    # rulebook line 57: "sight unseen": only thief and victim learn which card moved; our choice
    # (rules.md §12): the other seats' replicas see only which position was taken.
    state = steal_from_seat1()
    replicas = [state.observation(seat) for seat in range(3)]
    assert replicas[2].chance_outcomes() == [(Take(i, None), 0.2) for i in range(5)]
    assert replicas[1].chance_outcomes() == state.chance_outcomes()  # the victim knows its hand
    assert all(o.card is not None for o, _ in replicas[0].chance_outcomes())  # thief is told
    with pytest.raises(IllegalActionError):
        replicas[2].apply_action(Take(3, "counter"))  # seat 2 may not learn it
    with pytest.raises(IllegalActionError):
        replicas[0].apply_action(Take(3, None))  # the thief must be told
    for seat, replica in enumerate(replicas):
        replica.apply_action(Take(3, None) if seat == 2 else Take(3, "counter"))
    state.apply_action(Take(3, "counter"))
    assert replicas[0].hand(0).count("counter") == 1
    assert replicas[1].hand(0) == [None] * 4 + ["counter"]
    assert replicas[2].hand(0) == [None] * 5
    assert state.observation(2).hand(0) == [None] * 5
    assert state.observation(1).hand(0) == [None] * 4 + ["counter"]
    assert all(r.public_digest() == state.public_digest() for r in replicas)


def test_onlookers_follow_a_card_they_knew_when_it_is_taken():
    # rulebook line 57: "sight unseen" hides the card from the thief, not which card leaves the
    # hand; our choice (rules.md §12): everyone sees the position taken, so a seat that knew
    # that card knows where it went. Seat 2 knows seat 1 holds its stolen Dodge; when seat 0
    # takes exactly that card, seat 2 knows seat 0 has it now.
    state = setup(THREE, {0: ["steal"], 1: ["steal"], 2: ["dodge"]})
    end_turn(state)
    play(state, "steal", seat=2)
    state.apply_action(Take(state.hand(2).index("dodge"), "dodge"))
    assert state.observation(2).hand(1).count("dodge") == 1
    end_turn(state)
    end_turn(state)
    play(state, "steal", seat=1)
    position = state.hand(1).index("dodge")
    onlooker = state.observation(2)  # seat 2's own replica, as at a network table
    assert onlooker.hand(1)[position] == "dodge"
    state.apply_action(Take(position, "dodge"))
    assert state.observation(2).hand(0)[-1] == "dodge"
    assert "dodge" not in state.observation(2).hand(1)
    # The dealer tells the onlooker's replica the card it knew; that teaches it nothing, so
    # the replica accepts it (a card it did not know it must not be told).
    elsewhere = (position + 1) % onlooker.hand_size(1)
    with pytest.raises(IllegalActionError, match="may not learn"):
        onlooker.clone().apply_action(Take(elsewhere, "dodge"))
    onlooker.apply_action(Take(position, "dodge"))
    assert onlooker.hand(0)[-1] == "dodge" and onlooker.public_digest() == state.public_digest()


# ------------------------------------------------------------------------ round cap


def play_rounds(state, rounds):
    """Every seat passes and draws 1 for `rounds` rounds; the number of turns played."""
    turns = 0
    while not state.is_terminal() and turns < rounds * state.num_players:
        end_turn(state)
        turns += 1
    return turns


@pytest.mark.parametrize("cap", [1, 2, 3])
def test_round_cap_ends_the_game_after_cap_rounds(cap):
    # The book never ends a stalemate; our choice (rules.md §18): an optional round cap
    # ends the game when play comes back to the first seat after `cap` rounds.
    state = setup(DUEL, round_cap=cap)
    for _ in range(2 * cap - 1):
        end_turn(state)
        assert not state.is_terminal()
    end_turn(state)
    assert state.is_terminal()
    assert state.round() == cap  # the game ended in its last round, not one past it


def test_no_round_cap_by_default():
    # rulebook line 26: the game ends when one player is left; our choice (rules.md §18): no cap
    # unless asked.
    state = setup(DUEL)
    assert play_rounds(state, 30) == 60
    assert not state.is_terminal()


@pytest.mark.parametrize("cap", [0, -1, True, 1.5, "3"])
def test_round_cap_must_be_a_positive_number_of_rounds(cap):
    # our choice (rules.md §18, rpg_battle/__init__.py): round_cap is a positive int, or None
    # for no cap.
    with pytest.raises(GameOptionError):
        GAME.new_initial_state(2, round_cap=cap)


def test_round_cap_most_active_characters_win():
    # our choice (rules.md §18): at the cap the most active characters win, before HP:
    # seat 0 keeps 3 (51 HP), seat 1 only 2 (Sera 30 + Sybil 23 = 53 HP).
    state = setup([["gideon", "mystra", "kalen"], ["vex", "sera", "sybil"]],
                  {0: ["attack-iii", "attack"]}, round_cap=1)  # fmt: skip
    attack(state, "attack-iii", "vex")
    attack(state, "attack", "vex")
    play_rounds(state, 1)
    assert state.is_terminal()
    assert state.winners() == [0]
    assert state.returns() == [1.0, 0.0]


@pytest.mark.parametrize(("hit", "winner"), [(True, 0), (False, 1)])
def test_round_cap_total_hp_breaks_a_tie_of_characters(hit, winner):
    # our choice (rules.md §18): with as many active characters, the most total HP wins.
    # Seat 0 has 47 HP; seat 1 has 63, or 63 - 12 - 6 - 12 = 33 after seat 0's attacks.
    state = setup([["gideon", "mystra", "vex"], ["kalen", "sybil", "anya"]],
                  {0: ["attack-iii"] * 3}, round_cap=1)  # fmt: skip
    if hit:
        for target in ("kalen", "sybil", "anya"):
            attack(state, "attack-iii", target)
        assert sum(state.hp(c) for c in state.characters(1)) == 33
    play_rounds(state, 1)
    assert state.winners() == [winner]


def test_round_cap_full_tie_shares_the_win():
    # our choice (rules.md §18-19): "tied share the win": Gideon, Kalen and Mystra (seats
    # 0, 2, 3) all have 17 HP, Vex (seat 1) 13.
    state = setup(FOUR, round_cap=1)
    play_rounds(state, 1)
    assert state.winners() == [0, 2, 3]
    assert state.returns() == pytest.approx([1 / 3, 0.0, 1 / 3, 1 / 3])


# ------------------------------------------------------------------- random playouts


def random_playout(seed, players):
    """A whole game: a LocalDealer at chance nodes, uniform legal choices elsewhere. Yields the
    state before and after each step (the same object, so `before` is a clone)."""
    rng = random.Random(seed)
    dealer = LocalDealer(seed)
    state = GAME.new_initial_state(players)
    for _ in range(20_000):
        if state.is_terminal():
            return
        before = state.clone()
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield before, state
    raise AssertionError("the game did not end")


def cards_in_hands(state):
    return sum(state.hand_size(seat) for seat in range(state.num_players))


@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_keep_the_rules(seed):
    # rulebook line 34: 100 cards, always in the deck, the discard pile or a hand; line 9: HP
    # between 0 and max, KO'd characters never act; line 26: the game ends with one winner.
    players = 2 + seed % 3
    for before, state in random_playout(seed, players):
        d = before.decision()
        if d.kind == "play":
            assert before.is_active(d.character)
        assert state.deck_size() + len(state.discard_pile()) + cards_in_hands(state) == 100
        for name in hp_map(state):
            assert 0 <= state.hp(name) <= MAX_HP[name]
    assert state.is_terminal()
    (winner,) = state.winners()
    alive = [s for s in range(players) if any(state.is_active(c) for c in state.characters(s))]
    assert alive == [winner]
    assert state.returns() == [1.0 if s == winner else 0.0 for s in range(players)]


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (4, 2), (3, 4)])
def test_random_playout_reshuffles_the_discard_pile(seed, players):
    # Our choice (rules.md §15, rulebook line 34 silent): a draw from an empty deck
    # first turns the whole discard pile into the new deck. These games run the deck out.
    # (The step that deals the deck's last card reshuffles at once if more is to be drawn.)
    reshuffles = 0
    for before, state in random_playout(seed, players):
        if state.reshuffles() > before.reshuffles():
            reshuffles += 1
            assert before.deck_size() <= 1
            assert state.discard_pile() == []
            assert state.deck_size() + cards_in_hands(state) == 100
    assert reshuffles >= 1
