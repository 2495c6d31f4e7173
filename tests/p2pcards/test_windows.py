"""Response windows (p2pcards/windows.py) against DESIGN.md §10: "A window opens by a public
rule ... It asks the seats in a stated order; each acts or passes; an act may open a nested
window that resolves first (a stack: last in, first resolved); a window closes once every
seat still in the game has passed in a row." And §3: a seat is asked whenever it could act
as far as the others know."""

from __future__ import annotations

import random

import pytest

from p2pcards.errors import IllegalActionError
from p2pcards.seats import everyone, left_of, seats_from
from p2pcards.windows import MAX_DEPTH, Window, WindowFormatError, Windows

ALL4 = everyone(4)


def anyone(seat: int) -> bool:
    return True


def settle(windows: Windows, live: int = ALL4) -> tuple[Windows, Window | None]:
    return windows.settle(live, anyone)


def pass_all(windows: Windows, live: int = ALL4) -> tuple[list[int], Windows, Window]:
    """Pass with every seat asked until the innermost window closes: the seats asked, the
    windows left, the window closed."""
    asked = []
    while True:
        windows, closed = settle(windows, live)
        if closed is not None:
            return asked, windows, closed
        asked.append(windows.asked)
        windows = windows.passed(windows.asked)


def asked_in_turn(windows: Windows, live: int = ALL4) -> list[int]:
    """The seats asked, in order, until the innermost window closes with every seat passing."""
    return pass_all(windows, live)[0]


def test_a_window_asks_its_order_and_closes_when_every_seat_has_passed() -> None:
    """Stated order, one pass each, closed after the last: as many asks as seats."""
    windows = Windows().open(7, 12, seats_from(2, 4))
    assert asked_in_turn(windows) == [2, 3, 0, 1]
    windows, closed = settle(windows)
    assert closed is None and windows.asked == 2


def test_the_closed_window_comes_back_with_its_reason_and_subject() -> None:
    windows = Windows().open(7, 12, (0,))
    windows, closed = settle(windows)
    windows, closed = settle(windows.passed(0))
    assert closed == Window(7, 12, (0,), 0, 1)
    assert not windows


def test_an_act_makes_every_seat_pass_again_the_actor_last() -> None:
    """DESIGN §10: "closes once every seat still in the game has passed in a row": a pass
    before an act does not count after it."""
    windows, _ = settle(Windows().open(0, 0, seats_from(0, 4)))
    windows, _ = settle(windows.passed(0))
    windows, _ = settle(windows.passed(1))
    assert windows.asked == 2
    windows = windows.acted(2)
    assert asked_in_turn(windows) == [3, 0, 1, 2]


def test_a_nested_window_resolves_first_then_the_outer_one_goes_on() -> None:
    """An act opens a window that is answered and closed before the one under it asks on."""
    outer, _ = settle(Windows().open(0, 100, seats_from(1, 3)))
    assert outer.asked == 1
    nested = outer.acted(1).open(1, 101, seats_from(2, 3))
    assert len(nested) == 2
    asked, after, closed = pass_all(nested, everyone(3))
    assert asked == [2, 0, 1] and closed.subject == 101
    assert len(after) == 1 and after.top.subject == 100
    # The outer window asks on from the seat after the one that acted, everyone again.
    assert asked_in_turn(after, everyone(3)) == [2, 0, 1]


def test_seats_out_of_the_game_are_skipped_and_not_waited_for() -> None:
    """DESIGN §10: "every seat still in the game": seat 1 is out, so it is never asked."""
    live = ALL4 & ~(1 << 1)
    assert asked_in_turn(Windows().open(0, 0, seats_from(0, 4)), live) == [0, 2, 3]


def test_a_seat_that_leaves_mid_window_no_longer_keeps_it_open() -> None:
    windows, _ = settle(Windows().open(0, 0, seats_from(0, 3)), everyone(3))
    windows = windows.passed(0)
    windows, _ = windows.settle(everyone(3), anyone)
    windows = windows.passed(1)
    # Seat 2 goes out of the game before it is asked: seats 0 and 1 have passed, all that
    # are left, so the window closes without a word from seat 2.
    _, closed = windows.settle(0b011, anyone)
    assert closed is not None


def test_a_seat_that_could_not_act_passes_without_being_asked() -> None:
    """§3: asked whenever it *could* act as far as the others know; a seat the public facts
    rule out (no cards in hand) is not asked, and counts as having passed."""
    empty_hands = {1, 3}

    def could(seat: int) -> bool:
        return seat not in empty_hands

    windows = Windows().open(0, 0, seats_from(0, 4))
    asked = []
    while True:
        windows, closed = windows.settle(ALL4, could)
        if closed is not None:
            break
        asked.append(windows.asked)
        windows = windows.passed(windows.asked)
    assert asked == [0, 2]


def test_a_window_where_nobody_could_act_closes_at_once() -> None:
    _, closed = Windows().open(0, 5, seats_from(0, 4)).settle(ALL4, lambda seat: False)
    assert closed is not None and closed.subject == 5


