"""The person at a networked table: answers through a queue of typed lines, with a countdown."""

import asyncio

import pytest
from rpg_helpers import play_of

import cli.table as table_cli
from p2pcards import games
from p2pcards.games.rpg_battle.actions import Pass, Pick, Play, React
from p2pcards.zones import Deal

GAME = games.load("rpg-battle")


def attacked_seat_1() -> object:
    """Seat 0's Vex attacks seat 1's Sera, who holds a Dodge: seat 1 must answer."""
    state = GAME.new_initial_state(2)
    for name in ("vex", "sera", "kalen", "gideon", "anya", "mystra"):
        state.apply_action(Pick(name))
    for card in ["attack"] * 5 + ["dodge"] + ["heal"] * 4:
        state.apply_action(Deal(card))
    state.apply_action(play_of(state, "attack", "sera"))
    return state.observation(1)


def decide_with(lines: list[str | None], seconds: float) -> object:
    async def run() -> object:
        terminal = table_cli.Terminal()
        terminal._lines = asyncio.Queue()
        for line in lines:
            terminal._lines.put_nowait(line)
        return await terminal.decide(attacked_seat_1())

    table_cli.REACT_SECONDS = seconds
    try:
        return asyncio.run(run())
    finally:
        table_cli.REACT_SECONDS = 30.0


def test_an_unanswered_reaction_takes_the_hit_when_time_is_up() -> None:
    assert decide_with([], seconds=0.3) == Pass()


def test_an_answer_in_time_is_taken_after_a_bad_one() -> None:
    chosen = decide_with(["9\n", "2\n"], seconds=5)
    assert isinstance(chosen, React) and chosen.card == "dodge"


def test_the_end_of_input_leaves_the_table_with_a_reason_for_the_others() -> None:
    with pytest.raises(table_cli.LeaveTable, match="closed its input"):
        decide_with([None], seconds=5)


def test_quitting_leaves_the_table() -> None:
    with pytest.raises(table_cli.LeaveTable, match="quit"):
        decide_with(["q\n"], seconds=5)


def test_at_a_table_a_card_is_chosen_then_its_target_with_back_and_i_between(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The same menus at a LAN seat: the card, `0` back to the cards, `i N` to read a card,
    the card again, then its target."""
    state = GAME.new_initial_state(2)
    for name in ("vex", "sera", "kalen", "gideon", "anya", "mystra"):
        state.apply_action(Pick(name))
    for card in ["attack"] * 5 + ["dodge"] + ["heal"] * 4:
        state.apply_action(Deal(card))

    async def run() -> object:
        terminal = table_cli.Terminal()
        terminal._lines = asyncio.Queue()
        for line in ("2\n", "0\n", "i 1\n", "2\n", "2\n"):
            terminal._lines.put_nowait(line)
        return await terminal.decide(state.observation(0))

    chosen = asyncio.run(run())
    out = capsys.readouterr().out
    assert isinstance(chosen, Play) and chosen.card == "attack" and chosen.target is not None
    assert chosen in state.legal_actions()
    assert "Attack — choose (0 or b: back):" in out
    assert "Vex — your character" in out and "STR 4" in out
