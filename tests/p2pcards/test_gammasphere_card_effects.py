"""Every card of the Gammasphere set does what its text says, from a real position.

A card's text is its line in `p2pcards/games/gammasphere/cards.toml` (the set document:
rules.md, "The whole set"); where the text leaves a choice, the test cites the rules.md choice
it follows. Positions are reached through the rules (gamma_helpers.Table): seat 0 plays the
odd turns, turn 1 has no draw and no attack, a Pylon costs 100 gas and pays 1 Jiggawatt. The
cards with no ability (the Pylon, the Refinery, whose income is a rule of the game, and the
vanilla ones) are listed in NO_ABILITY; a test below checks that every other card of the set
has a test named for it.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

from gamma_helpers import DB, Table

from p2pcards.abilities import Effect, Selector
from p2pcards.games.gammasphere.actions import (
    DIRECT,
    Activate,
    Attack,
    Discard,
    Switch,
    Take,
    Target,
)
from p2pcards.games.gammasphere.cards import BATTLE_PROOF, UNATTACKABLE
from p2pcards.games.gammasphere.state import ATTACK_MODE, DEFENSE_MODE


def hand(t: Table, seat: int) -> list[str]:
    """The cards in a seat's hand."""
    return [c for c in t.state.zone_cards(f"hand:{seat}") if c is not None]


def deck_size(t: Table, seat: int) -> int:
    """How many cards a seat's deck holds."""
    return len(t.state.zone_slots(f"deck:{seat}"))


def use(t: Table, slot: int) -> Activate:
    """The activated ability of the card in `slot` (each card of the set has at most one)."""
    abilities = t.state.card(slot).abilities
    (index,) = [i for i, ab in enumerate(abilities) if ab.trigger == "activated"]
    return Activate(slot, index)


def activate(t: Table, slot: int) -> None:
    """The current seat uses the activated ability of the card in `slot`: it must be legal."""
    action = use(t, slot)
    assert action in t.state.legal_actions(), f"{action} is not legal now"
    t.act(action)


def attacks(t: Table) -> set[tuple[int, int]]:
    """The legal attacks, as (attacker, target)."""
    return {(a.attacker, a.target) for a in t.state.legal_actions() if isinstance(a, Attack)}


def stats(t: Table, slot: int) -> tuple[int, int]:
    """A character's attack and defense now."""
    return t.state.attack(slot), t.state.defense(slot)


# --- Protoss ----------------------------------------------------------------------------


def test_gas_probe_taps_and_pays_400_gas_to_draw_a_card() -> None:
    """Gas Probe: "Activated — tap, pay 400 Vespene Gas: draw 1 card." (tapped entities untap
    at the start of their controller's turn: choice 4)."""
    t = Table(["gas-probe"], more0=["zealot", "archon"])
    st = t.state
    t.draws(0, "zealot")
    probe = t.play("gas-probe")
    assert st.gas(0) == 3300 - 100 and st.hand_size(0) == 6
    activate(t, probe)
    assert st.gas(0) == 3200 - 400 and st.tapped(probe)
    assert st.hand_size(0) == 7 and "zealot" in hand(t, 0)
    assert use(t, probe) not in st.legal_actions()  # tapped: not again this turn
    t.to_turn(3)
    assert not st.tapped(probe)
    st._gas[0] = 399
    assert use(t, probe) not in st.legal_actions()  # the gas is a cost: it must be there


def test_zealot_gets_300_attack_with_three_pylons() -> None:
    """Zealot: "While in play: if you control 3 or more Pylons, this gets +300 attack."."""
    t = Table(["zealot"])
    st = t.state
    t.pylons(1)
    zealot = t.play("zealot")
    assert stats(t, zealot) == (1200, 800)
    t.pylons(1)
    assert stats(t, zealot) == (1200, 800)  # 2 Pylons: not yet
    t.pylons(1)
    assert len(st.pylons(0)) == 3 and stats(t, zealot) == (1500, 800)


def test_blink_strider_pays_a_jiggawatt_to_survive_attacks_this_turn() -> None:
    """Blink Strider: "Activated — pay 1 Jiggawatt: this cannot be destroyed by attacks this
    turn." Losing an attack still costs the difference (line 39); next turn it falls."""
    t = Table(["blink-strider"], ["siege-tank"])
    st = t.state
    t.pylons(2)
    strider = t.play("blink-strider")
    t.end()
    t.pylons(2)
    tank = t.play("siege-tank")  # Attack Mode: 2400 attack
    t.end()
    assert st.jiggawatts(0) == 2 and not st.has(strider, BATTLE_PROOF)
    activate(t, strider)
    assert st.jiggawatts(0) == 1 and st.has(strider, BATTLE_PROOF)
    t.attack(strider, tank)  # 1400 against 2400: the Strider would fall
    assert st.characters(0) == [strider] and st.power(0) == 9000 - 1000
    t.end()
    assert not st.has(strider, BATTLE_PROOF)  # "this turn" is over
    t.attack(tank, strider)
    assert st.characters(0) == [] and "blink-strider" in st.zone_cards("discard:0")
    assert st.power(0) == 8000 - 1000


def test_lofty_templar_weakens_every_enemy_character_until_end_of_turn() -> None:
    """Lofty Templar: "Activated — tap, pay 2 Jiggawatts: each enemy character gets -400
    attack and -400 defense until end of turn." (no stat below 0: choice 16)."""
    t = Table(["lofty-templar"], ["saiyan-elite", "space-marine", "saiyan-pod-baby"])
    st = t.state
    t.pylons(4)
    templar = t.play("lofty-templar")
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    marine = t.play("space-marine")
    baby = t.play("saiyan-pod-baby")
    t.end()
    activate(t, templar)
    assert st.tapped(templar) and st.jiggawatts(0) == 4 - 2
    assert stats(t, elite) == (1150, 800)
    assert stats(t, marine) == (400, 200)
    assert stats(t, baby) == (0, 0)  # 300/200: never below 0
    assert stats(t, templar) == (600, 1000)  # not its own side
    t.end()
    assert stats(t, elite) == (1550, 1200) and stats(t, baby) == (300, 200)


