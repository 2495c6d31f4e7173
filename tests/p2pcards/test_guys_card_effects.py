"""Every card of the Rise of the Guys set does what its text says, from a real position.

A card's text is its line in `p2pcards/games/rise_of_the_guys/cards.toml` (the set document:
rules.md, "The whole set"); where the text leaves a choice, the test cites the rules.md choice
(§N) it follows. Rulebook cards are cited by the rulebook line that names them
(../shared/seeds/002_35243a55690da039.txt). The cards already pinned down rule by rule in
test_guys_rules.py are listed in COVERED_ELSEWHERE; a test below checks that the two files
together leave no card of the set without an expected outcome.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path

from guys_helpers import DB, Table, react_to

from p2pcards.abilities import Selector
from p2pcards.games.rise_of_the_guys.actions import (
    PASS,
    Discard,
    Lane,
    Play,
    Prepare,
    Target,
)
from p2pcards.games.rise_of_the_guys.rules import OVERARCH, STINKY, UNHURTABLE
from p2pcards.zones import Roll


def hand(t: Table, seat: int) -> list[str]:
    """The cards in a seat's hand."""
    return [c for c in t.state.zone_cards(f"hand:{seat}") if c is not None]


def lanes(t: Table, seat: int) -> list[str | None]:
    """What stands in each of a seat's four lanes."""
    return [t.guy(seat, lane) for lane in range(4)]


def hit(t: Table, guys: list[int]) -> int:
    """How many of `guys` took damage or were destroyed (1 damage kills a Hothead)."""
    return sum(1 for s in guys if t.state.lane_of(s) < 0 or t.state.damage(s) > 0)


def board(t: Table, seat: int, lane: int) -> int:
    """The slot of the Guy in a seat's lane (there must be one)."""
    slot = t.state.lane_guy(seat, lane)
    assert slot >= 0, f"seat {seat} has no Guy in lane {lane}"
    return slot


# --- Guys -------------------------------------------------------------------------------


def test_manapult_prepares_for_one_energy_and_does_not_attack() -> None:
    """Manapult: "Prepare: gain 1 energy." (§15: a Guy played this turn may be prepared; a
    prepared Guy does not attack, line 197)."""
    t = Table(["manapult"])
    t.to_turn(3)
    t.play("manapult", 0)
    assert t.state.energy(0) == 1
    t.act(Prepare(board(t, 0, 0)))
    assert t.state.energy(0) == 2 and t.state.prepared(board(t, 0, 0))
    assert Prepare(board(t, 0, 0)) not in t.state.legal_actions()  # once per turn
    t.to_combat()
    assert t.state.life(1) == 20


def test_circuiteer_gives_another_machine_two_health_for_good() -> None:
    """Line 99: Circuiteer gives health. "When played: give another target Machine of yours
    +0/+2." (§28: no duration, so it stays)."""
    t = Table(["robutt", "circuiteer"])
    t.to_turn(3)
    t.play("robutt", 0)
    t.play("circuiteer", 1)  # Robutt is the lone other Machine: taken without asking
    robutt = board(t, 0, 0)
    assert t.state.stats(robutt) == (1, 4) and t.state.stats(board(t, 0, 1)) == (1, 3)
    t.to_turn(5)
    assert t.state.stats(robutt) == (1, 4)


def test_nerfer_shrinks_an_opposing_guy_for_good() -> None:
    """ "When played: give target opposing Guy -1/-1." (§28: stays; at 0 health it dies)."""
    t = Table(["nerfer"], ["mr-doctor", "hothead"])
    react_to(t, 6, ("mr-doctor", 0), ("hothead", 1))
    t.play("nerfer", 2)
    assert t.state.ask() is not None
    t.act(Target(board(t, 1, 0)))
    assert t.state.stats(board(t, 1, 0)) == (2, 3)
    t.to_turn(7)
    assert t.state.stats(board(t, 1, 0)) == (2, 3)


def test_spinrev_gives_the_other_machines_one_attack_while_it_stands() -> None:
    """Line 99: Spinrev gives attack. "Your other Machines have +1/+0." (a static: it ends
    when Spinrev leaves)."""
    t = Table(["robutt", "spinrev", "hothead"], ["smack", "smack"])
    t.to_turn(5)
    t.play("robutt", 0)
    t.play("spinrev", 1)
    t.play("hothead", 2)
    assert t.state.stats(board(t, 0, 0)) == (2, 2)
    assert t.state.stats(board(t, 0, 1)) == (2, 3)  # not itself
    assert t.state.stats(board(t, 0, 2)) == (2, 1)  # not a Machine
    t.act(PASS)
    t.play("smack")
    t.act(Target(board(t, 0, 1)))
    t.play("smack")
    t.act(Target(board(t, 0, 1)))
    assert t.guy(0, 1) is None and t.state.stats(board(t, 0, 0)) == (1, 2)


