"""RPG Get!'s keywords and special terms, each test citing the rulebook line it checks (the
text 000_34065cf589791de6.txt, not part of p2pcards, numbered as `cat -n` numbers it) and the
choice of rules.md it follows where the text is open. The cards' Abilities, Intrinsics and
Events are data read by the one interpreter; positions are reached through the real rules."""

from __future__ import annotations

import pytest
from rpg_get_helpers import KNOCKOUT, Table, fight, knock_out_alone

from p2pcards.answers import Take, Target
from p2pcards.errors import IllegalActionError
from p2pcards.games.rpg_get.actions import (
    PASS,
    Act,
    Activate,
    Attempt,
    Bank,
    Enlist,
    Equip,
    Flip,
    Oppose,
    PlayEvent,
    Recruit,
    slot_list,
)  # fmt: skip
from p2pcards.games.rpg_get.state import (
    ACTIVE,
    BANK,
    DISCARD,
    HAND,
    INVENTORY,
    PARTY,
    SCORE,
    UNCONSCIOUS,
    Reason,
)  # fmt: skip


def test_events_of_the_play_phase_draw_and_give_counters() -> None:
    """Line 77: an Event says when it is played and what it does (choice 35: `play`, in its
    player's Play phase); line 84: reward counters."""
    t = Table([["ryudo", "treasure-chest", "windfall", "sniper"], ["vyse"]])
    t.pass_until("play")
    held = len(t.slots(0, HAND))
    assert not any(a == PlayEvent(s, "sniper") for s in t.slots(0, HAND, "sniper")
                   for a in t.state.legal_actions())  # fmt: skip
    t.do(PlayEvent, card="treasure-chest")
    assert len(t.slots(0, HAND)) == held - 1 + 2
    t.do(PlayEvent, card="windfall")
    assert t.state.counters(0) == 5 + 2
    assert len(t.slots(0, DISCARD)) == 2


def test_any_seat_may_play_an_event_in_anothers_attempt() -> None:
    """Line 78: any player may play an Event at the appropriate time, even in opponents'
    turns (choice 35: a window asks every other seat when the Party Attack step begins)."""
    t = fight([["elena", "clear-the-forest"], ["vyse", "rag-rappy", "sniper"]], ["rag-rappy"],
              "clear-the-forest", events_window=True)  # fmt: skip
    st = t.state
    assert st.windows and st.windows.top.reason == Reason.EVENTS and st.current_player() == 1
    (elena,) = t.slots(0, ACTIVE)
    t.do(PlayEvent, card="sniper")
    assert st.current_player() == 1  # the Sniper's target: Elena or the Rag Rappy
    t.act(Target(elena))
    assert st.hp_left(elena) == 5 - 2
    t.act(PASS)  # the window closes once seat 1 passes
    assert not st.windows and st.current_player() == 0 and st.phase == "party-attack"


def test_a_party_member_recovery_heals_outside_an_attempt() -> None:
    """Line 98: Recovery at any time; line 123: outside an attempt a target Recovery has no
    target; line 125: "party member" is a choice, not a target (choice 34)."""
    t = Table([["aika", "roan", "clear-the-forest"], ["vyse", "rag-rappy"]])
    st = t.state
    t.pass_until("play")
    t.do(Recruit, card="roan")
    t.pass_until("mission")
    t.do(Attempt, card="clear-the-forest")
    aika = t.slots(0, PARTY, "aika")[0]
    t.do(Enlist, slot=aika)
    t.act(PASS)  # Roan stays behind
    t.do(Oppose, card="rag-rappy")
    t.pass_until("party-attack")
    t.act(PASS)  # no attack: the Rag Rappy strikes in the Enemy Attack step
    (rappy,) = st.zone_slots("enemies")
    t.act(Act(rappy, rappy, 0, slot_list([aika])))
    assert st.hp_left(aika) == 4
    while not (st.phase == "play" and st.turn_seat == 0):
        t.act(PASS)
    (roan,) = t.slots(0, PARTY, "roan")
    t.act(Act(roan, roan, 0, slot_list([aika])))
    assert st.hp_left(aika) == 5