def test_shady_templar_cannot_be_attacked_beside_another_character() -> None:
    """Shady Templar: "While in play: if you control another character, this can't be
    attacked." Alone, it can be (the condition is on the company)."""
    t = Table(["saiyan-elite"], ["shady-templar", "saiyan-pod-baby"])
    st = t.state
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.end()
    t.pylons(2)
    shady = t.play("shady-templar")
    t.end()
    assert attacks(t) == {(elite, shady)} and not st.has(shady, UNATTACKABLE)
    t.end()
    baby = t.play("saiyan-pod-baby", defense=True)
    t.end()
    assert st.has(shady, UNATTACKABLE) and attacks(t) == {(elite, baby)}
    t.attack(elite, baby)
    assert st.characters(1) == [shady] and not st.has(shady, UNATTACKABLE)


def test_archon_pays_two_jiggawatts_for_600_attack_this_turn() -> None:
    """Archon: "Activated — pay 2 Jiggawatts: this gets +600 attack until end of turn."."""
    t = Table(["archon"])
    st = t.state
    t.pylons(4)
    archon = t.play("archon")
    assert stats(t, archon) == (2800, 2400) and st.jiggawatts(0) == 2
    activate(t, archon)
    assert stats(t, archon) == (3400, 2400) and st.jiggawatts(0) == 0
    t.end()
    assert stats(t, archon) == (2800, 2400)


def test_executor_tassadude_destroys_an_enemy_and_weakens_them_when_destroyed() -> None:
    """Executor Tassadude: "Activated — tap, pay 3 Jiggawatts: destroy target enemy
    character. When destroyed: each enemy character gets -800 defense permanently."."""
    t = Table(
        ["executor-tassadude"],
        ["saiyan-elite", "space-marine", "nuclear-launch-detected", "pylon", "pylon"],
    )
    st = t.state
    t.pylons(6)
    t.end()
    t.pylons(4)
    elite = t.play("saiyan-elite")
    marine = t.play("space-marine")
    t.end()
    t.pylons(1)  # the seventh
    tassadude = t.play("executor-tassadude")
    assert st.jiggawatts(0) == 3
    t.act(use(t, tassadude))
    ask = st.ask()
    assert ask is not None and ask.kind == "target" and set(ask.options) == {elite, marine}
    t.act(Target(marine))
    assert st.characters(1) == [elite] and "space-marine" in st.zone_cards("discard:1")
    assert st.tapped(tassadude) and st.jiggawatts(0) == 0
    t.end()
    assert stats(t, elite) == (1550, 1200)
    t.play("nuclear-launch-detected")  # Tassadude is the lone enemy character
    assert st.characters(0) == [] and "executor-tassadude" in st.zone_cards("discard:0")
    assert stats(t, elite) == (1550, 1200 - 800)
    t.to_turn(6)
    assert stats(t, elite) == (1550, 400)  # permanently


# --- Zerg -------------------------------------------------------------------------------


def test_zerglet_fetches_another_zerglet_when_destroyed() -> None:
    """Zerglet: "When destroyed: search your deck for a Zerglet, put it in your hand, then
    shuffle." The searching seat is asked, even on the opponent's turn."""
    t = Table(["zerglet"], ["saiyan-elite"], more0=["zerglet"])
    st = t.state
    zerglet = t.play("zerglet")
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    before = deck_size(t, 0)
    t.attack(elite, zerglet)  # 1550 against 400 in Attack Mode
    assert "zerglet" in st.zone_cards("discard:0") and st.power(0) == 9000 - 1150
    ask = st.ask()
    assert ask is not None and ask.kind == "search" and ask.seat == 0
    assert st.legal_actions() == [Take("zerglet")]
    t.act(Take("zerglet"))
    assert hand(t, 0).count("zerglet") == 1 and st.hand_size(0) == 7
    assert deck_size(t, 0) == before - 1 and st.current_player() == 1


def test_overlard_gains_100_gas_at_the_start_of_its_turn() -> None:
    """Overlard: "At the start of your turn: gain 100 Vespene Gas." (not the opponent's)."""
    t = Table(["overlard"])
    st = t.state
    t.play("overlard")
    assert st.gas(0) == 3300 - 400
    t.to_turn(2)
    assert st.gas(0) == 2900 and st.gas(1) == 3300
    t.to_turn(3)
    assert st.gas(0) == 2900 + 300 + 100


def test_megalisk_gets_500_defense_in_attack_mode() -> None:
    """Megalisk: "While in play: if this is in Attack Mode, it gets +500 defense."."""
    t = Table(["megalisk", "megalisk"])
    t.pylons(4)
    megalisk = t.play("megalisk")
    assert t.state.mode(megalisk) == ATTACK_MODE and stats(t, megalisk) == (3300, 3100)
    walled = t.play("megalisk", defense=True)
    assert stats(t, walled) == (3300, 2600)
    t.act(Switch(megalisk))
    assert stats(t, megalisk) == (3300, 2600)