def test_helping_hand_grows_a_guy_whenever_another_hand_card_is_played() -> None:
    """Line 46: "playing Pinchers will activate Helping Hand". "Whenever you play another
    Hand card, give target Guy of yours +1/+1." Not for a card of another tribe."""
    t = Table(["helping-hand", "pinchers", "chicken-wrangler"], ["hothead"])
    react_to(t, 6, ("hothead", 0))
    t.play("helping-hand", 1)
    hand_guy = board(t, 0, 1)
    t.play("chicken-wrangler", 2)  # Historical/Cowboy: no trigger
    t.act(Lane(3))  # its Chicken token
    assert t.state.stats(hand_guy) == (1, 3)
    t.play("pinchers")  # a Hand Prank: 1 damage to the Hothead, then the trigger
    t.act(Target(board(t, 1, 0)))
    t.act(Target(hand_guy))
    assert t.guy(1, 0) is None and t.state.stats(hand_guy) == (2, 4)


def test_longbow_larry_hits_the_opposing_player_for_each_token_made() -> None:
    """Line 129: Longbow Larry rewards tokens. "Whenever you make a token, deal 1 damage to
    the opposing player."."""
    t = Table(["longbow-larry", "chicken-wrangler"])
    t.to_turn(5)
    t.play("longbow-larry", 0)
    assert t.state.life(1) == 20
    t.play("chicken-wrangler", 1)
    t.act(Lane(2))
    assert t.state.life(1) == 19 and t.guy(0, 2) == "chicken"


def test_rock_thrower_deals_two_beside_another_historical_guy() -> None:
    """ "When played: deal 1 damage to target Guy. If you control another Historical Guy, deal
    2 instead." (Rock Thrower is Historical itself: "another")."""
    t = Table(["rock-thrower", "rock-thrower"], ["mr-doctor"])
    react_to(t, 6, ("mr-doctor", 0))
    doctor = board(t, 1, 0)
    t.play("rock-thrower", 0)
    t.act(Target(doctor))
    assert t.state.damage(doctor) == 1
    t.play("rock-thrower", 1)
    t.act(Target(doctor))
    assert t.state.damage(doctor) == 3


def test_bookkeeper_draws_until_the_hand_holds_four() -> None:
    """Line 135: Bookkeeper keeps the hand full. "When played: draw until you have 4 cards in
    hand." — from one card left it draws three; from four or more, none."""
    t = Table(
        ["bookkeeper", "smack", "smack", "smack", "smack"], more0=["hothead"] * 3
    )  # fmt: skip
    t.draws(0, "hothead", "hothead", "hothead")
    t.play("smack")
    react_to(t, 2)
    t.play("smack")
    t.play("smack")
    t.to_turn(3)
    t.play("smack")
    t.play("hothead", 0)
    t.play("hothead", 1)
    react_to(t, 4)
    assert sorted(hand(t, 0)) == ["bookkeeper", "hothead"]
    deck_before = len(t.state.zone_cards("deck:0"))
    t.play("bookkeeper", 2)
    assert len(hand(t, 0)) == 4 and len(t.state.zone_cards("deck:0")) == deck_before - 3
    big = Table(["bookkeeper"])
    big.to_turn(3)  # 7 cards
    left = len(big.state.zone_cards("deck:0"))
    big.play("bookkeeper", 0)
    assert len(hand(big, 0)) == 6 and len(big.state.zone_cards("deck:0")) == left


def test_skunk_punk_grows_when_its_player_is_hit_and_destroys_what_it_damages() -> None:
    """ "Stinky. Vengeful: Skunk Punk gets +0/+1 this turn." (§21: Vengeful with no number
    fires on every hit; §22 Stinky)."""
    t = Table(["skunk-punk"], ["stinky-pete", "summoner"])
    t.to_turn(6)  # seat 1 leads
    t.play("stinky-pete", 0)  # unopposed: it hits seat 0 first, in lane 0
    t.play("summoner", 1)
    t.act(Lane(3))  # its Spirit token
    t.act(PASS)
    t.play("skunk-punk", 1)  # 1/2 against the Summoner's 2 attack
    t.to_combat()
    # Lane 0: seat 0 takes 1, so Skunk Punk is 1/3 and survives the Summoner's 2 in lane 1,
    # whom its Stinky damage destroys; lane 3's Spirit hits seat 0 again.
    assert t.guy(0, 1) == "skunk-punk" and t.guy(1, 1) is None
    assert t.state.life(0) == 18
    assert t.state.stats(board(t, 0, 1)) == (1, 2)  # "this turn" is over


def test_tantrum_toddler_hits_a_random_guy_in_another_lane() -> None:
    """ "When played: deal 1 damage to a random Guy in another lane." (three Guys stand in
    other lanes, one of them its own player's: the roll hits one of them; the Guy in its own
    lane is safe. test_random_choices.py: each roll a different one, all equally likely)."""
    t = Table(["tantrum-toddler", "handsome-man"], ["hothead", "mr-doctor", "hothead"])
    react_to(t, 6, ("hothead", 0), ("mr-doctor", 1), ("hothead", 2))
    t.play("handsome-man", 3)
    others = [board(t, 1, 0), board(t, 1, 2), board(t, 0, 3)]
    doctor = board(t, 1, 1)
    t.chance(2)
    t.play("tantrum-toddler", 1)
    assert hit(t, others) == 1 and t.state.damage(doctor) == 0