def test_resurrect_brings_a_character_back_at_full_hp() -> None:
    """Line 134: Resurrect moves a character from the unconscious pile to the party, at full
    HP; line 119: an unconscious character is cured."""
    t = Table([["aika", "ryudo", "revival-song", "rag-rappy-den"], ["vyse", *KNOCKOUT]])
    st = t.state
    t.pass_until("play")
    t.do(Recruit, card="ryudo")
    aika = knock_out_alone(t, "aika")
    assert st.zone_of(aika) == "unconscious:0" and st.in_game() == (0, 1)
    while not (st.phase == "play" and st.turn_seat == 0):
        t.act(PASS)
    t.do(PlayEvent, card="revival-song")  # one character to choose: taken without asking
    assert st.zone_of(aika) == "party:0" and st.hp_left(aika) == 5


def test_recruit_searches_the_own_deck_for_an_enemy_within_the_ep() -> None:
    """Line 154: in the Enemy step, search your deck for a matching enemy and play it, if
    the EP allows; otherwise the effect is ignored (choice 41). The search is the seat's own:
    another seat's replica checks the card it names against the criteria."""
    t = Table([["elena", "rag-rappy-den"], ["vyse", "ambush", "ambush", "booma"]],
              more=[[], ["booma"]])  # fmt: skip
    st = t.state
    t.pass_until("mission")
    t.do(Attempt, card="rag-rappy-den")  # EP 5
    while st.phase == "party":
        t.act(PASS)
    t.do(Oppose, card="booma")  # 2 of 5
    t.do(PlayEvent, card="ambush")
    assert st.legal_actions() == [Take("booma")]  # the deck holds one more Booma
    replica = st.observation(0)
    with pytest.raises(IllegalActionError):
        replica.apply_action(Take("rag-rappy"))  # not what an Ambush looks for
    replica.apply_action(Take("booma"))
    t.act(Take("booma"))
    assert [st.card_at(s) for s in st.zone_slots("enemies")] == ["booma", "booma"]
    t.do(PlayEvent, card="ambush")  # 4 of 5 used: a Booma (2) no longer fits
    assert st.legal_actions() == [Take(None)]
    t.act(Take(None))
    assert len(st.zone_slots("enemies")) == 2


def test_the_front_rank_flips_for_melee_and_takes_one_more() -> None:
    """Line 136-138: a Rank Change to the Front; a Melee attack flips a coin, heads +1
    damage; the card takes 1 more damage from attacks (choice 37)."""
    t = fight([["mag-launcher", "rag-rappy-den"], ["vyse", "hildebear"]], ["hildebear"])
    st = t.state
    mag = t.slots(0, ACTIVE)[0]
    (bear,) = st.zone_slots("enemies")
    t.act(Activate(mag, 0, mag))  # Ability, 1 counter: Rank Change to the Front
    assert st.counters(0) == 5 - 1 and st.rank(mag) == "front"
    t.numbers.append(1)  # heads
    t.act(Act(mag, mag, 0, slot_list([bear])))
    assert st.hp_left(bear) == 7 - (3 + 1)
    assert st.phase == "enemy-attack"  # Mag has nothing left: the step ended (line 56)
    t.act(Act(bear, bear, 0, slot_list([mag])))
    assert st.hp_left(mag) == 7 - (3 + 1)


def test_the_back_rank_flips_when_attacked() -> None:
    """Line 139-140: in the Back, a card attacked flips a coin, heads 1 less damage."""
    t = fight([["racast", "rag-rappy-den"], ["vyse", "hildebear"]], ["hildebear"])
    st = t.state
    racast = t.slots(0, ACTIVE)[0]
    (bear,) = st.zone_slots("enemies")
    t.act(Activate(racast, 0, racast))  # Rank Change to the Back
    t.act(PASS)
    t.numbers.append(1)  # heads
    t.act(Act(bear, bear, 0, slot_list([racast])))
    while st.windows:
        t.act(PASS)  # Racast keeps its Defense
    assert st.hp_left(racast) == 7 - (3 - 1)