def test_broodqueen_kerrigone_fetches_a_zerg_character_each_turn() -> None:
    """Broodqueen Kerrigone: "At the start of your turn: search your deck for a Zerg
    character, put it in your hand, then shuffle." Not a Protoss, not a Zerg building."""
    t = Table(["broodqueen-kerrigone"], more0=["zerglet", "zealot", "spawning-pool"])
    st = t.state
    t.pylons(3)
    t.play("broodqueen-kerrigone")
    assert st.ask() is None
    t.end()
    assert st.ask() is None and st.current_player() == 1  # the opponent's turn: nothing
    t.end()
    ask = st.ask()
    assert ask is not None and ask.kind == "search" and ask.seat == 0
    assert st.legal_actions() == [Take("zerglet")]
    size = st.hand_size(0)
    t.act(Take("zerglet"))
    assert "zerglet" in hand(t, 0) and st.hand_size(0) == size + 1
    t.to_turn(5)
    assert st.legal_actions() == [Take(None)]  # no Zerg character left in the deck
    t.act(Take(None))
    assert st.hand_size(0) == size + 2  # the turn's draw only


# --- Terran -----------------------------------------------------------------------------


def test_gas_jockey_fetches_a_refinery_when_played() -> None:
    """Gas Jockey: "When played: search your deck for a Refinery, put it in your hand, then
    shuffle."."""
    t = Table(["gas-jockey"], more0=["refinery", "bunker"])
    st = t.state
    t.play("gas-jockey")
    ask = st.ask()
    assert ask is not None and ask.kind == "search" and ask.seat == 0
    assert st.legal_actions() == [Take("refinery")]
    shuffles = st.reshuffles()
    t.act(Take("refinery"))
    assert "refinery" in hand(t, 0) and st.hand_size(0) == 7 and deck_size(t, 0) == 32
    assert "refinery" not in st.zone_cards("deck:0")
    assert st.is_public(t.slot("refinery", "hand:0"))  # the card taken is shown to all
    assert st.reshuffles() == shuffles + 1  # then the deck is shuffled


def test_space_marine_stims_for_100_gas_until_end_of_turn() -> None:
    """Space Marine: "Activated — pay 100 Vespene Gas: this gets +400 attack and -300
    defense until end of turn." (once a turn: rules.md, "Vocabulary used")."""
    t = Table(["space-marine"])
    st = t.state
    marine = t.play("space-marine")
    activate(t, marine)
    assert st.gas(0) == 3300 - 200 - 100 and stats(t, marine) == (1200, 300)
    assert use(t, marine) not in st.legal_actions() and not st.tapped(marine)
    t.end()
    assert stats(t, marine) == (800, 600)


def test_siege_tank_gets_1500_defense_in_defense_mode() -> None:
    """Siege Tank: "While in play: if this is in Defense Mode, it gets +1500 defense."."""
    t = Table(["siege-tank"])
    t.pylons(2)
    tank = t.play("siege-tank", defense=True)
    assert t.state.mode(tank) == DEFENSE_MODE and stats(t, tank) == (2400, 2900)
    t.act(Switch(tank))
    assert stats(t, tank) == (2400, 1400)


def test_marshal_jim_raynot_draws_and_pumps_a_character_for_300_gas() -> None:
    """Marshal Jim Raynot: "When played: draw 1 card. Activated — pay 300 Vespene Gas: target
    character gets +600 attack until end of turn."."""
    t = Table(["marshal-jim-raynot", "saiyan-pod-baby"], ["space-marine"],
              more0=["kamehamehaha"])  # fmt: skip
    st = t.state
    t.draws(0, "kamehamehaha")
    t.pylons(2)
    baby = t.play("saiyan-pod-baby")
    size = st.hand_size(0)
    jim = t.play("marshal-jim-raynot")
    assert st.hand_size(0) == size and "kamehamehaha" in hand(t, 0)  # -1 played, +1 drawn
    assert st.gas(0) == 3300 - 200 - 100 - 800
    t.act(use(t, jim))
    ask = st.ask()
    assert ask is not None and ask.kind == "target" and set(ask.options) == {jim, baby}
    t.act(Target(baby))
    assert st.gas(0) == 2200 - 300 and stats(t, baby) == (900, 200)
    assert stats(t, jim) == (2600, 2000)
    t.end()
    assert stats(t, baby) == (300, 200)


# --- Saiyan -----------------------------------------------------------------------------


def test_saiyan_scout_levels_up_each_turn_once_its_power_level_is_down() -> None:
    """Saiyan Scout: "At the start of your turn: if your Power Level is less than 9000, raise
    this character's level by 1." (+250 attack, +150 defense a level)."""
    t = Table(["saiyan-scout"], ["kamehamehaha"])
    st = t.state
    scout = t.play("saiyan-scout")
    t.end()
    t.pylons(3)
    t.to_turn(3)
    assert st.power(0) == 9000 and st.level(scout) == 2  # full Power Level: no
    t.end()
    t.play("kamehamehaha")
    assert st.power(0) == 8000
    t.to_turn(5)
    assert st.level(scout) == 3 and stats(t, scout) == (950, 650)
    t.to_turn(7)
    assert st.level(scout) == 4 and stats(t, scout) == (1200, 800)


def test_saiyan_elite_raises_its_level_for_300_gas() -> None:
    """Saiyan Elite: "Activated — pay 300 Vespene Gas: raise this character's level by 1."
    (levels change permanently; +350 attack, +300 defense a level)."""
    t = Table(["saiyan-elite"])
    st = t.state
    t.pylons(2)
    elite = t.play("saiyan-elite")
    assert st.gas(0) == 3300 - 200 - 500 and st.level(elite) == 4
    activate(t, elite)
    assert st.gas(0) == 2300 and st.level(elite) == 5 and stats(t, elite) == (1900, 1500)
    assert use(t, elite) not in st.legal_actions()  # once a turn
    t.to_turn(3)
    assert st.level(elite) == 5
    activate(t, elite)
    t.to_turn(5)
    activate(t, elite)
    assert st.level(elite) == 7 and stats(t, elite) == (2600, 2100)  # the rulebook's 2600


