"""Rise of the Guys, rule by rule. Each test cites the rulebook line it checks
(../shared/seeds/002_35243a55690da039.txt) or the section of our rules document
(p2pcards/games/rise_of_the_guys/rules.md, "§N") where the rulebook leaves a choice."""

from __future__ import annotations

import pytest
from guys_helpers import GAME, Table, deck, first_lane_decides, react_to

from p2pcards.errors import GameOptionError, IllegalActionError
from p2pcards.games.rise_of_the_guys.actions import (
    CONCEDE,
    DECLINE,
    PASS,
    Lane,
    Mulligan,
    Order,
    Play,
    Prepare,
    Reveal,
    Target,
    TargetPlayer,
)
from p2pcards.games.rise_of_the_guys.rules import OVERARCH, UNHURTABLE


def test_both_players_start_at_twenty_life_with_five_cards() -> None:
    """Line 65: life counter to twenty, draw five cards."""
    t = Table()
    assert [t.state.life(s) for s in (0, 1)] == [20, 20]
    assert [t.state.hand_size(s) for s in (0, 1)] == [5, 5]
    assert [len(t.state.zone_slots(f"deck:{s}")) for s in (0, 1)] == [35, 35]


def test_a_mulligan_puts_cards_on_the_bottom_known_to_their_owner_only() -> None:
    """Line 65: unwanted cards go on the bottom of the deck, then the player draws back to
    five; §2: the owner knows them, the opponent only how many."""
    st = GAME.new_initial_state(2, decks=[deck("robutt"), deck("smack")])
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
    hand = st.hand(0)
    st.apply_action(Mulligan(0b00011))  # the first two cards go back
    assert st.zone_cards("deck:0")[:2] == hand[:2]
    assert st.observation(0).zone_cards("deck:0")[:2] == hand[:2]
    assert st.observation(1).zone_cards("deck:0")[:2] == [None, None]
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
    assert st.hand_size(0) == 5 and st.current_player() == 1


def test_energy_is_the_turn_number_and_unspent_energy_is_lost() -> None:
    """Line 67: energy equals the turn number; it does not carry over."""
    t = Table(["robutt"])
    assert t.state.turn() == 1 and t.state.energy(0) == 1 and t.state.energy(1) == 1
    t.to_turn(2)
    assert t.state.energy(0) == 2 and t.state.energy(1) == 2
    t.to_turn(3)
    t.play("robutt", 0)
    assert t.state.energy(0) == 2
    t.to_turn(4)
    assert t.state.energy(0) == 4


def test_no_draw_on_the_first_turn_then_both_draw() -> None:
    """Line 73: every turn but the first, both players draw before anything happens."""
    t = Table()
    assert [t.state.hand_size(s) for s in (0, 1)] == [5, 5]
    t.to_turn(2)
    assert [t.state.hand_size(s) for s in (0, 1)] == [6, 6]


def test_the_leading_player_alternates_and_has_two_phases() -> None:
    """Lines 77-85: the starting player leads turn 1, the lead swaps every turn; Leading,
    Reacting, then Counter-reacting by the Leader."""
    t = Table()
    seen = []
    for _ in range(3):
        seen.append((t.state.phase(), t.state.current_player()))
        t.act(PASS)
    assert seen == [("lead", 0), ("react", 1), ("counter", 0)]
    assert t.state.turn() == 2 and t.state.leader() == 1
    assert (t.state.phase(), t.state.current_player()) == ("lead", 1)


def test_no_guys_in_the_counter_reacting_phase() -> None:
    """Line 85: no Guys may be played during the Counter-reacting Phase."""
    t = Table(["robutt", "smack"])
    t.act(PASS)
    t.act(PASS)
    assert t.state.phase() == "counter"
    plays = {a.card for a in t.state.legal_actions() if isinstance(a, Play)}
    assert "robutt" not in plays and "smack" in plays


