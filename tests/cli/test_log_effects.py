"""The log tells what every kind of ability effect did, with its numbers, in the order it
happened (issue 27, finding 3): one test per effect word of the vocabulary
(docs/abilities.md), each through the narration `play`, LAN seats and `replay` share."""

from __future__ import annotations

import gamma_helpers as gamma
import guys_helpers as guys

from cli import gammasphere_view, guys_view
from cli.narration import Narrator
from cli.wording import Seats
from p2pcards.games.gammasphere.actions import Activate
from p2pcards.games.rise_of_the_guys.actions import PASS, Lane, Reveal, Target


def told(t: guys.Table | gamma.Table, view: object, seat: int = 0) -> list[str]:
    """What `seat` was told of the steps `t` kept (`t.steps`) since the last call, each
    step told from that seat's replica before and after it."""
    assert t.steps is not None
    narrator = Narrator(view, Seats(seat))  # type: ignore[arg-type]
    states = [before for before, _ in t.steps] + [t.state]
    for (before, action), after in zip(t.steps, states[1:], strict=True):
        narrator.saw(before.observation(seat), action, after.observation(seat))
    t.steps = []
    return narrator.news()


def guys_told(t: guys.Table, seat: int = 0) -> list[str]:
    """`told` in Rise of the Guys."""
    return told(t, guys_view, seat)


def gamma_told(t: gamma.Table, seat: int = 0) -> list[str]:
    """`told` in Gammasphere."""
    return told(t, gammasphere_view, seat)


def lane_guy(t: guys.Table, seat: int, lane: int) -> int:
    """The slot of a seat's Guy in a lane."""
    return t.state.lane_guy(seat, lane)


# ------------------------------------------------------------------ Rise of the Guys


def test_damage_chosen_is_told_with_the_amount_and_what_is_left() -> None:
    """Smack: "Deal 2 damage to target Guy." Told: the target chosen, then 2 damage."""
    t = guys.Table(["smack"], ["mr-doctor"])
    guys.react_to(t, 6, ("mr-doctor", 0))
    t.steps = []
    t.play("smack")
    t.answer(Target(lane_guy(t, 1, 0)))
    lines = guys_told(t)
    assert "Smack: seat 1's Mr. Doctor in lane 1 takes 2 damage (2 health left)." in lines


def test_a_guy_killed_by_a_chosen_target_is_told_dead() -> None:
    """Smack on a Hothead (1 health): the damage, then its death (the answer naming it
    does not hide what befell it)."""
    t = guys.Table(["smack", "hothead"], ["hothead"])
    guys.react_to(t, 4, ("hothead", 0))
    t.play("hothead", 1)
    t.play("smack")
    assert t.state.ask() is not None  # two Guys to choose from
    t.steps = []
    t.act(Target(lane_guy(t, 1, 0)))
    assert guys_told(t) == [
        "You target Hothead.",
        "Smack: seat 1's Hothead in lane 1 takes 2 damage (0 health left).",
        "Seat 1's Hothead in lane 1 is destroyed.",
    ]


def test_a_reveal_s_damage_and_the_death_it_causes_come_before_combat() -> None:
    """Disguyse: "When revealed: deal 2 damage to the opposing Guy in this lane." The
    Hothead it kills is told dead before combat, and combat is told lane by lane."""
    t = guys.Table(["disguyse"], ["hothead", "hothead"])
    guys.react_to(t, 4, ("hothead", 0), ("hothead", 2))
    t.play("disguyse", 2)
    t.steps = []
    t.act(PASS)
    t.act(PASS)
    t.reveal_all()
    lines = guys_told(t)
    damage = lines.index("Disguyse: seat 1's Hothead in lane 3 takes 2 damage (0 health left).")
    death = lines.index("Seat 1's Hothead in lane 3 is destroyed.")
    combat = lines.index("Combat in lane 1: seat 1's Hothead hits you for 2.")
    assert damage < death < combat
    assert "Combat in lane 3: your Disguyse hits seat 1 for 3." in lines
    assert "Seat 1 takes 3 damage (20 → 17 life)." in lines


