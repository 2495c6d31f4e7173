"""Positions for the agent tests, built through the public API with chosen deals.

Each is played from the draft by the rules (the rules tests' helpers), so a position is
reachable in a real game, not assembled by hand.
"""

from rpg_helpers import attack, end_turn, pass_until, setup

from p2pcards import games
from p2pcards.engine import State
from p2pcards.games.rpg_battle import RpgBattleState
from p2pcards.games.rpg_battle.actions import Pick
from p2pcards.zones import Deal

GAME = games.load("rpg-battle")


def two_seat_position(hand0: list[str], hand1: list[str]) -> RpgBattleState:
    """Seat 0 drafts Vex, Kalen, Anya; seat 1 Sera, Gideon, Mystra; hands as given."""
    state = GAME.new_initial_state(2)
    for name in ("vex", "sera", "kalen", "gideon", "anya", "mystra"):
        state.apply_action(Pick(name))
    for card in hand0 + hand1:
        state.apply_action(Deal(card))
    return state


def last_stand(attacker_draws: list[str], defender_draw: str) -> State:
    """Seat 0 (Vex, Kalen, Thorne) with Vex to act; seat 1 has only Sybil left, at 8 HP.

    So Vex's Attack II (STR 4 x 2) would knock her out, Kalen's or Thorne's (STR 3 x 2) not.
    Seat 0 drew `attacker_draws` (three cards) at its last refill, seat 1 `defender_draw`;
    the rest of either hand is Revive, which seat 0 cannot play.
    """
    state = setup(
        [["vex", "kalen", "thorne"], ["gideon", "mystra", "sybil"]],
        {0: ["attack-iii", "attack-iii", "attack-iii"]},
    )
    attack(state, "attack-iii", "gideon")  # Vex, STR 4: 12 damage, Gideon 17 -> 5
    attack(state, "attack-iii", "gideon")  # Kalen, STR 3: KO
    attack(state, "attack-iii", "mystra")  # Thorne, STR 3: 9 damage, Mystra 17 -> 8
    end_turn(state, refill=True, draws=["attack-iii", "attack-iii", "attack-ii"])
    end_turn(state)  # seat 1 passes
    attack(state, "attack-iii", "mystra")  # Vex: 12, KO
    attack(state, "attack-iii", "sybil")  # Kalen: 9, Sybil 23 -> 14
    attack(state, "attack-ii", "sybil")  # Thorne: 6, Sybil -> 8
    end_turn(state, refill=True, draws=attacker_draws)
    end_turn(state, draws=[defender_draw])  # seat 1 passes again
    return state


def wounded_vex(vex_hit_by: str, mystra_hit: bool) -> State:
    """Seat 0 (Vex, Kalen, Anya) in its second turn, Anya to act with Heal III and Attack III.

    In the first round Vex may have hit Mystra with Attack III (17 -> 5), and seat 1's
    Gideon hit Vex with `vex_hit_by` (Attack III: 13 -> 1; Attack: 13 -> 9). Only Vex is
    wounded on seat 0's side.
    """
    state = setup(
        [["vex", "kalen", "anya"], ["sera", "gideon", "mystra"]],
        {0: ["attack-iii", "heal-iii"], 1: [vex_hit_by]},
    )
    if mystra_hit:
        attack(state, "attack-iii", "mystra")
    end_turn(state, draws=["attack-iii"])
    pass_until(state, "gideon")
    attack(state, vex_hit_by, "vex")
    end_turn(state)
    pass_until(state, "anya")
    return state