def test_dodgeball_dan_hits_only_a_guy_with_three_or_more_attack() -> None:
    """ "When played: deal 2 damage to target Guy with 3+ attack." (line 225: X+)."""
    t = Table(["dodgeball-dan"], ["mr-doctor", "hothead"])
    react_to(t, 6, ("mr-doctor", 0), ("hothead", 1))
    t.play("dodgeball-dan", 2)  # the Doctor (3 attack) is the lone candidate
    assert t.state.damage(board(t, 1, 0)) == 2 and t.state.damage(board(t, 1, 1)) == 0


def test_nurse_nancy_heals_her_player_at_the_end_of_turn_only_at_ten_or_less() -> None:
    """ "End of turn: if your life is 10 or less, heal your player 2."."""
    t = Table(["nurse-nancy"], ["big-tiny"])
    t.to_turn(7)
    t.play("nurse-nancy", 0)
    t.act(PASS)
    t.play("big-tiny", 1)  # Patient: seat 1 reacts
    t.to_combat()
    assert t.state.life(0) == 13  # 7 taken; 13 > 10, no heal
    t.to_combat()
    assert t.state.life(0) == 13 - 7 + 2


def test_mother_hen_leaves_chickens_in_every_empty_lane() -> None:
    """Line 129 (tokens). "When destroyed: make a 1/1 Chicken token in each empty lane of
    yours." (§26: each_empty_lane; its own lane is empty once it is gone)."""
    t = Table(["mother-hen"], ["stinky-pete"])
    t.to_turn(5)
    t.play("mother-hen", 1)
    t.act(PASS)
    t.play("stinky-pete", 1)
    t.to_combat()
    assert lanes(t, 0) == ["chicken"] * 4
    assert "mother-hen" in t.state.zone_cards("discard:0")


def test_rooster_ralph_gives_tokens_one_attack() -> None:
    """ "Your tokens have +1/+0." (a static, tokens only)."""
    t = Table(["rooster-ralph", "chicken-wrangler"])
    t.to_turn(5)
    t.play("rooster-ralph", 0)
    t.play("chicken-wrangler", 1)
    t.act(Lane(2))
    assert t.state.stats(board(t, 0, 2)) == (2, 1)
    assert t.state.stats(board(t, 0, 1)) == (2, 3) and t.state.stats(board(t, 0, 0)) == (2, 3)


def test_team_captain_lifts_the_other_guys_for_the_turn() -> None:
    """ "When played: give your other Guys +1/+1 this turn." (§28: "this turn" ends)."""
    t = Table(["hothead", "team-captain"])
    t.to_turn(5)
    t.play("hothead", 0)
    t.play("team-captain", 1)
    assert t.state.stats(board(t, 0, 0)) == (3, 2) and t.state.stats(board(t, 0, 1)) == (3, 4)
    t.to_turn(6)
    assert t.state.stats(board(t, 0, 0)) == (2, 1)


def test_crossing_guard_makes_another_guy_unhurtable_this_turn() -> None:
    """ "When played: another target Guy of yours can't be hurt this turn." (line 163)."""
    t = Table(["hothead", "crossing-guard"], ["smack"])
    t.to_turn(5)
    t.play("hothead", 0)
    t.play("crossing-guard", 1)  # the Hothead is the lone candidate
    hothead = board(t, 0, 0)
    assert t.state.has(hothead, UNHURTABLE) and not t.state.has(board(t, 0, 1), UNHURTABLE)
    t.act(PASS)
    t.play("smack")
    t.act(Target(hothead))
    assert t.state.damage(hothead) == 0 and t.guy(0, 0) == "hothead"
    t.to_turn(6)
    assert not t.state.has(hothead, UNHURTABLE)


def test_historian_hilda_loots_three() -> None:
    """ "When played: Loot 3." (line 177, §19: the owner orders the top three; the opponent
    sees none of them)."""
    t = Table(["historian-hilda"], more0=["smack", "pinchers", "hothead"])
    t.to_turn(3)
    t.draws(0, "smack", "pinchers", "hothead")
    t.play("historian-hilda", 0)
    ask = t.state.ask()
    assert ask is not None and ask.kind == "order" and ask.options == (6,)
    assert t.state.observation(1).zone_cards("deck:0")[-3:] == [None] * 3
    assert sorted(t.state.observation(0).zone_cards("deck:0")[-3:]) == sorted(  # type: ignore[type-var]
        ["smack", "pinchers", "hothead"]
    )


def test_town_crier_draws_a_card() -> None:
    """ "When played: draw a card."."""
    t = Table(["town-crier"])
    t.to_turn(3)
    held, left = len(hand(t, 0)), len(t.state.zone_cards("deck:0"))
    t.play("town-crier", 0)
    assert len(hand(t, 0)) == held and len(t.state.zone_cards("deck:0")) == left - 1