def test_random_damage_names_each_guy_it_hit() -> None:
    """Laser Tag: "Deal 1 damage to two random opposing Guys"."""
    t = guys.Table(["laser-tag"], ["hothead", "hothead", "hothead"])
    guys.react_to(t, 4, ("hothead", 0), ("hothead", 1))
    t.steps = []
    t.play("laser-tag")
    lines = guys_told(t)
    assert lines[1:] == [
        "Laser Tag: seat 1's Hothead in lane 1 takes 1 damage (0 health left).",
        "Laser Tag: seat 1's Hothead in lane 2 takes 1 damage (0 health left).",
        "Seat 1's Hothead in lane 1 is destroyed.",
        "Seat 1's Hothead in lane 2 is destroyed.",
    ]


def test_damage_to_a_face_down_guy_is_told_without_naming_it_to_the_other_seat() -> None:
    """Laser Tag hits "face up or face down": the owner hears its Pickpocket named, the
    player of Laser Tag only a face-down card (DESIGN.md §3: a hidden card is never told)."""
    t = guys.Table(["laser-tag"], ["pickpocket"])
    guys.react_to(t, 2, ("pickpocket", 0))
    assert t.state.face_down(lane_guy(t, 1, 0))
    t.steps = []
    t.play("laser-tag")
    steps = list(t.steps or [])
    mine = guys_told(t)
    assert "Laser Tag: seat 1's face-down card in lane 1 takes 1 damage." in mine
    assert not any("Pickpocket" in line for line in mine)
    t.steps = steps
    theirs = guys_told(t, 1)
    assert "Laser Tag: your Pickpocket in lane 1 takes 1 damage." in theirs


def test_a_random_discard_says_whose_card_went() -> None:
    """Pickpocket: "When revealed: your opponent discards a random card." (the card picked
    is shown to all as it goes to the discard pile)."""
    t = guys.Table(
        ["pickpocket"], ["hothead", "mr-doctor", "lunch-lady", "crossing-guard", "smack"]
    )
    guys.react_to(t, 2)
    t.play("pickpocket", 0)
    gone = t.state.zone_cards("hand:1")[4]
    assert gone is not None
    t.chance(4)
    t.steps = []
    t.act(PASS)
    t.act(PASS)
    t.reveal_all()
    name = guys.DB.by_id[gone].name
    assert f"Pickpocket: seat 1 discards {name} at random." in guys_told(t)


def test_heal_is_told_with_the_life_it_gave() -> None:
    """Mr. Doctor: "When played: heal 3 life" (never above 20: 18 → 20)."""
    t = guys.Table(["hothead"], ["mr-doctor"])
    t.to_turn(3)
    t.play("hothead", 0)
    t.to_turn(4)  # the Hothead hit seat 1 for 2
    t.steps = []
    t.play("mr-doctor", 1)
    assert "Mr. Doctor: you heal 2 (18 → 20 life)." in guys_told(t, 1)


def test_destroy_is_told() -> None:
    """Unpin: "Destroy target opposing Pin"."""
    t = guys.Table(["unpin"], ["arm-o-matic"])
    guys.react_to(t, 4, ("arm-o-matic", None))
    t.steps = []
    t.play("unpin")
    assert "Unpin: seat 1's Arm-O-Matic is destroyed." in guys_told(t)


def test_modify_is_told_with_the_stats_before_and_after() -> None:
    """Nerfer: "When played: give target Guy -1/-1"."""
    t = guys.Table(["nerfer"], ["mr-doctor"])
    guys.react_to(t, 6, ("mr-doctor", 0))
    t.steps = []
    t.play("nerfer", 1)
    t.answer(Target(lane_guy(t, 1, 0)))
    lines = guys_told(t)
    assert "Nerfer: seat 1's Mr. Doctor in lane 1 has attack 3 → 2, health 4 → 3." in lines


def test_a_keyword_granted_is_told() -> None:
    """Crossing Guard: "When played: another target Guy of yours can't be hurt this turn"."""
    t = guys.Table(["crossing-guard", "hothead"], [])
    t.to_turn(5)
    t.play("hothead", 0)
    t.steps = []
    t.play("crossing-guard", 1)
    lines = guys_told(t)
    assert "Crossing Guard: your Hothead in lane 1 is now safe from damage." in lines