def test_patient_cards_wait_for_the_reacting_phase() -> None:
    """Line 187: Patient cannot be played during the Leading Phase."""
    t = Table([], ["big-tiny"])
    t.to_turn(6)  # seat 1 leads turn 6 with 6 energy
    assert t.state.leader() == 1
    assert not any(isinstance(a, Play) and a.card == "big-tiny" for a in t.state.legal_actions())
    t.to_turn(7)  # seat 1 reacts on turn 7
    t.act(PASS)
    t.play("big-tiny", 0)
    assert t.guy(1, 0) == "big-tiny"


def test_a_phase_ends_only_on_a_pass() -> None:
    """§4 (line 77 'or spends all their energy' left out): a face-down play hides its cost,
    so a player with no energy left still passes to end the phase."""
    t = Table(["robutt"])
    t.play("robutt", 0)
    assert t.state.energy(0) == 0
    assert (t.state.phase(), t.state.current_player()) == ("lead", 0)
    assert PASS in t.state.legal_actions()


def test_a_sneaky_guy_hides_its_card_and_cost_then_is_revealed_before_combat() -> None:
    """Line 199: a Sneaky Guy is played face down; line 87: face-down Guys are revealed
    before combat; §18: its cost is paid but not shown."""
    t = Table(["disguyse"], ["robutt"])
    t.to_turn(3)
    t.play("disguyse", 1)
    slot = t.state.lane_guy(0, 1)
    assert t.state.face_down(slot)
    theirs = t.state.observation(1)
    assert theirs.card_at(slot) is None and theirs.energy(0) == 3  # card and cost unseen
    assert t.state.observation(0).energy(0) == 0
    t.act(PASS)
    t.play("robutt", 1)
    t.act(PASS)
    t.act(PASS)  # the Leader passes the Counter-reacting Phase: reveals come next
    assert t.state.phase() == "reveal" and t.state.current_player() == 0
    t.reveal_all()
    # When revealed: 2 damage to the opposing Guy in this lane: the Robutt (1/2) is destroyed
    # before combat; its When destroyed token takes the lane and dies to Disguyse in combat.
    assert t.state.zone_cards("discard:1") == ["robutt"]
    assert t.state.zone_cards("gone") == ["scrap-bot"]
    assert t.guy(0, 1) == "disguyse" and not t.state.face_down(slot)


def test_reveals_go_lane_by_lane_the_reacting_players_first() -> None:
    """Line 87: face-down Guys are revealed one by one in the direction of combat; when two
    share a lane, the Reacting Player's first."""
    t = Table(["ninja-nate", "pickpocket"], ["ninja-nate", "pickpocket"])
    t.to_turn(4)  # seat 1 leads turn 4, 4 energy each
    t.play("ninja-nate", 2)
    t.play("pickpocket", 0)
    t.act(PASS)
    t.play("ninja-nate", 2)
    t.play("pickpocket", 3)
    t.act(PASS)
    t.act(PASS)
    order = []
    while t.state.phase() == "reveal":
        (reveal,) = t.state.legal_actions()
        assert isinstance(reveal, Reveal)
        order.append((t.state.lane_of(reveal.slot), t.state.current_player()))
        t.act(reveal)
        while t.state.ask() is not None:  # Ninja Nate's target
            t.act(t.state.legal_actions()[0])
    assert order == [(0, 1), (2, 0), (2, 1), (3, 0)]  # seat 0 reacts on turn 4


def test_combat_example_mr_doctor_against_summoner() -> None:
    """Line 95: Mr. Doctor deals 3 to the Summoner, which dies; the Summoner deals only 2
    back, so Mr. Doctor survives."""
    t = Table(["mr-doctor"], ["summoner"])
    t.to_turn(4)  # seat 1 leads, both have 4 energy
    t.play("summoner", 0)
    t.act(Lane(3))  # its Spirit token
    t.act(PASS)
    t.play("mr-doctor", 0)
    t.to_combat()
    assert t.guy(0, 0) == "mr-doctor"
    assert t.guy(1, 0) is None
    assert t.state.zone_cards("discard:1") == ["summoner"]