def test_carrier_pigeon_flies_over_and_draws_when_it_falls() -> None:
    """ "Overarch. When destroyed: draw a card." (line 185: it hits the player although
    opposed, and deals no damage to Guys)."""
    t = Table(["carrier-pigeon"], ["hothead"])
    react_to(t, 2, ("hothead", 0))
    t.play("carrier-pigeon", 0)
    held = len(hand(t, 0))
    t.to_combat()
    assert t.state.life(1) == 19 and t.state.life(0) == 20
    assert t.guy(0, 0) is None and t.guy(1, 0) == "hothead"
    assert len(hand(t, 0)) == held + 1 + 1  # the pigeon's card, then turn 3's draw


def test_toaster_bot_hits_a_random_opposing_guy_when_it_falls() -> None:
    """ "When destroyed: deal 1 damage to a random opposing Guy." (after combat in its lane,
    line 93: one of the three other Hotheads falls before it can attack, the roll says which;
    the two left attack)."""
    t = Table(["toaster-bot"], ["hothead"] * 4)
    react_to(t, 4, ("hothead", 0), ("hothead", 1), ("hothead", 2), ("hothead", 3))
    others = [board(t, 1, lane) for lane in (1, 2, 3)]
    t.play("toaster-bot", 0)
    t.chance(1)
    t.to_combat()
    assert t.guy(1, 0) is None and hit(t, others) == 1
    assert t.state.life(0) == 20 - 2 * 2


def test_jack_in_the_box_hits_the_adjacent_lanes_when_revealed() -> None:
    """ "Sneaky. When revealed: deal 1 damage to each opposing Guy in the adjacent lanes."."""
    t = Table(["jack-in-the-box"], ["hothead", "hothead", "hothead"])
    react_to(t, 4, ("hothead", 0), ("hothead", 2), ("hothead", 3))
    played = t.play("jack-in-the-box", 1)
    assert played.face_down
    t.act(PASS)  # seat 0 ends its Reacting Phase
    t.act(PASS)  # seat 1 its Counter-reacting Phase
    assert t.state.phase() == "reveal" and t.state.damage(board(t, 1, 0)) == 0
    t.reveal_all()
    assert t.state.phase() != "reveal" and lanes(t, 1) == [None, None, None, "hothead"]


def test_battery_buddy_draws_when_it_falls() -> None:
    """ "When destroyed: draw a card."."""
    t = Table(["battery-buddy"], ["smack"])
    t.to_turn(3)
    t.play("battery-buddy", 0)
    held = len(hand(t, 0))
    t.act(PASS)
    t.play("smack")
    assert t.guy(0, 0) is None and len(hand(t, 0)) == held + 1


def test_omega_robutt_destroys_even_a_guy_that_cant_be_hurt() -> None:
    """ "When played: destroy target opposing Guy." (§23: destroy is not damage)."""
    t = Table(["omega-robutt"], ["ghost-gary"])
    react_to(t, 8, ("ghost-gary", 0))
    t.to_turn(9)
    t.play("omega-robutt", 1)
    assert t.guy(1, 0) is None and "ghost-gary" in t.state.zone_cards("discard:1")


def test_vending_machine_prepares_to_draw() -> None:
    """ "Prepare: draw a card." (§15)."""
    t = Table(["vending-machine"])
    t.to_turn(5)
    t.play("vending-machine", 0)
    held = len(hand(t, 0))
    t.act(Prepare(board(t, 0, 0)))
    assert len(hand(t, 0)) == held + 1


def test_tin_soldier_heals_its_player_when_it_falls() -> None:
    """ "When destroyed: heal your player 2." (§29: never above 20)."""
    t = Table(["tin-soldier"], ["catapult-carl", "catapult-carl", "smack", "pinchers"])
    t.to_turn(3)
    t.play("tin-soldier", 0)
    t.to_turn(10)  # seat 1 leads, 10 energy
    t.play("catapult-carl", 1)
    t.play("catapult-carl", 2)
    assert t.state.life(0) == 18
    soldier = board(t, 0, 0)
    t.play("smack")
    t.act(Target(soldier))
    t.play("pinchers")
    t.act(Target(soldier))
    assert t.guy(0, 0) is None and t.state.life(0) == 20


def test_pinball_wizard_hits_a_random_opposing_guy_for_each_pin() -> None:
    """ "Whenever you play a Pin, deal 1 damage to a random opposing Guy." (one of three)."""
    t = Table(["pinball-wizard", "name-tag"], ["hothead", "mr-doctor", "hothead"])
    react_to(t, 6, ("hothead", 0), ("mr-doctor", 1), ("hothead", 2))
    t.play("pinball-wizard", 3)
    opposing = [board(t, 1, lane) for lane in (0, 1, 2)]
    assert hit(t, opposing) == 0
    t.chance(1)
    t.play("name-tag", host="pinball-wizard")
    assert hit(t, opposing) == 1