def test_kakarrot_raises_its_level_for_two_jiggawatts() -> None:
    """Kakarrot: "Activated — pay 2 Jiggawatts: raise this character's level by 1." (and at
    9000 Power Level its start-of-turn ability does nothing)."""
    t = Table(["kakarrot"])
    st = t.state
    t.pylons(5)
    kakarrot = t.play("kakarrot")
    assert st.jiggawatts(0) == 2 and st.level(kakarrot) == 8
    activate(t, kakarrot)
    assert st.jiggawatts(0) == 0 and st.level(kakarrot) == 9
    assert stats(t, kakarrot) == (3400, 2700)
    t.to_turn(3)
    assert st.level(kakarrot) == 9


def test_kakarrot_gains_two_levels_a_turn_at_3000_power_or_less() -> None:
    """Kakarrot: "At the start of your turn: if your Power Level is 3000 or less, raise this
    character's level by 2." Two failed attacks on a plated Siege Tank take seat 0 to 2600."""
    t = Table(["kakarrot", "saiyan-pod-baby", "saiyan-pod-baby"],
              ["siege-tank", "neosteel-plating"])  # fmt: skip
    st = t.state
    t.pylons(4)
    babies = [t.play("saiyan-pod-baby"), t.play("saiyan-pod-baby")]
    t.end()
    t.pylons(2)
    tank = t.play("siege-tank", defense=True)
    t.play("neosteel-plating", host=tank)
    assert stats(t, tank) == (2400, 1400 + 1500 + 600)
    t.end()
    t.pylons(1)
    kakarrot = t.play("kakarrot")
    for baby in babies:
        t.attack(baby, tank)  # 300 against 3500: seat 0 loses 3200 each time
    assert st.power(0) == 9000 - 6400 and st.level(kakarrot) == 8
    t.to_turn(5)
    assert st.level(kakarrot) == 10 and stats(t, kakarrot) == (3800, 3000)


def test_prince_vegetable_costs_the_opponent_500_and_levels_for_500_gas() -> None:
    """Prince Vegetable: "When played: your opponent loses 500 Power Level. Activated — pay
    500 Vespene Gas: raise this character's level by 1."."""
    t = Table(["prince-vegetable"])
    st = t.state
    t.pylons(3)
    prince = t.play("prince-vegetable")
    assert st.power(1) == 8500 and st.power(0) == 9000
    assert st.gas(0) == 3300 - 300 - 1200
    activate(t, prince)
    assert st.gas(0) == 1800 - 500 and st.level(prince) == 10
    assert stats(t, prince) == (4000, 3000)


def test_moonlit_were_ape_loses_a_level_at_the_end_of_each_of_its_turns() -> None:
    """Moonlit Were-Ape: "At the end of your turn: lower this character's level by 1."
    (-380 attack, -280 defense a level; not at the end of the opponent's turn)."""
    t = Table(["moonlit-were-ape"])
    st = t.state
    t.pylons(4)
    ape = t.play("moonlit-were-ape")
    assert st.level(ape) == 10 and stats(t, ape) == (4000, 3000)
    t.end()
    assert st.level(ape) == 9 and stats(t, ape) == (3620, 2720)
    t.end()
    assert st.level(ape) == 9
    t.end()
    assert st.level(ape) == 8 and stats(t, ape) == (3240, 2440)


# --- Human ------------------------------------------------------------------------------


def test_doc_brownout_fetches_a_flux_capacitor_and_bounces_a_character() -> None:
    """Doc Brownout: "When played: search your deck for a Flux Capacitor, put it in your
    hand, then shuffle. Activated — tap, pay 3 Jiggawatts: return target character to its
    owner's hand." (any character: the Doc itself is a candidate)."""
    t = Table(["doc-brownout"], ["saiyan-elite"], more0=["flux-capacitor", "banhammer"])
    st = t.state
    t.pylons(4)
    doc = t.play("doc-brownout")
    assert st.legal_actions() == [Take("flux-capacitor")]
    t.act(Take("flux-capacitor"))
    assert "flux-capacitor" in hand(t, 0)
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    activate(t, elite)  # level 5
    size = st.hand_size(1)
    t.end()
    t.act(use(t, doc))
    ask = st.ask()
    assert ask is not None and ask.kind == "target" and set(ask.options) == {doc, elite}
    t.act(Target(elite))
    assert st.characters(1) == [] and "saiyan-elite" in hand(t, 1)
    assert st.hand_size(1) == size + 1
    assert st.tapped(doc) and st.jiggawatts(0) == 4 - 3
    t.end()
    again = t.play("saiyan-elite")
    assert st.level(again) == 4  # it comes back as printed


def test_marty_mcflyer_draws_a_card_when_played() -> None:
    """Marty McFlyer: "When played: draw 1 card."."""
    t = Table(["marty-mcflyer"], more0=["kamehamehaha"])
    st = t.state
    t.draws(0, "kamehamehaha")
    t.play("marty-mcflyer")
    assert st.hand_size(0) == 7 and "kamehamehaha" in hand(t, 0)
    assert deck_size(t, 0) == 33 - 1


def test_gammapedia_editor_draws_then_discards_a_card_of_choice() -> None:
    """Gammapedia Editor: "When played: draw 1 card, then discard a card of your choice."."""
    t = Table(["gammapedia-editor", "senzoo-bean"], more0=["kamehamehaha"])
    st = t.state
    t.draws(0, "kamehamehaha")
    t.play("gammapedia-editor")
    ask = st.ask()
    assert ask is not None and ask.kind == "discard" and ask.seat == 0
    actions = st.legal_actions()
    assert all(isinstance(a, Discard) for a in actions) and len(actions) == 7
    assert "kamehamehaha" in hand(t, 0)  # drawn first
    bean = t.slot("senzoo-bean", "hand:0")
    t.act(Discard(bean, "senzoo-bean"))
    assert st.hand_size(0) == 6 and st.zone_cards("discard:0") == ["senzoo-bean"]
    assert "kamehamehaha" in hand(t, 0) and deck_size(t, 0) == 32