def test_combat_example_robutt_with_arm_o_matic_and_smack_against_handsome_man() -> None:
    """Line 99: Handsome Man (ability already active: 3 attack) against a Robutt given +1
    attack by Arm-O-Matic in its player's Vest, after Smack dealt 2 this turn: Robutt deals
    the last 2 and both Guys are destroyed."""
    t = Table(["robutt", "arm-o-matic", "smack"], ["handsome-man"])
    t.to_turn(3)
    t.act(PASS)
    t.play("handsome-man", 1)  # seat 1 reacts on turn 3
    t.to_turn(4)  # Start of turn 4: unopposed, Handsome Man gets +1/+0 for good
    hm = t.state.lane_guy(1, 1)
    assert t.state.attack(hm) == 3
    t.act(PASS)  # seat 1 leads turn 4
    t.play("robutt", 1)
    t.play("arm-o-matic")
    robutt = t.state.lane_guy(0, 1)
    assert t.state.attack(robutt) == 2  # a Machine: +1 attack from the Vest
    t.play("smack")
    t.act(Target(hm))
    assert t.state.damage(hm) == 2
    t.to_combat()
    assert t.state.zone_cards("discard:1") == ["handsome-man"]
    assert "robutt" in t.state.zone_cards("discard:0")
    # Line 215: Robutt's When destroyed fires after combat in its lane: its token there.
    assert t.guy(0, 1) == "scrap-bot"


def test_unopposed_guys_hit_the_player_and_overarch_always_does() -> None:
    """Line 93: an unopposed Guy damages the opposing player; line 185: an Overarch Guy
    always attacks the player, and can still be hurt."""
    t = Table(["catapult-carl", "robutt"], ["robutt"])
    t.to_turn(5)  # seat 0 leads turn 5 with 5 energy
    t.play("catapult-carl", 0)  # When played: 1 damage to the opposing player
    assert t.state.life(1) == 19
    t.play("robutt", 2)
    t.act(PASS)
    t.play("robutt", 0)
    t.to_combat()
    # Carl (3, Overarch) hits the player over the Robutt; seat 0's unopposed Robutt hits for 1.
    assert t.state.life(1) == 19 - 3 - 1
    carl = t.state.lane_guy(0, 0)
    assert t.state.has(carl, OVERARCH)


def test_a_prepared_guy_does_not_attack() -> None:
    """Line 197: Prepared Guys do not attack during combat, but can still take damage."""
    t = Table(["nail-dispenser"])
    t.to_turn(3)
    t.play("nail-dispenser", 0)
    t.act(Prepare(t.state.lane_guy(0, 0)))  # Prepare: 2 damage to the opposing player
    assert t.state.life(1) == 18
    t.to_combat()
    assert t.state.life(1) == 18  # no combat damage from it


def test_damage_stacks_within_a_turn_and_guys_heal_after_it() -> None:
    """Line 103: damage from a Prank and from combat stacks; after End of turn, Guys heal."""
    t = Table(["smack"], ["lunch-lady"])
    t.to_turn(4)
    t.play("lunch-lady", 0)  # seat 1 leads turn 4: 2/4
    t.act(PASS)
    lady = t.state.lane_guy(1, 0)
    t.play("smack")
    t.answer(Target(lady))
    assert t.state.damage(lady) == 2
    t.to_combat()
    assert t.state.damage(lady) == 0 and t.guy(1, 0) == "lunch-lady"


def test_the_vest_holds_one_pin_and_a_new_one_replaces_it() -> None:
    """Line 58: one Pin in the Vest; playing another discards the current one."""
    t = Table(["arm-o-matic", "scroll-of-lore"])
    t.to_turn(3)
    t.play("scroll-of-lore")
    t.play("arm-o-matic")
    assert t.state.card_at(t.state.vest(0)) == "arm-o-matic"
    assert t.state.zone_cards("discard:0") == ["scroll-of-lore"]