def test_pickpocket_makes_the_opponent_discard_a_random_card_when_revealed() -> None:
    """ "Sneaky. When revealed: your opponent discards a random card." (the dealer picks a
    place in the opponent's hand of six, and the card there goes; nobody is asked.
    test_random_choices.py: every place equally likely)."""
    t = Table(["pickpocket"], ["hothead", "mr-doctor", "lunch-lady", "crossing-guard", "smack"])
    react_to(t, 2)
    assert t.play("pickpocket", 0).face_down
    before = t.state.zone_cards("hand:1")
    assert len(before) == 6 and len(set(before)) > 1
    t.chance(4)
    t.act(PASS)  # seat 0 ends its Reacting Phase
    t.act(PASS)  # seat 1 its Counter-reacting Phase
    t.reveal_all()
    assert t.state.zone_cards("discard:1") == [before[4]]
    kept = Counter(before) - Counter([before[4]])
    assert not kept - Counter(hand(t, 1))  # the other five stay (and the turn's draw came)


def test_tinkerer_plays_a_cheap_pin_for_free() -> None:
    """ "When played: play a Pin costing 2 or less from your hand for free." (line 195)."""
    t = Table(["tinkerer", "arm-o-matic", "power-bank"])
    t.to_turn(3)
    t.play("tinkerer", 0)
    ask = t.state.ask()
    assert ask is not None and ask.kind == "free"
    offered = {a.card for a in t.state.legal_actions() if isinstance(a, Play)}
    assert offered == {"arm-o-matic"}
    t.play("arm-o-matic")
    assert t.state.card_at(t.state.vest(0)) == "arm-o-matic" and t.state.energy(0) == 1


def test_repair_bot_prepares_to_heal_its_player() -> None:
    """ "Prepare: heal your player 2."."""
    t = Table(["repair-bot"], ["catapult-carl"])
    react_to(t, 4, ("catapult-carl", 0))
    t.to_turn(5)
    assert t.state.life(0) == 16  # 1 when Carl was played, 3 over the top
    t.play("repair-bot", 1)
    t.act(Prepare(board(t, 0, 1)))
    assert t.state.life(0) == 18


def test_overclocker_gains_an_attack_while_opposed() -> None:
    """ "While opposed, Overclocker has +1/+0." (line 181: opposed = a Guy across the lane)."""
    t = Table(["overclocker"], ["stinky-pete"])
    t.to_turn(3)
    t.play("overclocker", 0)
    assert t.state.stats(board(t, 0, 0)) == (2, 2)
    t.act(PASS)
    t.play("stinky-pete", 0)
    assert t.state.stats(board(t, 0, 0)) == (3, 2)


def test_time_machine_returns_another_face_up_guy_to_its_owners_hand() -> None:
    """ "When played: return another target face-up Guy to its owner's hand." (§30; face-up:
    §18, a face-down Guy in hand would never be revealed, and its cost is checked then): the
    face-down Ninja Nate is no target, so the Doctor, the lone one, goes back."""
    t = Table(["time-machine"], ["mr-doctor", "ninja-nate"])
    react_to(t, 6, ("mr-doctor", 0), ("ninja-nate", 1))
    t.play("time-machine", 1)
    assert t.guy(1, 0) is None and "mr-doctor" in hand(t, 1)
    assert t.state.face_down(t.state.lane_guy(1, 1))


def test_sir_clanksalot_grows_for_good_when_its_player_takes_four() -> None:
    """ "Patient. Vengeful 4: Sir Clanksalot gets +2/+2." (§21; no duration: it stays)."""
    t = Table(["sir-clanksalot"], ["catapult-carl"])
    react_to(t, 6, ("catapult-carl", 1))  # seat 0 takes 1
    t.play("sir-clanksalot", 0)  # Patient: in the Reacting Phase
    t.to_combat()  # Carl's 3 over the top: 4 this turn
    assert t.state.life(0) == 16
    assert t.state.stats(board(t, 0, 0)) == (6, 9)


# --- Pranks -----------------------------------------------------------------------------


def test_laser_tag_hits_two_random_opposing_guys_face_down_ones_too() -> None:
    """Line 99: Laser Tag. "Deal 1 damage to two random opposing Guys, face up or face down."
    (§18: `face = "any"`): two different Guys of three, the face-down one among the
    candidates (the first roll has three sides)."""
    t = Table(["laser-tag"], ["robutt", "jack-in-the-box", "robutt"])
    react_to(t, 6, ("robutt", 0), ("jack-in-the-box", 2), ("robutt", 3))
    opposing = [board(t, 1, lane) for lane in (0, 2, 3)]
    assert t.state.face_down(opposing[1])
    t.hold = True
    t.play("laser-tag")
    assert t.state.chance_outcomes() == [(Roll(n), 1 / 3) for n in range(3)]
    t.hold = False
    t.chance(2, 1)
    t.settle()
    assert hit(t, opposing) == 2 and all(t.state.damage(s) <= 1 for s in opposing)


def test_surprise_holiday_gift_plays_a_cheap_guy_for_free() -> None:
    """Line 99: Surprise Holiday Gift. "Play a Guy costing 3 or less from your hand for free."
    (line 195; the gift's player chooses: rules.md, choices)."""
    t = Table(["surprise-holiday-gift", "handsome-man", "omega-robutt", "smack"])
    react_to(t, 2)
    t.play("surprise-holiday-gift")
    offered = {a.card for a in t.state.legal_actions() if isinstance(a, Play)}
    assert "handsome-man" in offered and not offered & {"omega-robutt", "smack"}
    t.play("handsome-man", 2)
    assert t.guy(0, 2) == "handsome-man" and t.state.energy(0) == 0


