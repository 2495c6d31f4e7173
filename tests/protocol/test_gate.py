"""Admission of connections that have proved nothing yet (protocol.gate), without sockets."""

from protocol.gate import MAX_ADDRESSES, StrangerGate


def test_a_full_address_makes_room_by_closing_its_own_oldest() -> None:
    gate: StrangerGate[str] = StrangerGate(total=10, per_address=2, rate=100, burst=100)
    assert gate.arrive("a", "a1", 0.0, False) == (True, [])
    assert gate.arrive("b", "b1", 0.0, False) == (True, [])
    assert gate.arrive("a", "a2", 0.0, False) == (True, [])
    assert gate.arrive("a", "a3", 0.0, False) == (True, ["a1"])  # not b's
    assert gate.waiting == 3


def test_a_full_gate_closes_the_oldest_so_idle_connections_cannot_lock_players_out() -> None:
    gate: StrangerGate[int] = StrangerGate(total=3, per_address=3, rate=100, burst=100)
    for n in range(3):
        gate.arrive("flooder", n, 0.0, False)
    admitted, evicted = gate.arrive("player", 99, 0.1, False)
    assert admitted and evicted == [0]
    gate.leave(99)  # the player proved itself
    assert gate.waiting == 2


def test_new_connections_are_rate_limited_unless_from_a_seat() -> None:
    gate: StrangerGate[int] = StrangerGate(rate=2, burst=3)
    took = [gate.arrive("x", n, 0.0, False)[0] for n in range(5)]
    assert took == [True, True, True, False, False]
    assert gate.arrive("x", 10, 0.5, False)[0]  # half a second: one more token
    assert not gate.arrive("x", 11, 0.5, False)[0]
    assert all(gate.arrive("seat", 20 + n, 0.5, True)[0] for n in range(10))  # known
    assert gate.refused == 3


def test_refusals_are_logged_at_most_once_per_address_per_quiet_spell() -> None:
    gate: StrangerGate[int] = StrangerGate(quiet=10)
    assert gate.log_now("x", 0.0) == 0
    assert gate.log_now("x", 1.0) is None
    assert gate.log_now("x", 2.0) is None
    assert gate.log_now("y", 2.0) == 0
    assert gate.log_now("x", 11.0) == 2  # the two it kept quiet about


def test_it_remembers_a_bounded_number_of_addresses() -> None:
    gate: StrangerGate[int] = StrangerGate()
    gate.arrive("kept", 0, 0.0, False)  # open: never forgotten
    for n in range(MAX_ADDRESSES + 100):
        gate.arrive(f"10.0.{n // 256}.{n % 256}", n + 1, 0.0, False)
        gate.leave(n + 1)
    assert len(gate._addresses) <= MAX_ADDRESSES
    assert "kept" in gate._addresses