def test_pins_on_a_guy_are_destroyed_with_it_and_pranks_are_discarded_at_once() -> None:
    """Line 52: a Guy's Pins are destroyed with it; line 46: a Prank is discarded at once."""
    t = Table(["name-tag", "robutt"], ["smack", "shrink-ray"])
    t.to_turn(3)
    t.play("robutt", 0)
    t.play("name-tag", host="robutt")  # 2/3
    robutt = t.state.lane_guy(0, 0)
    assert t.state.stats(robutt) == (2, 3)
    t.act(PASS)
    t.play("shrink-ray")
    t.answer(Target(robutt))  # -2/-2 this turn: 0/1
    assert "shrink-ray" in t.state.zone_cards("discard:1")
    t.play("smack")
    t.answer(Target(robutt))
    assert "name-tag" in t.state.zone_cards("discard:0")
    assert t.state.zone_cards("pins:0") == []


def test_tokens_enter_empty_lanes_and_cease_to_exist_when_they_leave() -> None:
    """Line 207: Tokens are made by cards, never in decks; line 125: no tokens in a deck."""
    t = Table(["chicken-dance"], ["food-fight"])
    t.to_turn(5)  # seat 0 leads turn 5
    t.play("chicken-dance")
    t.act(Lane(0))
    t.act(Lane(1))
    assert [t.guy(0, lane) for lane in range(4)].count("chicken") == 2
    t.act(PASS)
    t.play("food-fight")  # 2 damage to every Guy
    assert [t.guy(0, lane) for lane in range(4)].count("chicken") == 0
    assert t.state.zone_cards("gone") == ["chicken", "chicken"]
    with pytest.raises(GameOptionError, match="token"):
        GAME.new_initial_state(2, decks=[{**deck("robutt"), "chicken": 1}, deck("smack")])


def test_a_guy_that_cant_be_hurt_takes_no_damage_and_stinky_cannot_kill_it() -> None:
    """Line 163: damage to it is negated, so Stinky (line 203) cannot set off either."""
    t = Table(["stinky-pete"], ["ghost-gary"])
    t.to_turn(4)
    t.play("ghost-gary", 0)
    t.act(PASS)
    t.play("stinky-pete", 0)
    gary = t.state.lane_guy(1, 0)
    assert t.state.has(gary, UNHURTABLE)
    t.to_combat()
    assert t.guy(1, 0) == "ghost-gary"


def test_stinky_destroys_any_guy_it_damages() -> None:
    """Line 203: whenever a Stinky Guy deals damage to a Guy, that Guy is destroyed."""
    t = Table(["stinky-pete"], ["mr-doctor"])
    t.to_turn(4)
    t.play("mr-doctor", 0)  # 3/4
    t.act(PASS)
    t.play("stinky-pete", 0)  # 1/4: 1 damage is enough
    t.to_combat()
    assert t.guy(1, 0) is None and t.guy(0, 0) == "stinky-pete"


def test_a_stinky_hit_on_a_face_down_guy_is_lethal_on_every_replica() -> None:
    """Line 203 with line 87 (rules.md §39): a Stinky Guy's hit on a face-down Guy, whose
    health the hitting seat's replica cannot read, leaves the same public damage on every
    replica, and the Guy dies once revealed."""
    t = Table(["pinball-wizard", "stink-badge"], ["disguyse"])
    t.to_turn(3)
    t.play("pinball-wizard", 0)
    t.to_turn(5)
    t.act(PASS)
    t.play("disguyse", 1)  # face down (Sneaky)
    t.act(PASS)
    disguyse = t.state.lane_guy(1, 1)
    assert t.state.face_down(disguyse)
    replica = t.state.observation(0)
    played = t.play("stink-badge", None, "pinball-wizard")  # a Pin: the Wizard, now Stinky, hits
    replica.apply_action(played)
    while replica.is_chance_node():  # the random target: the face-down Guy, the only one
        replica.apply_action(replica.chance_outcomes()[0][0])
    assert replica.damage(disguyse) == t.state.damage(disguyse) == 99
    assert replica.public_digest() == t.state.public_digest()
    t.pass_phase()  # the counter phase ends: the Disguyse is revealed
    assert t.guy(1, 1) is None