def test_full_moon_lifts_guys_and_more_so_tokens_this_turn() -> None:
    """Line 129: Full Moon. "Give your Guys +1/+0 this turn. Give your tokens +1/+1 this
    turn."."""
    t = Table(["chicken-wrangler", "full-moon"])
    t.to_turn(5)
    t.play("chicken-wrangler", 0)
    t.act(Lane(1))
    t.play("full-moon")
    assert t.state.stats(board(t, 0, 0)) == (3, 3) and t.state.stats(board(t, 0, 1)) == (3, 2)
    t.to_turn(6)
    assert t.state.stats(board(t, 0, 0)) == (2, 3) and t.state.stats(board(t, 0, 1)) == (1, 1)


def test_mandatory_vacation_returns_a_guy_and_draws_with_two_tokens() -> None:
    """Line 129: Mandatory Vacation rewards tokens. "Return target opposing Guy to its owner's
    hand. If you control 2 or more tokens, draw a card."."""
    for dance, drawn in ((False, 0), (True, 1)):
        t = Table(["mandatory-vacation", "chicken-dance"], ["mr-doctor"])
        react_to(t, 6, ("mr-doctor", 0))
        if dance:
            t.play("chicken-dance")
            t.act(Lane(1))
            t.act(Lane(2))
        held = len(hand(t, 0))
        t.play("mandatory-vacation")
        assert t.guy(1, 0) is None and "mr-doctor" in hand(t, 1)
        assert len(hand(t, 0)) == held - 1 + drawn


def test_the_ole_switcheroo_returns_a_guy_then_plays_a_cheap_card_free() -> None:
    """Line 131: The Ole Switcheroo. "Return target Guy of yours to your hand, then play a card
    costing 3 or less from your hand for free." (the Doctor, costing 4, may not come back)."""
    t = Table(["mr-doctor", "the-ole-switcheroo", "hothead"])
    t.to_turn(7)
    t.play("mr-doctor", 0)
    t.play("the-ole-switcheroo")
    assert "mr-doctor" in hand(t, 0)
    offered = {a.card for a in t.state.legal_actions() if isinstance(a, Play)}
    assert "hothead" in offered and "mr-doctor" not in offered
    t.play("hothead", 0)
    assert t.guy(0, 0) == "hothead" and t.state.energy(0) == 1


def test_escape_to_the_skies_returns_a_guy_and_leaves_a_bird() -> None:
    """Line 129: Escape to the Skies makes a token. "Return target Guy of yours to your hand,
    then make a 1/1 Bird token with Overarch in an empty lane of yours."."""
    t = Table(["chicken-wrangler", "escape-to-the-skies"])
    t.to_turn(5)
    t.play("chicken-wrangler", 0)
    t.act(Lane(1))
    t.play("escape-to-the-skies")
    t.act(Target(board(t, 0, 0)))
    t.act(Lane(0))
    assert lanes(t, 0) == ["bird", "chicken", None, None] and "chicken-wrangler" in hand(t, 0)
    assert t.state.has(board(t, 0, 0), OVERARCH)


def test_timber_fells_only_a_guy_with_five_or_more_health() -> None:
    """ "Destroy target Guy with 5+ health." (line 227: Y+)."""
    t = Table(["timber"], ["time-machine", "lunch-lady"])
    react_to(t, 8, ("time-machine", 0), ("lunch-lady", 1))  # 3/5 and 2/4
    t.play("timber")
    assert lanes(t, 1) == [None, "lunch-lady", None, None]


def test_unpin_destroys_an_opposing_pin_and_draws() -> None:
    """ "Destroy target opposing Pin. Draw a card." (§37)."""
    t = Table(["unpin"], ["robutt", "name-tag"])
    t.to_turn(2)
    t.play("robutt", 0)
    t.play("name-tag", host="robutt")
    robutt = board(t, 1, 0)
    assert t.state.stats(robutt) == (2, 3)
    t.act(PASS)
    held = len(hand(t, 0))
    t.play("unpin")
    assert t.state.pins_on(robutt) == [] and t.state.stats(robutt) == (1, 2)
    assert "name-tag" in t.state.zone_cards("discard:1") and len(hand(t, 0)) == held


def test_group_hug_heals_four_and_gives_health_this_turn() -> None:
    """ "Heal your player 4. Give your Guys +0/+1 this turn."."""
    t = Table(["crossing-guard", "group-hug"], ["catapult-carl"])
    react_to(t, 4, ("catapult-carl", 0))
    t.to_turn(5)
    assert t.state.life(0) == 16
    t.play("crossing-guard", 1)
    t.play("group-hug")
    assert t.state.life(0) == 20 and t.state.stats(board(t, 0, 1)) == (1, 5)  # a 1/4
    t.to_turn(6)
    assert t.state.stats(board(t, 0, 1)) == (1, 4)