def test_stun_stops_abilities() -> None:
    """Line 173: a stunned character may not use its Abilities."""
    t = fight([["mag-launcher", "rag-rappy-den"], ["vyse", "hildebear", "smoke-bomb"]],
              ["hildebear"], events_window=True)  # fmt: skip
    st = t.state
    mag = t.slots(0, ACTIVE)[0]
    t.do(PlayEvent, card="smoke-bomb")
    t.act(Target(mag))
    t.act(PASS)
    assert st.has_status(mag, "stun") and st.current_player() == 0
    assert not any(isinstance(a, Activate) for a in st.legal_actions())
    assert any(isinstance(a, Act) for a in st.legal_actions())  # it may still attack


def test_a_paralysed_enemy_loses_its_intrinsics() -> None:
    """Line 95: an Intrinsic is always active; line 171: a paralysed enemy's are ignored."""
    t = fight([["vyse", "rag-rappy-den", "paralysis-trap"], ["aika", "barbarous-wolf"]],
              ["barbarous-wolf"])  # fmt: skip
    st = t.state
    (wolf,) = st.zone_slots("enemies")
    assert st.attack_bonus(wolf) == 1
    t.do(PlayEvent, card="paralysis-trap")  # an attempt Event, by the seat acting
    t.act(Target(wolf))
    assert st.has_status(wolf, "paralysis") and st.attack_bonus(wolf) == 0


def test_an_intrinsic_adds_to_a_characters_attacks() -> None:
    """Line 95, 116: Millenia's Intrinsic is +1 (_) on her attacks."""
    t = fight([["millenia", "rag-rappy-den"], ["vyse", "hildebear"]], ["hildebear"])
    st = t.state
    millenia = t.slots(0, ACTIVE)[0]
    (bear,) = st.zone_slots("enemies")
    t.act(Act(millenia, millenia, 0, slot_list([bear])))
    assert st.hp_left(bear) == 7 - (3 + 1)


def test_a_support_of_y_more_targets() -> None:
    """Line 116: `_(+Y)`: Skye's Support gives the next attack one more target."""
    t = fight([["skye", "humar", "rag-rappy-den"], ["vyse", "rag-rappy", "rag-rappy"]],
              ["rag-rappy", "rag-rappy"])  # fmt: skip
    st = t.state
    skye, humar = sorted(t.slots(0, ACTIVE), key=lambda s: st.card_at(s) != "skye")
    pair = slot_list(st.zone_slots("enemies"))
    assert Act(humar, humar, 0, pair) not in st.legal_actions()
    t.act(Act(skye, skye, 0, ""))
    assert Act(humar, humar, 0, pair) in st.legal_actions()
    t.act(Act(humar, humar, 0, pair))
    assert not st.zone_slots("enemies")  # both fell: 3 damage each


def test_star_damage_is_an_unmodifiable_zero() -> None:
    """Line 117: `*` is an unmodifiable 0: Cursed Ground blocks, and deals nothing even to a
    card in the Front rank (which takes 1 more from attacks)."""
    t = Table([["mag-launcher", "rag-rappy-den"], ["vyse", "cursed-ground"]])
    st = t.state
    t.pass_until("mission")
    t.do(Attempt, card="rag-rappy-den")
    mag = t.slots(0, PARTY)[0]
    t.do(Enlist, slot=mag)
    target = slot_list([mag])
    t.do(Oppose, card="cursed-ground", targets=target)
    assert st.hp_left(mag) == 7 and st.has_status(mag, "block")


def test_a_bank_card_turned_face_up_gives_its_effect_and_is_shown() -> None:
    """Line 167: the owner may flip bank cards during its turn; some cards grant effects
    face up in the bank (choice 39). Until then only the owner knows the card (line 144)."""
    t = Table([["ryudo", "pirate-flag"], ["vyse"]])
    st = t.state
    t.pass_until("play")
    t.do(Bank, card="pirate-flag", drop=-1)
    (flag,) = t.slots(0, BANK)
    ryudo = t.slots(0, PARTY)[0]
    assert st.observation(1).card_at(flag) is None and st.attack_bonus(ryudo) == 0
    t.do(Flip, slot=flag)
    assert st.observation(1).card_at(flag) == "pirate-flag" and st.attack_bonus(ryudo) == 1