def test_enhance_pays_the_other_cost_and_fires_its_ability() -> None:
    """Line 171: played for X instead, which activates the Enhance ability; at normal cost
    it does not."""
    t = Table(["fireworks-fred"], ["robutt", "chicken-wrangler"])
    t.to_turn(6)  # seat 1 leads turn 6
    t.play("robutt", 0)
    t.play("chicken-wrangler", 1)
    t.act(Lane(2))
    t.act(PASS)
    t.play("fireworks-fred", 3, enhanced=True)  # 2 damage to every opposing Guy
    assert t.state.energy(0) == 0
    # Robutt (1/2) falls and leaves its Scrap Bot, Chicken Wrangler's Chicken falls; the
    # Wrangler (2/3) stands.
    assert [t.guy(1, lane) for lane in range(4)] == ["scrap-bot", "chicken-wrangler", None, None]


def test_loot_shows_the_top_cards_to_their_owner_who_orders_them() -> None:
    """Line 177: Loot X: look at X cards, put them back in any order; §19."""
    t = Table(["fortune-teller"], more0=["smack", "pinchers"])
    t.draws(0, "smack", "pinchers")  # the two cards the Loot looks at
    t.play("fortune-teller", 0)
    assert t.state.ask() is not None and t.state.ask().kind == "order"  # type: ignore[union-attr]
    assert t.state.observation(0).zone_cards("deck:0")[-2:] == ["pinchers", "smack"]
    assert t.state.observation(1).zone_cards("deck:0")[-2:] == [None, None]
    t.act(Order(1))  # the second card looked at goes on top
    assert t.state.zone_cards("deck:0")[-1] == "pinchers"


def test_move_takes_the_guy_to_an_empty_lane_its_controller_picks() -> None:
    """Line 179: the Guy must move if a lane is empty; §20: its controller picks."""
    t = Table(["surprise-elevator"], ["robutt"])
    t.to_turn(2)
    t.play("robutt", 0)  # seat 1 leads turn 2
    t.act(PASS)
    t.play("surprise-elevator")  # the lone Guy is its target without asking
    assert t.state.current_player() == 1 and t.state.ask().kind == "lane"  # type: ignore[union-attr]
    t.act(Lane(2))
    assert t.guy(1, 2) == "robutt" and t.guy(1, 0) is None


def test_play_for_free_costs_nothing_and_may_be_declined_only_when_optional() -> None:
    """Line 195: the base cost becomes 0; DJ John Dope plays 'up to two' (§17)."""
    t = Table(["dj-john-dope", "hothead", "smack"], ["robutt"])
    t.to_turn(7)
    t.play("dj-john-dope", 0)
    assert t.state.ask() is not None and t.state.ask().kind == "free"  # type: ignore[union-attr]
    assert DECLINE in t.state.legal_actions()
    t.play("hothead", 1)
    assert t.state.energy(0) == 1  # only DJ John Dope's 6 was paid
    t.act(DECLINE)
    assert t.state.ask() is None and t.guy(0, 1) == "hothead"


def test_combat_stops_at_the_lane_that_brings_a_player_to_zero() -> None:
    """Line 91: the lanes attack one at a time, left to right; line 109: a player reduced to
    0 loses (§10: at once, after that lane's damage). Seat 1 at 2 life falls in lane 1, so
    its Guys in lanes 2 and 3 never strike: seat 0 stays at 2 and wins."""
    t = first_lane_decides()
    t.act(PASS)  # seat 0's Counter-reacting Phase ends: combat
    st = t.state
    assert st.is_terminal() and st.returns() == [1.0, 0.0]
    assert st.life(0) == 2 and st.life(1) == 2 - 3