def test_brainstorm_session_draws_two_then_discards_one() -> None:
    """ "Draw 2 cards, then discard a card." (the player picks which)."""
    t = Table(["brainstorm-session"], more0=["omega-robutt"])
    t.to_turn(3)
    t.draws(0, "omega-robutt")
    held = len(hand(t, 0))
    t.play("brainstorm-session")
    ask = t.state.ask()
    assert ask is not None and ask.kind == "discard" and len(hand(t, 0)) == held + 1
    (dump,) = [
        a for a in t.state.legal_actions() if isinstance(a, Discard) and a.card == "omega-robutt"
    ]
    t.act(dump)
    assert len(hand(t, 0)) == held
    assert t.state.zone_cards("discard:0") == ["brainstorm-session", "omega-robutt"]


def test_trade_places_swaps_two_of_your_guys() -> None:
    """ "Two target Guys of yours swap lanes." (the set's one handler, `swap_lanes`; §36)."""
    t = Table(["hothead", "robutt", "trade-places"])
    t.to_turn(3)
    t.play("hothead", 0)
    t.play("robutt", 2)
    t.play("trade-places")  # its only two Guys: no question to ask
    assert lanes(t, 0) == ["robutt", None, "hothead", None]


# --- Pins -------------------------------------------------------------------------------


def test_holo_shield_9000_adds_health_and_shields_this_turn() -> None:
    """Line 99: Holo-Shield 9000 keeps Guys alive. "Pin to Guy. Pinned Guy has +0/+2. When
    played: pinned Guy can't be hurt this turn."."""
    t = Table(["robutt", "holo-shield-9000"], ["smack"])
    t.to_turn(3)
    t.play("robutt", 0)
    t.play("holo-shield-9000", host="robutt")
    robutt = board(t, 0, 0)
    assert t.state.stats(robutt) == (1, 4) and t.state.has(robutt, UNHURTABLE)
    t.act(PASS)
    t.play("smack")  # at the lone Robutt
    assert t.state.damage(robutt) == 0 and "smack" in t.state.zone_cards("discard:1")
    t.to_turn(4)
    assert not t.state.has(robutt, UNHURTABLE) and t.state.stats(robutt) == (1, 4)


def test_transformation_hat_adds_one_one_and_overarch() -> None:
    """Line 99: Transformation Hat. "Pin to Guy. Pinned Guy has +1/+1 and Overarch."."""
    t = Table(["robutt", "transformation-hat"], ["stinky-pete"])
    react_to(t, 4, ("stinky-pete", 0))
    t.play("robutt", 0)
    t.play("transformation-hat", host="robutt")
    robutt = board(t, 0, 0)
    assert t.state.stats(robutt) == (2, 3) and t.state.has(robutt, OVERARCH)
    life = t.state.life(1)
    t.to_combat()
    assert t.state.life(1) == life - 2  # over Stinky Pete, which it does not hurt


def test_incubator_hatches_a_chicken_at_the_start_of_each_turn() -> None:
    """Line 99: Incubator. "Pin to Vest. Start of turn: make a 1/1 Chicken token in an empty
    lane of yours."."""
    t = Table(["incubator"])
    t.to_turn(5)
    t.play("incubator")
    assert lanes(t, 0) == [None] * 4
    t.to_turn(6)
    ask = t.state.ask()
    assert ask is not None and ask.kind == "lane" and ask.seat == 0
    t.act(Lane(2))
    assert lanes(t, 0) == [None, None, "chicken", None]


def test_kick_me_sign_takes_two_attack() -> None:
    """ "Pin to Guy. Pinned Guy has -2/-0." (on an opposing Guy: §34)."""
    t = Table(["kick-me-sign"], ["mr-doctor"])
    react_to(t, 4, ("mr-doctor", 0))
    t.play("kick-me-sign", host="mr-doctor")
    assert t.state.stats(board(t, 1, 0)) == (1, 4)


def test_rocket_boots_add_attack_and_move_the_guy() -> None:
    """ "Pin to Guy. Pinned Guy has +1/+0. When played: move pinned Guy." (§20)."""
    t = Table(["robutt", "rocket-boots"])
    t.to_turn(3)
    t.play("robutt", 0)
    t.play("rocket-boots", host="robutt")
    t.act(Lane(3))
    assert lanes(t, 0) == [None, None, None, "robutt"]
    assert t.state.stats(board(t, 0, 3)) == (2, 2)


def test_stink_badge_makes_its_guy_stinky() -> None:
    """ "Pin to Guy. Pinned Guy has Stinky." (line 203)."""
    t = Table(["hothead", "stink-badge"], ["mr-doctor"])
    react_to(t, 4, ("mr-doctor", 0))
    t.play("hothead", 0)
    t.play("stink-badge", host="hothead")
    assert t.state.has(board(t, 0, 0), STINKY)
    t.to_combat()
    assert t.guy(1, 0) is None


def test_power_bank_gives_an_energy_at_the_start_of_each_turn() -> None:
    """ "Pin to Vest. Start of turn: gain 1 energy." (§6: gained energy lasts the turn)."""
    t = Table(["power-bank"])
    t.to_turn(3)
    t.play("power-bank")
    t.to_turn(4)
    assert t.state.energy(0) == 5 and t.state.energy(1) == 4