# --- Meme -------------------------------------------------------------------------------


def test_such_doge_refunds_200_gas_when_played() -> None:
    """Such Doge: "When played: gain 200 Vespene Gas."."""
    t = Table(["such-doge"])
    t.play("such-doge")
    assert t.state.gas(0) == 3300 - 300 + 200


def test_rickroller_makes_the_opponent_discard_a_random_card() -> None:
    """Rickroller: "When played: your opponent discards a random card." (the dealer picks
    it: nobody is asked; the pick's number is a place in the hand of seven, and the card
    there goes. test_random_choices.py: every place equally likely)."""
    t = Table(["rickroller"], ["kamehamehaha", "senzoo-bean", "ki-blast"])
    st = t.state
    before = st.zone_cards("hand:1")
    assert len(before) == 7
    t.chance(1)
    t.play("rickroller")
    assert st.ask() is None and st.current_player() == 0
    assert st.hand_size(1) == 6 and st.hand_size(0) == 6
    assert st.zone_cards("discard:1") == [before[1]]
    assert Counter(before) - Counter(hand(t, 1)) == Counter([before[1]])


def test_trollface_gremlin_switches_an_enemy_characters_mode() -> None:
    """Trollface Gremlin: "When played: switch target enemy character's mode." (a lone
    enemy is taken without asking; with two, seat 0 chooses)."""
    t = Table(["trollface-gremlin", "trollface-gremlin", "saiyan-pod-baby"],
              ["saiyan-pod-baby", "saiyan-scout"])  # fmt: skip
    st = t.state
    mine = t.play("saiyan-pod-baby", defense=True)
    t.end()
    wall = t.play("saiyan-pod-baby", defense=True)
    t.end()
    t.play("trollface-gremlin")  # the Pod Baby is the lone enemy
    assert st.ask() is None and st.mode(wall) == ATTACK_MODE
    assert st.mode(mine) == DEFENSE_MODE
    t.end()
    scout = t.play("saiyan-scout")
    t.end()
    t.play("trollface-gremlin")
    ask = st.ask()
    assert ask is not None and ask.kind == "target" and set(ask.options) == {wall, scout}
    t.act(Target(scout))
    assert st.mode(scout) == DEFENSE_MODE and st.mode(wall) == ATTACK_MODE


# --- Buildings --------------------------------------------------------------------------


def test_photon_cannon_shrinks_an_enemy_attack_by_500_this_turn() -> None:
    """Photon Cannon: "Activated — tap, pay 1 Jiggawatt: target enemy character gets -500
    attack until end of turn."."""
    t = Table(["photon-cannon"], ["saiyan-elite"])
    st = t.state
    t.pylons(2)
    cannon = t.play("photon-cannon")
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.end()
    activate(t, cannon)
    assert stats(t, elite) == (1050, 1200)
    assert st.tapped(cannon) and st.jiggawatts(0) == 1
    assert use(t, cannon) not in st.legal_actions()
    t.end()
    assert stats(t, elite) == (1550, 1200)


def test_spawning_pool_fetches_a_zerg_character_for_200_gas() -> None:
    """Spawning Pool: "Activated — tap, pay 200 Vespene Gas: search your deck for a Zerg
    character, put it in your hand, then shuffle."."""
    t = Table(["spawning-pool"], more0=["overlard", "zealot"])
    st = t.state
    pool = t.play("spawning-pool")
    assert st.gas(0) == 3300 - 400
    t.act(use(t, pool))
    assert st.gas(0) == 2900 - 200 and st.tapped(pool)
    assert st.legal_actions() == [Take("overlard")]
    t.act(Take("overlard"))
    assert "overlard" in hand(t, 0) and st.hand_size(0) == 7
    assert use(t, pool) not in st.legal_actions()


def test_kame_hut_heals_500_power_for_200_gas() -> None:
    """Kame Hut: "Activated — tap, pay 200 Vespene Gas: gain 500 Power Level." (never above
    9000: rules.md, "Gammasphere's words")."""
    t = Table(["kame-hut"], ["kamehamehaha"])
    st = t.state
    hut = t.play("kame-hut")
    t.end()
    t.pylons(3)
    t.play("kamehamehaha")
    t.end()
    assert st.power(0) == 8000 and st.gas(0) == 3200
    activate(t, hut)
    assert st.power(0) == 8500 and st.gas(0) == 3000 and st.tapped(hut)
    assert use(t, hut) not in st.legal_actions()
    t.to_turn(5)
    activate(t, hut)
    assert st.power(0) == 9000
    t.to_turn(7)
    activate(t, hut)
    assert st.power(0) == 9000


def test_hyperbolic_time_closet_raises_a_characters_level_for_300_gas_and_a_jiggawatt() -> None:
    """Hyperbolic Time Closet: "Activated — pay 300 Vespene Gas, pay 1 Jiggawatt: raise target
    character's level by 1." (any character, either side)."""
    t = Table(["hyperbolic-time-closet", "saiyan-elite"], ["saiyan-pod-baby"])
    st = t.state
    t.pylons(3)
    elite = t.play("saiyan-elite")
    closet = t.play("hyperbolic-time-closet")
    t.end()
    baby = t.play("saiyan-pod-baby")
    t.end()
    gas, jw = st.gas(0), st.jiggawatts(0)
    t.act(use(t, closet))
    ask = st.ask()
    assert ask is not None and ask.kind == "target" and set(ask.options) == {elite, baby}
    t.act(Target(elite))
    assert st.level(elite) == 5 and stats(t, elite) == (1900, 1500)
    assert st.gas(0) == gas - 300 and st.jiggawatts(0) == jw - 1
    assert not st.tapped(closet) and use(t, closet) not in st.legal_actions()