def test_close_ends_the_innermost_window_at_once() -> None:
    """What a window was about can be gone (a card cancelled): the game closes it."""
    windows = Windows().open(0, 1, (0, 1)).open(1, 2, (1, 0))
    rest, closed = windows.close()
    assert closed.subject == 2 and rest.top.subject == 1


def test_only_the_asked_seat_may_answer() -> None:
    windows, _ = settle(Windows().open(0, 0, seats_from(0, 4)))
    with pytest.raises(IllegalActionError, match="asks seat 0, not seat 2"):
        windows.passed(2)
    with pytest.raises(IllegalActionError, match="asks seat 0, not seat 1"):
        windows.acted(1)
    with pytest.raises(IllegalActionError, match="no response window"):
        Windows().passed(0)


def test_an_order_names_distinct_seats_and_the_stack_has_a_limit() -> None:
    with pytest.raises(IllegalActionError):
        Windows().open(0, 0, (1, 1))
    with pytest.raises(IllegalActionError):
        Windows().open(0, 0, ())
    deep = Windows()
    for _ in range(MAX_DEPTH):
        deep = deep.open(0, 0, (0,))
    with pytest.raises(IllegalActionError, match="more than"):
        deep.open(0, 0, (0,))


def test_values_are_immutable_so_a_clone_can_share_them() -> None:
    before = Windows().open(0, 0, seats_from(0, 4))
    settled, _ = settle(before)
    after = settled.passed(0)
    assert settled.top.passed == 0 and after.top.passed == 1


def test_the_public_form_reads_back_and_the_key_is_ints() -> None:
    windows, _ = settle(Windows().open(3, 40, seats_from(2, 4)).open(1, 41, (1, 2)))
    windows = windows.passed(1)
    assert Windows.from_public(windows.public(), 4) == windows
    key = windows.key()

    def ints(value: object) -> bool:
        return isinstance(value, int) or (isinstance(value, tuple) and all(map(ints, value)))

    assert ints(key) and hash(key) == hash(Windows.from_public(windows.public(), 4).key())


@pytest.mark.parametrize(
    "data",
    [
        "windows",
        [[0, 0, [0, 1], 0]],
        [[0, 0, [0, 0], 0, 0]],
        [[0, 0, [0, 4], 0, 0]],
        [[0, 0, [], 0, 0]],
        [[0, 0, [0, 1], 2, 0]],
        [[0, 0, [0, 1], 0, 16]],
        [[True, 0, [0, 1], 0, 0]],
        [[0, "x", [0, 1], 0, 0]],
        [[0, 0, (0, 1), 0, 0]],
        [[0, 0, [0, 1], 0, 0]] * (MAX_DEPTH + 1),
    ],
)
def test_a_malformed_public_form_is_refused(data: object) -> None:
    with pytest.raises(WindowFormatError):
        Windows.from_public(data, 4)


def test_turn_order_skips_seats_out_of_the_game() -> None:
    assert seats_from(3, 5) == (3, 4, 0, 1, 2)
    assert left_of(4, 0b11111, 5) == 0
    assert left_of(4, 0b11100, 5) == 2
    assert left_of(2, 0b00100, 5) == -1


@pytest.mark.parametrize("seed", range(20))
def test_random_sessions_ask_no_seat_twice_between_acts_and_close_only_when_all_passed(
    seed: int,
) -> None:
    """Random passes, acts, nested windows, early closes and seats leaving the game, at 2 to
    6 seats: the seat asked is always in the game, in the window's order, could act and has
    not passed since the last act in its window (so no seat is asked twice between acts); a
    window closes exactly when every seat of its order still in the game has passed or could
    not act since the last act. What a seat could do changes only with an act, as public
    facts change only with what someone does."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    live = everyone(n)
    hands = [rng.random() < 0.8 for _ in range(n)]  # public: whether a seat could act

    def could(seat: int) -> bool:
        return hands[seat]

    windows = Windows().open(0, 0, seats_from(rng.randrange(n), n))
    passes: list[set[int]] = [set()]  # per open window: who passed since its last act
    for _ in range(300):
        if not windows:
            break
        top = windows.top
        windows, closed = windows.settle(live, could)
        members = {s for s in top.order if live >> s & 1}
        if closed is not None:
            assert members <= passes.pop() | {s for s in members if not could(s)}
            continue
        seat = windows.asked
        assert live >> seat & 1 and could(seat) and seat in windows.top.order
        assert seat not in passes[-1], f"seat {seat} asked again before anyone acted"
        assert not members <= passes[-1] | {s for s in members if not could(s)}
        move = rng.random()
        if move < 0.6:
            windows = windows.passed(seat)
            passes[-1].add(seat)
        elif move < 0.8:
            windows = windows.acted(seat)
            passes[-1] = set()
            hands = [rng.random() < 0.8 for _ in range(n)]
            if rng.random() < 0.7:
                windows = windows.open(1, seat, seats_from(seat + 1, n))
                passes.append(set())
        elif move < 0.9 and len(windows) > 1:
            windows, _ = windows.close()
            passes.pop()
        elif bin(live).count("1") > 1:
            live &= ~(1 << rng.choice([s for s in range(n) if live >> s & 1]))