def test_grudge_journal_strikes_back_when_its_player_takes_three() -> None:
    """ "Pin to Vest. Vengeful 3: deal 2 damage to the opposing player."."""
    t = Table(["grudge-journal"], ["catapult-carl"])
    t.to_turn(3)
    t.play("grudge-journal")
    react_to(t, 4, ("catapult-carl", 0))
    assert t.state.life(1) == 20  # 1 taken so far
    t.to_combat()
    assert t.state.life(0) == 16 and t.state.life(1) == 18


def test_war_banner_gives_historical_guys_one_attack() -> None:
    """Line 129 (the Historical deck). "Pin to Vest. Your Historical Guys have +1/+0."."""
    t = Table(["war-banner", "chicken-wrangler", "mr-doctor"])
    t.to_turn(9)
    t.play("war-banner")
    t.play("chicken-wrangler", 0)
    t.act(Lane(1))
    t.play("mr-doctor", 2)
    assert t.state.stats(board(t, 0, 0)) == (3, 3)
    assert t.state.stats(board(t, 0, 1)) == (1, 1)  # a Chicken is not Historical
    assert t.state.stats(board(t, 0, 2)) == (3, 4)  # nor the Doctor


def test_bottomless_backpack_refills_a_nearly_empty_hand_at_the_end_of_turn() -> None:
    """ "Pin to Vest. End of turn: if you have 1 or fewer cards in hand, draw a card."."""
    t = Table(
        ["bottomless-backpack", "robutt", "name-tag", "name-tag", "name-tag"],
        more0=["toaster-bot", "carrier-pigeon", "robutt"],
    )
    t.draws(0, "toaster-bot", "carrier-pigeon", "robutt")
    t.play("robutt", 0)
    react_to(t, 2)
    t.play("name-tag", host="robutt")
    t.play("name-tag", host="robutt")
    t.to_turn(3)
    t.play("bottomless-backpack")
    t.to_turn(4)
    assert len(hand(t, 0)) == 4  # 3 at the end of turn 3: no extra card, then the draw
    t.act(PASS)
    t.play("name-tag", host="robutt")
    t.play("toaster-bot", 1)
    t.play("carrier-pigeon", 2)
    t.play("robutt", 3)
    assert hand(t, 0) == []
    t.to_turn(5)
    assert len(hand(t, 0)) == 2  # 1 from the Backpack at the end of turn 4, then the draw


# The cards whose every effect test_guys_rules.py already checks, rule by rule.
COVERED_ELSEWHERE = {
    "robutt", "surprise-elevator", "disguyse", "arm-o-matic", "mr-doctor", "summoner",
    "handsome-man", "smack", "pinchers", "chicken-dance", "chicken-wrangler", "nail-dispenser",
    "dj-john-dope", "stinky-pete", "ninja-nate", "hothead", "grudge-holder",
    "catapult-carl", "fireworks-fred", "big-tiny", "fortune-teller", "lunch-lady", "ghost-gary",
    "food-fight", "recycle", "shrink-ray", "name-tag", "scroll-of-lore",
}  # fmt: skip


def test_every_card_of_the_set_has_an_expected_outcome() -> None:
    """Issue 15: a test per card. Each card is either named by a test here (its id in the
    test's name) or played, with its effect asserted, in test_guys_rules.py."""
    named_here = " ".join(name for name in globals() if name.startswith("test_"))
    rules_tests = (Path(__file__).parent / "test_guys_rules.py").read_text()
    missing = []
    for card in DB.deck_cards:
        if card.id in COVERED_ELSEWHERE:
            assert f'"{card.id}"' in rules_tests, card.id
        elif not re.search(rf"\btest_{card.id.replace('-', '_')}_", named_here):
            missing.append(card.id)
    assert missing == []


# --- The vocabulary ---------------------------------------------------------------------


def test_a_same_target_takes_the_previous_effects_choice_without_asking_again() -> None:
    """docs/abilities.md, `"same"`: a card's "it" is the target its previous effect chose. No
    card of the set says "it" twice yet, so the Nerfer is read here as "give target opposing
    Guy -1/-1, then give it -1/-0"."""
    t = Table(["nerfer"], ["mr-doctor", "hothead"])
    book = t.state._book
    kind = DB.index["nerfer"]
    (played,) = book.abilities[kind]
    again = dataclasses.replace(played.effects[0], health=None, target=Selector(ref="same"))
    nerf_twice = dataclasses.replace(played, effects=(*played.effects, again))
    patched = list(book.abilities)
    patched[kind] = (nerf_twice,)
    t.state._book = dataclasses.replace(book, abilities=tuple(patched))  # this state's only
    react_to(t, 6, ("mr-doctor", 0), ("hothead", 1))
    doctor, hothead = board(t, 1, 0), board(t, 1, 1)
    before = t.state.stats(doctor), t.state.stats(hothead)
    t.play("nerfer", 2)
    t.act(Target(doctor))
    assert t.state.ask() is None  # one choice served both effects
    assert t.state.stats(doctor) == (before[0][0] - 2, before[0][1] - 1)
    assert t.state.stats(hothead) == before[1]
