"""Card points and masks: distinct points, commuting masks, strict checks on what arrives."""

import pytest
from lan_helpers import in_another_interpreter

from p2pcards import games
from protocol.curve import ORDER, Mask, P, check_point, clamp, clamped_representative, on_curve
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