def test_gammapedia_archive_shuffles_the_discard_pile_back_and_draws() -> None:
    """Gammapedia Archive: "Activated — tap, pay 2 Jiggawatts: shuffle your discard pile into
    your deck, then draw 1 card."."""
    t = Table(["gammapedia-archive", "you-must-construct-additional-pylons", "senzoo-bean"])
    st = t.state
    t.play("you-must-construct-additional-pylons")
    t.act(Take("pylon"))
    t.pylons(2)
    t.play("senzoo-bean")
    archive = t.play("gammapedia-archive")
    events = {"senzoo-bean", "you-must-construct-additional-pylons"}
    assert set(st.zone_cards("discard:0")) == events
    t.pylons(2)
    deck, size, jw = deck_size(t, 0), st.hand_size(0), st.jiggawatts(0)
    activate(t, archive)
    assert st.zone_cards("discard:0") == [] and st.tapped(archive)
    assert deck_size(t, 0) == deck + 2 - 1 and st.hand_size(0) == size + 1
    assert st.jiggawatts(0) == jw - 2


# --- Weapons ----------------------------------------------------------------------------


def test_psi_blade_gives_400_attack_and_200_more_to_a_protoss() -> None:
    """Psi Blade: +400/+0. "While in play: if its holder is a Protoss, it gets +200
    attack."."""
    t = Table(["gas-probe", "space-marine", "psi-blade", "psi-blade"])
    t.pylons(2)
    probe = t.play("gas-probe")
    marine = t.play("space-marine")
    t.play("psi-blade", host=probe)
    t.play("psi-blade", host=marine)
    assert stats(t, probe) == (200 + 400 + 200, 300)
    assert stats(t, marine) == (800 + 400, 600)  # a Terran: the blade alone


def test_saiyan_battle_armor_gives_a_saiyan_300_more_attack() -> None:
    """Saiyan Battle Armor: +200/+500. "While in play: if its holder is a Saiyan, it gets
    +300 attack."."""
    t = Table(["saiyan-pod-baby", "space-marine", "saiyan-battle-armor", "saiyan-battle-armor"])
    baby = t.play("saiyan-pod-baby")
    marine = t.play("space-marine")
    t.play("saiyan-battle-armor", host=baby)
    t.play("saiyan-battle-armor", host=marine)
    assert stats(t, baby) == (300 + 200 + 300, 200 + 500)
    assert stats(t, marine) == (800 + 200, 600 + 500)


def test_power_scouter_draws_and_burns_500_a_turn_on_a_3000_attack_holder() -> None:
    """Power Scouter: +100/+100. "When played: draw 1 card. At the start of your turn: if
    its holder's attack is 3000 or more, your opponent loses 500 Power Level." One on a
    Megalisk (3400), one on a Pod Baby (400): only the first burns."""
    t = Table(["megalisk", "saiyan-pod-baby", "power-scouter", "power-scouter"])
    st = t.state
    t.pylons(2)
    megalisk = t.play("megalisk")
    baby = t.play("saiyan-pod-baby")
    size, deck = st.hand_size(0), deck_size(t, 0)
    t.play("power-scouter", host=megalisk)
    assert st.hand_size(0) == size and deck_size(t, 0) == deck - 1  # -1 played, +1 drawn
    t.play("power-scouter", host=baby)
    assert stats(t, megalisk) == (3400, 3200) and stats(t, baby) == (400, 300)
    t.to_turn(2)
    assert st.power(1) == 9000  # only at the start of its holder's side's turn
    t.to_turn(3)
    assert st.power(1) == 8500 and st.power(0) == 9000
    t.to_turn(5)
    assert st.power(1) == 8000


def test_power_scouter_burns_on_its_holders_attack_with_static_bonuses() -> None:
    """Power Scouter: "At the start of your turn: if its holder's attack is 3000 or more,
    your opponent loses 500 Power Level." The holder's attack is the one it has, static
    bonuses included: a Lv. 8 Zealot with 3+ Pylons has 1200 + 5 x 300 + 100 + 300 = 3100."""
    t = Table(["zealot", "power-scouter", "its-over-9000", "its-over-9000",
               "hyperbolic-time-closet"])  # fmt: skip
    st = t.state
    t.pylons(2)
    zealot = t.play("zealot")
    t.play("power-scouter", host=zealot)  # draws a Pylon
    t.pylons(1)
    assert st.attack(zealot) == 1200 + 100 + 300
    t.to_turn(3)
    t.pylons(1)
    t.play("its-over-9000")  # the Zealot is the lone character: Lv. 5
    t.play("its-over-9000")  # Lv. 7
    t.to_turn(5)
    assert st.level(zealot) == 7 and st.attack(zealot) == 2800 and st.power(1) == 9000
    t.pylons(1)
    closet = t.play("hyperbolic-time-closet")
    activate(t, closet)  # Lv. 8
    assert st.level(zealot) == 8 and st.attack(zealot) == 3100
    t.to_turn(7)
    assert st.attack(zealot) == 3100
    assert st.power(1) == 9000 - 500