def test_return_is_told() -> None:
    """Mandatory Vacation: "Return target opposing Guy to its owner's hand. Draw a card."."""
    t = guys.Table(["mandatory-vacation"], ["mr-doctor"])
    guys.react_to(t, 6, ("mr-doctor", 0))
    t.steps = []
    t.play("mandatory-vacation")
    lines = guys_told(t)
    assert "Mandatory Vacation: seat 1's Mr. Doctor in lane 1 goes back to the hand." in lines


def test_move_is_told_with_the_lanes() -> None:
    """Surprise Elevator: "Move target Guy (its controller chooses the lane). Draw a card."."""
    t = guys.Table(["surprise-elevator"], ["mr-doctor"])
    guys.react_to(t, 6, ("mr-doctor", 0))
    t.steps = []
    t.play("surprise-elevator")
    t.answer(Lane(2))
    lines = guys_told(t)
    assert "Surprise Elevator: seat 1's Mr. Doctor in lane 1 moves to lane 3." in lines


def test_a_token_is_told_with_its_lane() -> None:
    """Summoner: "When played: make a 1/1 Spirit in a lane of your choice"."""
    t = guys.Table(["summoner"], [])
    t.to_turn(3)
    t.steps = []
    t.play("summoner", 1)
    t.answer(Lane(0))
    assert "Summoner: a Spirit token joins your side in lane 1." in guys_told(t)


def test_energy_gained_is_told() -> None:
    """Manapult: "Prepare: gain 1 energy this turn"."""
    t = guys.Table(["manapult"], [])
    t.to_turn(3)
    t.play("manapult", 0)
    t.steps = []
    (prepare,) = [a for a in t.state.legal_actions() if type(a).__name__ == "Prepare"]
    t.act(prepare)
    assert "Manapult: you gain 1 energy (1 → 2)." in guys_told(t)


# ------------------------------------------------------------------ Gammasphere


def use(t: gamma.Table, slot: int) -> Activate:
    """The activated ability of the card in `slot`."""
    abilities = t.state.card(slot).abilities
    (index,) = [i for i, ab in enumerate(abilities) if ab.trigger == "activated"]
    return Activate(slot, index)


def test_an_activated_level_up_tells_the_gas_paid_and_the_level_gained() -> None:
    """Saiyan Elite: "Activated — pay 300 Vespene Gas: raise this character's level by 1."."""
    t = gamma.Table(["saiyan-elite"])
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.to_turn(3)
    gas = t.state.gas(0)
    t.steps = []
    t.act(use(t, elite))
    lines = gamma_told(t)
    assert lines[0] == "You use Saiyan Elite."  # issue 27: and nothing more was told
    assert f"You pay 300 gas ({gas} → {gas - 300})." in lines
    assert (
        "Saiyan Elite: your Saiyan Elite goes up 1 level (4 → 5), attack 1550 → 1900, "
        "defense 1200 → 1500." in lines
    )


def test_damage_to_a_player_names_the_card_and_the_power_level() -> None:
    """Prince Vegetable: "When played: the enemy player loses 500 Power Level"."""
    t = gamma.Table(["prince-vegetable"])
    t.pylons(3)
    t.to_turn(5)
    t.steps = []
    t.play("prince-vegetable")
    assert "Prince Vegetable: seat 1 loses 500 Power Level (9000 → 8500)." in gamma_told(t)


def test_heal_of_a_player_is_told_with_the_power_level() -> None:
    """Senzoo Bean: "gain 1500 Power Level" (never above 9000)."""
    t = gamma.Table(["prince-vegetable"], ["senzoo-bean"])
    t.pylons(3)
    t.to_turn(5)
    t.play("prince-vegetable")
    t.end()
    t.pylons(1)
    t.steps = []
    t.play("senzoo-bean")
    assert "Senzoo Bean: you gain 500 Power Level (8500 → 9000)." in gamma_told(t, 1)


def test_an_event_s_destroy_names_what_it_destroyed() -> None:
    """Nuclear Launch Detected: "destroy target enemy character"."""
    t = gamma.Table(["saiyan-elite"], ["nuclear-launch-detected"])
    t.pylons(2)
    t.play("saiyan-elite")
    t.to_turn(6)
    t.pylons(3)
    t.steps = []
    t.play("nuclear-launch-detected")
    assert "Nuclear Launch Detected: seat 0's Saiyan Elite is destroyed." in gamma_told(t, 1)


