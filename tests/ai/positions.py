"""Positions for the agent tests, built through the public API with chosen deals."""

from p2pcards import games
from p2pcards.games.rpg_battle import RpgBattleState
from p2pcards.games.rpg_battle.actions import Deal, Pick

GAME = games.load("rpg-battle")


def two_seat_position(hand0: list[str], hand1: list[str]) -> RpgBattleState:
    """Seat 0 drafts Vex, Kalen, Anya; seat 1 Sera, Gideon, Mystra; hands as given."""
    state = GAME.new_initial_state(2)
    for name in ("vex", "sera", "kalen", "gideon", "anya", "mystra"):
        state.apply_action(Pick(name))
    for card in hand0 + hand1:
        state.apply_action(Deal(card))
    return state