def test_flux_capacitor_untaps_its_holder_for_two_jiggawatts() -> None:
    """Flux Capacitor: +0/+200. "Activated — pay 2 Jiggawatts: untap its holder." An
    attacker untapped attacks again (choice 9: attacking taps)."""
    t = Table(["saiyan-elite", "flux-capacitor"])
    st = t.state
    t.pylons(4)
    elite = t.play("saiyan-elite")
    flux = t.play("flux-capacitor", host=elite)
    assert stats(t, elite) == (1550, 1400)
    t.to_turn(3)
    t.attack(elite, DIRECT)
    assert st.power(1) == 9000 - 1550 and st.tapped(elite) and attacks(t) == set()
    activate(t, flux)
    assert not st.tapped(elite) and st.jiggawatts(0) == 4 - 2
    assert use(t, flux) not in st.legal_actions()  # once a turn
    t.attack(elite, DIRECT)
    assert st.power(1) == 9000 - 2 * 1550


def test_banhammer_taps_its_holder_to_bounce_an_enemy_character() -> None:
    """Banhammer: +500/+0. "Activated — tap its holder, pay 2 Jiggawatts: return target
    enemy character to its owner's hand."."""
    t = Table(["space-marine", "banhammer"], ["saiyan-elite"])
    st = t.state
    t.pylons(4)
    marine = t.play("space-marine")
    hammer = t.play("banhammer", host=marine)
    assert stats(t, marine) == (1300, 600)
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    size = st.hand_size(1)
    t.end()
    activate(t, hammer)
    assert st.characters(1) == [] and "saiyan-elite" in hand(t, 1)
    assert st.hand_size(1) == size + 1 and elite in st.zone_slots("hand:1")
    assert st.tapped(marine) and st.jiggawatts(0) == 4 - 2
    assert attacks(t) == set()  # the tapped holder cannot attack


# --- Events -----------------------------------------------------------------------------


def test_you_must_construct_additional_pylons_fetches_a_pylon_and_draws() -> None:
    """You Must Construct Additional Pylons: "Search your deck for a Pylon, put it in your
    hand, then shuffle. Draw 1 card." (the draw comes after the shuffle)."""
    t = Table(["you-must-construct-additional-pylons", "zealot"], more0=["archon"])
    st = t.state
    t.draws(0, "archon")
    t.play("you-must-construct-additional-pylons")
    ask = st.ask()
    assert ask is not None and ask.kind == "search" and ask.seat == 0
    assert st.legal_actions() == [Take("pylon")]
    t.act(Take("pylon"))
    assert st.hand_size(0) == 8 and deck_size(t, 0) == 31
    assert "archon" in hand(t, 0) and st.gas(0) == 3300
    assert st.zone_cards("discard:0") == ["you-must-construct-additional-pylons"]


def test_121_jiggawatts_untaps_a_pylon_and_draws() -> None:
    """1.21 Jiggawatts!: "Untap target Pylon. Draw 1 card." (a Pylon of yours)."""
    t = Table(["121-jiggawatts", "zealot"], more0=["kamehamehaha"])
    st = t.state
    t.draws(0, "kamehamehaha")
    t.pylons(2)
    t.play("zealot")
    assert st.jiggawatts(0) == 1
    (spent,) = [p for p in st.pylons(0) if st.tapped(p)]
    size = st.hand_size(0)
    t.play("121-jiggawatts")
    ask = st.ask()
    assert ask is not None and ask.kind == "target" and set(ask.options) == set(st.pylons(0))
    t.act(Target(spent))
    assert not st.tapped(spent) and st.jiggawatts(0) == 2
    assert st.hand_size(0) == size - 1 + 1 and "kamehamehaha" in hand(t, 0)


def test_warp_in_fetches_a_protoss_character() -> None:
    """Warp In: "Search your deck for a Protoss character, put it in your hand, then
    shuffle." Not a Zerg, not a Protoss building."""
    t = Table(["warp-in"], more0=["archon", "zerglet", "photon-cannon"])
    st = t.state
    t.pylons(1)
    t.play("warp-in")
    assert st.jiggawatts(0) == 0
    assert st.legal_actions() == [Take("archon")]
    t.act(Take("archon"))
    assert "archon" in hand(t, 0) and st.hand_size(0) == 6


def test_ki_blast_shrinks_an_enemy_character_by_600_this_turn() -> None:
    """Ki Blast: "Target enemy character gets -600 attack and -600 defense until end of
    turn."."""
    t = Table(["ki-blast", "saiyan-pod-baby"], ["saiyan-elite"])
    st = t.state
    t.pylons(1)
    baby = t.play("saiyan-pod-baby")
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.end()
    t.play("ki-blast")  # the Elite is the lone enemy character
    assert stats(t, elite) == (950, 600) and stats(t, baby) == (300, 200)
    assert st.zone_cards("discard:0") == ["ki-blast"]
    t.end()
    assert stats(t, elite) == (1550, 1200)


def test_senzoo_bean_gives_back_1500_power_level() -> None:
    """Senzoo Bean: "Gain 1500 Power Level." (never above 9000: rules.md, "Gammasphere's
    words"). A failed attack on a Siege Tank in Defense Mode costs seat 0 2600 first."""
    t = Table(["senzoo-bean", "senzoo-bean", "saiyan-pod-baby"], ["siege-tank"])
    st = t.state
    t.pylons(2)
    baby = t.play("saiyan-pod-baby")
    t.end()
    t.pylons(2)
    tank = t.play("siege-tank", defense=True)
    t.end()
    t.attack(baby, tank)  # 300 against 2900
    assert st.power(0) == 9000 - 2600
    t.play("senzoo-bean")
    assert st.power(0) == 6400 + 1500
    t.play("senzoo-bean")
    assert st.power(0) == 9000


