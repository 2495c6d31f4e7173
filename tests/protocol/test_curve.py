"""Card points and masks: distinct points, commuting masks, strict checks on what arrives."""

import pytest
from lan_helpers import in_another_interpreter

from p2pcards import games
from protocol.curve import (
    ORDER,
    CardPoints,
    Mask,
    P,
    check_point,
    clamp,
    clamped_representative,
    hash_to_point,
    on_curve,
)
from protocol.errors import BadPointError
from protocol.mental_dealer import card_points

GAME = games.load("rpg-battle")


def test_every_physical_card_has_its_own_point_and_decodes_back() -> None:
    points = card_points(GAME)
    cards = GAME.physical_cards()
    assert len(points) == len(cards) == 100
    assert len(set(points)) == 100  # copies of one card get different points
    index = {p: i for i, p in enumerate(points)}
    mask = Mask.random()
    for i, point in enumerate(points):
        assert on_curve(point)
        assert index[mask.remove(mask.apply(point))] == i  # unmasking gives back the card


def test_points_are_reproducible_across_processes() -> None:
    """Every peer hashes the cards itself: a second interpreter (another hash seed, so no
    set or dict order can leak in) must make the very same points."""
    program = (
        "from p2pcards import games; from protocol.mental_dealer import card_points; "
        "print(b''.join(card_points(games.load('rpg-battle'))).hex())"
    )
    assert bytes.fromhex(in_another_interpreter(program)) == b"".join(card_points(GAME))


def test_card_points_are_hashed_when_needed_and_found_by_copy() -> None:
    """A point is the hash of (game, card, copy) whenever it is made; finding a card's
    point hashes each copy number of every card in turn only as far as that copy."""
    universe = ["a", "b", "c"] * 2 + ["a"] * 4  # "a" has six copies, "b" and "c" two
    points = CardPoints("test", universe)
    assert points[9] == hash_to_point("test", "a", 5)  # one point, alone
    assert points.index_of(hash_to_point("test", "b", 1)) == 4
    lazy = CardPoints("test", universe)
    assert lazy.index_of(points[4]) == 4
    assert sum(p is not None for p in lazy._points) == 6  # copies 0 and 1: no "a" beyond
    assert lazy.index_of(hash_to_point("test", "d", 0)) is None  # no card: all hashed
    assert list(lazy) == [hash_to_point("test", c, universe[:i].count(c)) for i, c in
                          enumerate(universe)]  # fmt: skip
    assert lazy[2:4] == [points[2], points[3]]
    named = CardPoints("test", universe)
    named.expect(["c", "a"])  # the cards a seat names as it shows them
    assert named.index_of(points[8]) == 8  # "a", copy 4: "c" has only two
    assert sum(p is not None for p in named._points) == 7  # copies 0-4 of "a", 0-1 of "c"


def test_masks_commute_and_come_off_in_any_order() -> None:
    point = card_points(GAME)[0]
    a, b, c = Mask.random(), Mask.random(), Mask.random()
    locked = c.apply(b.apply(a.apply(point)))
    assert locked == a.apply(c.apply(b.apply(point)))
    assert b.remove(a.remove(c.remove(locked))) == point
    assert a.remove(b.remove(c.remove(locked))) == point


def test_mask_scalars_and_inverses_are_clamped_keys() -> None:
    for _ in range(20):
        mask = Mask.random()
        a = int.from_bytes(mask.forward, "little")
        b = int.from_bytes(mask.inverse, "little")
        assert clamp(a) == a and clamp(b) == b
        assert a * b % ORDER == 1


def test_about_half_of_scalars_have_a_clamped_inverse() -> None:
    found = sum(Mask.from_scalar(k * 7919 + 12345) is not None for k in range(400))
    assert 120 < found < 280


def test_clamped_representative_is_congruent_and_clamped() -> None:
    for residue in (1, 2, ORDER - 1, 123456789):
        x = clamped_representative(residue)
        if x is not None:
            assert x % ORDER == residue and clamp(x) == x


@pytest.mark.parametrize(
    "raw",
    [
        b"\x01" * 31,
        b"\x00" * 32,
        (P).to_bytes(32, "little"),
        (P + 5).to_bytes(32, "little"),
        b"\xff" * 32,
        "not bytes",
    ],
)
def test_bad_points_are_refused(raw: object) -> None:
    with pytest.raises(BadPointError):
        check_point(raw)  # type: ignore[arg-type]


def test_low_order_points_are_refused_when_masked() -> None:
    # u = 1 is a point of order 4: any clamped scalar (a multiple of 8) sends it to zero.
    with pytest.raises(BadPointError, match="low-order"):
        Mask.random().apply((1).to_bytes(32, "little"))


def test_a_revealed_mask_must_be_clamped() -> None:
    with pytest.raises(BadPointError):
        Mask.from_bytes((12345).to_bytes(32, "little"))