def test_a_random_discard_of_the_opponent_names_the_card() -> None:
    """Rickroller: "When played: each opponent discards a random card"."""
    t = gamma.Table(["rickroller"], ["saiyan-elite"])
    t.pylons(2)
    assert t.state.zone_cards("hand:1")[0] == "saiyan-elite"  # the pick takes place 0
    t.steps = []
    t.play("rickroller")
    assert "Rickroller: seat 1 discards Saiyan Elite at random." in gamma_told(t)


def test_mode_switched_by_an_ability_is_told() -> None:
    """Trollface Gremlin: "When played: switch the mode of target enemy character"."""
    t = gamma.Table(["trollface-gremlin"], ["saiyan-elite"])
    t.end()
    t.pylons(2)
    t.play("saiyan-elite")
    t.end()
    t.pylons(1)
    t.steps = []
    t.play("trollface-gremlin")
    lines = gamma_told(t)
    assert "Trollface Gremlin: seat 1's Saiyan Elite is now in Defense Mode." in lines


def test_gas_gained_by_an_ability_is_told() -> None:
    """Such Doge: "When played: gain 200 Vespene Gas"."""
    t = gamma.Table(["such-doge"])
    t.pylons(2)
    t.to_turn(3)
    gas = t.state.gas(0)
    t.steps = []
    t.play("such-doge")
    lines = gamma_told(t)
    assert f"Such Doge: you gain 200 gas ({gas - 300} → {gas - 100})." in lines


def test_stats_modified_by_an_ability_are_told() -> None:
    """Lofty Templar: "each enemy character gets -400 attack and -400 defense"."""
    t = gamma.Table(["lofty-templar"], ["saiyan-elite"])
    t.pylons(4)
    templar = t.play("lofty-templar")
    t.end()
    t.pylons(2)
    t.play("saiyan-elite")
    t.end()
    t.steps = []
    t.act(use(t, templar))
    lines = gamma_told(t)
    assert (
        "Lofty Templar: seat 1's Saiyan Elite has attack 1550 → 1150, defense 1200 → 800." in lines
    )


def test_a_discard_pile_shuffled_back_is_told_with_its_count() -> None:
    """Gammapedia Archive: "shuffle your discard pile into your deck, then draw 1 card"."""
    t = gamma.Table(["gammapedia-archive", "senzoo-bean", "senzoo-bean"])
    t.pylons(4)
    t.to_turn(5)
    archive = t.play("gammapedia-archive")
    t.play("senzoo-bean")
    t.play("senzoo-bean")
    assert len(t.state.zone_slots("discard:0")) == 2
    t.steps = []
    t.act(use(t, archive))
    lines = gamma_told(t)
    assert "Gammapedia Archive: you shuffle 2 cards of your discard pile into the deck." in lines


def test_a_draw_by_an_ability_names_the_card_to_its_drawer_only() -> None:
    """Marshal Jim Raynot: "When played: draw 1 card" (the drawer hears which)."""
    t = gamma.Table(["marshal-jim-raynot"], more0=["zealot"])
    t.pylons(2)
    t.draws(0, "zealot")
    t.steps = []
    t.play("marshal-jim-raynot")
    steps = list(t.steps or [])
    assert "You draw Zealot." in gamma_told(t)
    t.steps = steps
    assert "Seat 0 draws 1 card." in gamma_told(t, 1)


def test_a_listened_step_ends_in_the_same_state_as_an_unlistened_one() -> None:
    """The listener reads and never writes: a reveal, its damage and a whole combat applied
    with one and without give the same digests (every replica stays the same)."""
    t = guys.Table(["disguyse"], ["hothead", "hothead"])
    guys.react_to(t, 4, ("hothead", 0), ("hothead", 2))
    t.play("disguyse", 2)
    t.act(PASS)
    t.act(PASS)
    (reveal,) = t.state.legal_actions()
    assert isinstance(reveal, Reveal)
    quiet, heard = t.state.clone(), t.state.clone()
    moments: list[tuple[str, int]] = []
    heard.listen(lambda state, label, number: moments.append((label, number)))
    quiet.apply_action(reveal)
    heard.apply_action(reveal)
    assert ("effect", reveal.slot) in moments and ("lane", 3) in moments
    assert heard.section_digests() == quiet.section_digests()
    assert heard.clone()._listener is None  # a copy is nobody's to tell