def test_its_over_9000_raises_a_level_by_2_and_gives_900_attack_this_turn() -> None:
    """It's Over 9000!: "Raise target character's level by 2. It gets +900 attack until end
    of turn." One target, chosen once, takes both (docs/abilities.md: "same"); the level
    stays, the +900 ends with the turn."""
    t = Table(["its-over-9000", "saiyan-elite", "saiyan-pod-baby"])
    st = t.state
    t.pylons(4)
    elite = t.play("saiyan-elite")
    baby = t.play("saiyan-pod-baby")
    t.play("its-over-9000")
    ask = st.ask()
    assert ask is not None and ask.kind == "target" and set(ask.options) == {elite, baby}
    t.act(Target(elite))
    assert st.ask() is None and st.zone_cards("discard:0") == ["its-over-9000"]
    assert st.level(elite) == 6 and stats(t, elite) == (2250 + 900, 1800)
    assert st.level(baby) == 1 and stats(t, baby) == (300, 200)
    assert st.jiggawatts(0) == 0
    t.end()
    assert st.level(elite) == 6 and stats(t, elite) == (2250, 1800)


def test_time_paradox_returns_a_character_to_its_owners_hand() -> None:
    """Time Paradox: "Return target character to its owner's hand." (the weapon it held,
    left without a holder, goes to the discard pile: the engine's reading, state._return;
    rules.md choice 14 says only that a weapon is destroyed with its holder)."""
    t = Table(["time-paradox"], ["saiyan-elite", "gauss-rifle"])
    st = t.state
    t.pylons(2)
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.play("gauss-rifle", host=elite)
    size = st.hand_size(1)
    t.end()
    t.play("time-paradox")  # the Elite is the lone character
    assert st.characters(1) == [] and elite in st.zone_slots("hand:1")
    assert st.hand_size(1) == size + 1 and "gauss-rifle" in st.zone_cards("discard:1")
    assert st.jiggawatts(0) == 0


def test_kamehamehaha_costs_the_opponent_1000_power_level() -> None:
    """Kamehamehaha: "Your opponent loses 1000 Power Level."."""
    t = Table(["kamehamehaha"])
    st = t.state
    t.pylons(3)
    t.play("kamehamehaha")
    assert st.power(1) == 8000 and st.power(0) == 9000 and st.jiggawatts(0) == 0


def test_nuclear_launch_detected_destroys_an_enemy_character() -> None:
    """Nuclear Launch Detected: "Destroy target enemy character." (the destroyed one goes to
    its owner's discard pile: choice 19; the caster's own are no candidates)."""
    t = Table(["nuclear-launch-detected", "saiyan-pod-baby"],
              ["saiyan-elite", "saiyan-pod-baby"])  # fmt: skip
    st = t.state
    t.pylons(3)
    mine = t.play("saiyan-pod-baby")
    t.end()
    t.pylons(2)
    elite = t.play("saiyan-elite")
    theirs = t.play("saiyan-pod-baby")
    t.end()
    t.play("nuclear-launch-detected")
    ask = st.ask()
    assert ask is not None and ask.kind == "target" and set(ask.options) == {elite, theirs}
    t.act(Target(elite))
    assert st.characters(1) == [theirs] and st.characters(0) == [mine]
    assert st.zone_cards("discard:1") == ["saiyan-elite"]
    assert st.gas(0) == 3300 - 300 - 100 + 300 - 400


# --- The whole set ----------------------------------------------------------------------

NO_ABILITY = {
    "pylon", "refinery", "saiyan-pod-baby", "bunker", "gauss-rifle", "neosteel-plating",
}  # fmt: skip
"""The cards with no ability: the Pylon's Jiggawatt and the Refinery's income are rules of the
game (test_gammasphere_rules.py), the others have no text."""


def test_every_card_of_the_set_with_abilities_has_a_test() -> None:
    """A test per card: each card with abilities is named by a test here (its id in the
    test's name); the others are exactly the cards with no ability."""
    named_here = " ".join(name for name in globals() if name.startswith("test_"))
    assert {c.id for c in DB.cards if not c.abilities} == NO_ABILITY
    missing = [
        card.id
        for card in DB.cards
        if card.abilities and not re.search(rf"\btest_{card.id.replace('-', '_')}_", named_here)
    ]
    assert missing == []
    assert sum(1 for c in DB.cards if c.abilities) == 45


def test_its_over_9000_on_a_lone_character_gives_it_the_900_too() -> None:
    """rules.md choice 25 and the card's text (rules.md line 470: "Raise target character's
    level by 2. It gets +900 attack until end of turn."): with one character in play the
    target is taken without asking, and "it" is still that character."""
    t = Table(["its-over-9000", "saiyan-elite"])
    st = t.state
    t.pylons(4)
    elite = t.play("saiyan-elite")
    t.play("its-over-9000")
    assert st.ask() is None
    assert st.level(elite) == 6 and stats(t, elite) == (2250 + 900, 1800)
    t.end()
    assert st.level(elite) == 6 and stats(t, elite) == (2250, 1800)


def test_a_condition_is_read_when_its_ability_fires() -> None:
    """rules.md choice 26 (docs/abilities.md, "Conditions": every key holds "when the ability
    would fire"). The Overlard is read here as "At the start of your turn: you lose 500 Power
    Level"; it came into play first, so it resolves before the Saiyan Scout. The Scout's "if
    your Power Level is less than 9000" was read as the turn began, at 9000: no level that
    turn; the next turn begins at 8500, and it levels up."""
    t = Table(["overlard", "saiyan-scout"])
    st = t.state
    book = st._book
    kind = DB.index["overlard"]
    (gain,) = book.abilities[kind]
    lose = Effect("damage", amount=500, target=Selector(ref="you"))
    patched = list(book.abilities)
    patched[kind] = (dataclasses.replace(gain, effects=(lose,)),)
    st._book = dataclasses.replace(book, abilities=tuple(patched))  # this state's only
    t.play("overlard")
    scout = t.play("saiyan-scout")
    t.to_turn(3)
    assert st.power(0) == 8500 and st.level(scout) == 2
    t.to_turn(5)
    assert st.power(0) == 8000 and st.level(scout) == 3