def test_an_event_can_take_a_mission_from_a_score_pile() -> None:
    """Line 157: the score pile is not in play, but cards may affect it directly."""
    t = Table([["vyse", "clear-the-forest"], ["ryudo", "lost-glory"]])
    st = t.state
    t.pass_until("mission")
    t.do(Attempt, card="clear-the-forest")
    while st.attempter >= 0:  # Vyse goes, nobody opposes: the mission is scored
        enlist = [a for a in st.legal_actions() if isinstance(a, Enlist)]
        t.act(enlist[0] if enlist else PASS)
    (mission,) = t.slots(0, SCORE)
    while not (st.phase == "play" and st.turn_seat == 1):
        t.act(PASS)
    t.do(PlayEvent, card="lost-glory")
    assert st.zone_of(mission) == "discard:0" and st.victory_points(0) == 0


def test_destroying_a_bank_card_picks_at_random_and_nobody_chooses() -> None:
    """Line 144: a card destroying a bank card takes a random one: a chance step of the
    dealer (the table's beacon), no seat's decision; the card leaves play sight unseen, for
    its owner's pile of destroyed cards (choice 39)."""
    t = Table([["vyse", "sky-pirate-raid"], ["ryudo", "buckler", "monomate"]], first=1)
    st = t.state
    t.pass_until("play")
    t.do(Bank, card="buckler", drop=-1)
    t.do(Bank, card="monomate", drop=-1)
    while not (st.phase == "play" and st.turn_seat == 0):
        t.act(PASS)
    st.apply_action(t.find(lambda a: isinstance(a, PlayEvent)))
    step, _ = st.chance_step()
    assert st.is_chance_node() and step.kind == "pick"
    assert step.source == st.zone("bank:1") and step.dest == st.zone("destroyed:1")
    assert step.viewers == 0b10  # its owner alone knows what it lost
    watcher = st.observation(0)
    assert len(watcher.chance_outcomes()) == 2  # seat 0's replica samples it without the card
    picked = st.zone_slots("bank:1")[1]
    st.apply_action(st.chance_outcome_for(st.card_at(picked), 1))
    assert st.zone_of(picked) == "destroyed:1" and len(t.slots(1, BANK)) == 1
    assert st.observation(0).card_at(picked) is None


def test_a_seat_that_is_out_has_its_cards_leave_play() -> None:
    """Line 14: a seat without characters loses and sits out, the game going on for the
    others; its cards in play leave play (choice 21, 40)."""
    t = Table([["aika", "monomate", "rag-rappy-den"], ["vyse", "booma", "rag-rappy"],
               ["ryudo", "booma"]])  # fmt: skip
    st = t.state
    t.pass_until("play")
    t.do(Equip, card="monomate")
    t.pass_until("mission")
    t.do(Attempt, card="rag-rappy-den")
    aika = t.slots(0, PARTY)[0]
    (mate,) = t.slots(0, INVENTORY)
    t.do(Enlist, slot=aika)
    t.do(Oppose, card="booma")
    t.do(Oppose, card="rag-rappy")
    t.act(PASS)
    t.do(Oppose, card="booma")
    while st.phase == "enemies":
        t.act(PASS)
    t.act(PASS)  # Aika does not attack
    while st.attempter == 0:
        acts = [a for a in st.legal_actions() if isinstance(a, Act) and a.targets]
        t.act(acts[0] if acts else PASS)
    assert st.in_game() == (1, 2) and not st.is_terminal()
    assert st.zone_of(aika) == "discard:0" and st.zone_of(mate) == "discard:0"
    assert not t.slots(0, UNCONSCIOUS) and st.turn_seat == 1