def test_a_face_down_guy_is_out_of_reach_of_pranks_and_pins_only() -> None:
    """Line 199: a face-down Guy "cannot be affected by any Pranks or Pins": a Guy's ability
    may target it (§18). Rock Thrower ("deal 1 damage to target Guy") may choose the
    face-down Ninja Nate; Smack ("Deal 2 damage to target Guy") may not, so it takes the lone
    face-up Guy. The damage stays hidden with the card and destroys it once revealed (line 93)."""
    t = Table(["ninja-nate"], ["rock-thrower", "smack"])
    st = t.state
    t.to_turn(3)
    t.play("ninja-nate", 0)
    nate = st.lane_guy(0, 0)
    assert st.face_down(nate)
    t.act(PASS)
    t.play("rock-thrower", 2)
    thrower = st.lane_guy(1, 2)
    assert st.ask() is not None and set(st.ask().options) == {nate, thrower}  # type: ignore[union-attr]
    t.act(Target(nate))
    assert st.damage(nate) == 1 and st.face_down(nate)
    t.play("smack")
    # Rock Thrower (2/3 since issue 28's retune) survives the 2 damage.
    assert st.zone_cards("discard:1") == ["smack"] and st.damage(thrower) == 2
    assert st.damage(nate) == 1
    t.act(PASS)
    t.act(PASS)
    t.reveal_all()
    assert st.zone_cards("discard:0") == ["ninja-nate"]  # 1 damage, health 1


def test_a_free_play_may_still_be_enhanced_at_the_enhance_cost() -> None:
    """Line 195: a free play's base cost becomes 0, "this does not change the cost for Enhance
    abilities" (§17): Fireworks Fred, free from Surprise Holiday Gift, may be played for 0 or
    enhanced for its Enhance 6 (line 171)."""
    t = Table(["surprise-holiday-gift", "fireworks-fred"], ["mr-doctor"])
    react_to(t, 8, ("mr-doctor", 0))  # seat 1 leads turn 8; seat 0 has 8 energy
    t.play("surprise-holiday-gift")
    assert t.state.energy(0) == 6 and t.state.ask().kind == "free"  # type: ignore[union-attr]
    offered = {a.enhanced for a in t.state.legal_actions() if isinstance(a, Play)}
    assert offered == {False, True}
    doctor = t.state.lane_guy(1, 0)
    t.play("fireworks-fred", 1, enhanced=True)
    assert t.state.energy(0) == 0 and t.state.damage(doctor) == 2  # "2 damage to all opposing"


def test_vengeful_fires_once_when_the_damage_this_turn_reaches_x() -> None:
    """Line 211: Vengeful X activates if your player takes X or more this turn."""
    t = Table(["grudge-holder"], ["catapult-carl", "hothead"])
    t.to_turn(4)
    t.act(PASS)
    t.play("grudge-holder", 0)
    t.act(PASS)
    assert t.state.life(1) == 20
    t.to_turn(5)
    t.act(PASS)  # seat 0 leads turn 5
    t.play("catapult-carl", 1)  # 1 damage now, 3 in combat (Overarch)
    t.play("hothead", 2)
    before = t.state.life(1)
    t.to_combat()
    # Seat 0 took 1 (Carl played), 3 (Carl, Overarch) and 3 (Hothead, 2 +1 by its own
    # Vengeful once seat 1 was hit in lane 1): 7 >= 5, so Grudge Holder dealt 3, once.
    assert t.state.life(0) == 20 - 7
    assert t.state.life(1) == before - 3 - 3  # Grudge Holder's 3 unopposed, and Vengeful 3


def test_attack_at_least_selects_guys_with_that_much_attack() -> None:
    """Line 225: X+ means at least X attack (Recycle: 4+ attack)."""
    t = Table(["recycle"], ["mr-doctor", "big-tiny"])
    t.to_turn(4)
    t.play("mr-doctor", 0)  # 3 attack: not a target
    t.to_turn(5)
    t.play("recycle")  # no Guy with 4+ attack: the Prank does nothing (line 159)
    assert t.guy(1, 0) == "mr-doctor"


def test_minus_x_minus_y_can_destroy_and_can_t_beats_can() -> None:
    """Line 229: -X/-Y loses attack and max health; a Guy at 0 health is destroyed. Line 157:
    a Guy that can't be hurt still takes -X/-Y (not damage)."""
    t = Table(["shrink-ray"], ["robutt"])
    t.to_turn(2)
    t.play("robutt", 0)
    t.act(PASS)
    t.play("shrink-ray")
    t.answer(Target(t.state.lane_guy(1, 0)))  # 1/2 -> -1/0: destroyed
    assert t.guy(1, 0) == "scrap-bot"


def test_a_prank_without_a_target_is_played_to_no_effect() -> None:
    """Line 159: an impossible action is ignored."""
    t = Table(["smack"])
    t.play("smack")
    assert t.state.zone_cards("discard:0") == ["smack"]
    assert t.state.ask() is None


def test_conceding_loses_at_once_from_any_decision() -> None:
    """Line 111: a player who concedes loses."""
    t = Table()
    t.act(CONCEDE)
    assert t.state.is_terminal() and t.state.returns() == [0.0, 1.0]
    assert CONCEDE not in Table().state.legal_actions()  # accepted, never listed


def test_a_player_who_cannot_draw_loses() -> None:
    """Line 113: a player who has to draw but cannot loses the game."""
    t = Table()
    t.to_turn(40)
    assert t.state.is_terminal()
    assert t.state.winners() == (0, 1)  # both decks run out at the same draw: a draw (§5)


def test_the_turn_cap_gives_the_game_to_the_higher_life() -> None:
    """§38 (our cap): at the cap the higher life wins, equal life is a draw."""
    t = Table(["nail-dispenser"], round_cap=4)
    t.to_turn(3)
    t.play("nail-dispenser", 0)
    t.act(Prepare(t.state.lane_guy(0, 0)))
    t.to_turn(5)
    assert t.state.is_terminal() and t.state.winners() == (0,)


def test_targets_are_decisions_of_the_seat_that_chooses() -> None:
    """Line 205: the player who activated an ability chooses its target."""
    t = Table(["smack"], ["robutt", "hothead"])
    t.to_turn(2)
    t.play("robutt", 0)
    t.play("hothead", 1)
    t.act(PASS)
    t.play("smack")
    assert t.state.current_player() == 0
    assert all(isinstance(a, Target | TargetPlayer) for a in t.state.legal_actions())
    with pytest.raises(IllegalActionError):
        t.state.apply_action(Target(0))  # a card in a deck is no target


def test_an_ability_that_destroys_a_face_down_guy_leaves_it_lethal_until_revealed() -> None:
    """Line 99 (Omega Robutt: "destroy target opposing Guy") with line 87 (rules.md §40): a
    face-down Guy, whose card the destroying seat's replica does not know, is not put in the
    discard pile unrevealed; it takes lethal damage on every replica and dies once revealed."""
    t = Table(["omega-robutt"], ["disguyse"])
    t.to_turn(10)  # seat 1 leads
    t.play("disguyse", 1)  # face down (Sneaky)
    t.act(PASS)
    disguyse = t.state.lane_guy(1, 1)
    assert t.state.face_down(disguyse)
    replica = t.state.observation(0)
    played = t.play("omega-robutt", 0)
    replica.apply_action(played)
    assert t.state.lane_guy(1, 1) == disguyse  # still there, face down
    assert replica.damage(disguyse) == t.state.damage(disguyse) == 99
    assert replica.public_digest() == t.state.public_digest()
    for _ in range(3):  # on to its reveal (line 87), and it dies
        if t.guy(1, 1) is None:
            break
        assert t.state.face_down(disguyse)
        t.pass_phase()
    assert t.guy(1, 1) is None
    assert "disguyse" in t.state.zone_cards("discard:1")
