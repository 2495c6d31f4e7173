"""Curve25519 points for cards, and commutative masks made with X25519.

A card is a point of the prime-order subgroup, written as its 32-byte
Montgomery u-coordinate. Masking a card is scalar multiplication, which
`cryptography`'s X25519 `exchange()` computes for any point: so masks by
different seats commute and come off in any order.

Card points come from hashing to the curve (Elligator 2) and then one fixed
clamped multiplication that clears the cofactor. Nobody knows the discrete log
of one card point to another; with points like i*G anyone could unmask by
trying small multiples.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import overload

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from protocol.errors import BadPointError

P = 2**255 - 19
"""The field prime."""
A = 486662
"""The Montgomery coefficient of Curve25519: v^2 = u^3 + A u^2 + u."""
ORDER = 2**252 + 27742317777372353535851937790883648493
"""ℓ, the order of the prime-order subgroup."""

_Z = 2  # Elligator 2's non-square for this field (RFC 9380, curve25519_XMD:SHA-512_ELL2_RO_)
_COFACTOR_CLEARING_KEY = (8 * 0x1234567).to_bytes(32, "little")
# Any multiple of 8 clears the cofactor; X25519 clamps it into [2^254, 2^255).

Point = bytes
"""A point as 32 little-endian bytes of its u-coordinate."""


# The u-coordinates of the points of small order on Curve25519 and its twist (orders
# 1, 2, 4 and 8), canonically encoded. Multiplying one by a clamped scalar gives the
# all-zero point, which `cryptography` refuses: the seat that multiplies would fail on
# a point a peer sent. So they are refused on arrival, naming the sender.
_SMALL_ORDER = frozenset(
    {
        0,
        1,
        P - 1,
        325606250916557431795983626356110631294008115727848805560023387167927233504,
        39382357235489614581723060781553021112529911719440698176882885853963445705823,
    }
)


def _is_square(x: int) -> bool:
    return x == 0 or pow(x, (P - 1) // 2, P) == 1


def elligator2(r: int) -> int:
    """Map a field element to the u-coordinate of a curve point (RFC 9380 §6.7.1)."""
    denominator = (1 + _Z * r * r) % P
    # pow(d, -1, P) inverts by Euclid's algorithm, a tenth of the cost of pow(d, P - 2, P).
    x1 = (P - A) if denominator == 0 else (-A * pow(denominator, -1, P)) % P
    gx1 = (x1 * x1 * x1 + A * x1 * x1 + x1) % P
    return x1 if _is_square(gx1) else (-x1 - A) % P


def _u_bytes(u: int) -> Point:
    return u.to_bytes(32, "little")


def check_point(point: Point) -> Point:
    """Refuse anything but 32 bytes canonically encoding a non-zero u-coordinate.

    Whether u lies on the curve or on its twist is not checked here: that costs a
    255-bit exponentiation (137 µs, more than the masking itself), and Curve25519
    is twist-secure, so a twist point leaks nothing of our scalars. A point that is
    not a card is caught when it is unmasked, and its author named by the audit.
    Points of small order are refused here, before anyone multiplies them.
    """
    if not isinstance(point, bytes) or len(point) != 32:
        raise BadPointError("a point must be 32 bytes")
    u = int.from_bytes(point, "little")
    if u >= P:  # also refuses a set top bit, which X25519 would silently ignore
        raise BadPointError("point encoding is not canonical")
    if u in _SMALL_ORDER:
        raise BadPointError("a point of small order")
    return point


def on_curve(point: Point) -> bool:
    """Whether a canonical u-coordinate is on Curve25519 itself (not its twist)."""
    u = int.from_bytes(point, "little")
    return _is_square((u * u * u + A * u * u + u) % P)


@functools.lru_cache(maxsize=2048)
def _private_key(scalar: bytes) -> X25519PrivateKey:
    # Making the key object derives its public key: a scalar multiplication as dear as
    # the exchange itself. A pile mask multiplies a whole pile, and every card key is
    # used again when its card is shown, so each scalar's key object is made once.
    return X25519PrivateKey.from_private_bytes(scalar)


def _multiply(scalar: bytes, point: Point) -> Point:
    try:
        return _private_key(scalar).exchange(X25519PublicKey.from_public_bytes(point))
    except ValueError as exc:  # cryptography refuses an all-zero (low-order) result
        raise BadPointError("multiplication gave a low-order point") from exc


def hash_to_point(*parts: str | int) -> Point:
    """A point nobody knows the discrete log of, derived from the given labels."""
    label = "\x1f".join(str(p) for p in parts)
    counter = 0
    while True:
        digest = hashlib.sha256(f"p2pcards/card/{counter}\x1e{label}".encode()).digest()
        u = elligator2(int.from_bytes(digest, "little") % P)
        try:
            return _multiply(_COFACTOR_CLEARING_KEY, _u_bytes(u))
        except BadPointError:
            counter += 1  # Elligator hit a low-order point: vanishingly rare, try the next


class CardPoints(Sequence[Point]):
    """The point of every physical card of a game, in the order of its card universe: the
    i-th copy of a card is `hash_to_point(game, card, i)`.

    Each point is hashed the first time it is needed, since a game of own decks with copies
    unlimited has a universe of thousands (RPG Get!: 148 cards × 80 copies) and a seat needs
    a few hundred of them: a hash costs about 0.3 ms, and hashing them all took most of a
    seat's set-up. Finding the card behind a point hashes, until it is found, the next copy
    of each card it is expected to be (`expect`: the cards an action names), then the next
    copy of every card at once (every card's first copy, then every second copy, ...): decks
    hold few copies of a card, so the search stops early; a point that is no card is known
    for one only once every point has been hashed, as before.
    """

    def __init__(self, game: str, cards: Sequence[str]) -> None:
        self._game = game
        self._labels: list[tuple[str, int]] = []
        copies: dict[str, int] = {}
        self._by_copy: list[list[int]] = []  # copy number -> the indices of that copy
        self._of_card: dict[str, list[int]] = {}  # card -> the indices of its copies
        for index, card in enumerate(cards):
            copy = copies.get(card, 0)
            copies[card] = copy + 1
            self._labels.append((card, copy))
            self._of_card.setdefault(card, []).append(index)
            if copy == len(self._by_copy):
                self._by_copy.append([])
            self._by_copy[copy].append(index)
        self._points: list[Point | None] = [None] * len(cards)
        self._index: dict[Point, int] = {}
        self._searched = 0  # copy numbers whose every point is hashed
        self._expected: list[list[int]] = []  # the copies of the cards points to come may be

    @classmethod
    def given(cls, points: Sequence[Point]) -> CardPoints:
        """A table of points already made (a test's own cards)."""
        table = cls("", [f"{i}" for i in range(len(points))])
        for index, point in enumerate(points):
            table._points[index] = point
            table._index[point] = index
        table._searched = len(table._by_copy)
        return table

    def __len__(self) -> int:
        return len(self._points)

    @overload
    def __getitem__(self, index: int) -> Point: ...

    @overload
    def __getitem__(self, index: slice) -> list[Point]: ...

    def __getitem__(self, index: int | slice) -> Point | list[Point]:
        if isinstance(index, slice):
            return [self._point(i) for i in range(*index.indices(len(self)))]
        return self._point(index)

    def _point(self, index: int) -> Point:
        point = self._points[index]
        if point is None:
            card, copy = self._labels[index]
            point = hash_to_point(self._game, card, copy)
            self._points[index] = point
            self._index[point] = index
        return point

    def expect(self, cards: Iterable[str]) -> None:
        """Say which cards the points looked up next are likely to be (the cards a seat names
        as it shows them; none: forget them): their copies are hashed first. Without it, a
        seat shown another seat's eighth copy of a card hashed every card's first eight
        copies at once, 30 ms of CPU in the middle of a step."""
        self._expected = [self._of_card[c] for c in dict.fromkeys(cards) if c in self._of_card]

    def index_of(self, point: Point) -> int | None:
        """The index of the card whose point this is, None for a point that is no card."""
        index = self._index.get(point)
        copy = 0
        while index is None and any(copy < len(copies) for copies in self._expected):
            for copies in self._expected:
                if copy < len(copies) and self._point(copies[copy]) == point:
                    index = copies[copy]
                    break
            copy += 1
        while index is None and self._searched < len(self._by_copy):
            for i in self._by_copy[self._searched]:
                self._point(i)
            self._searched += 1
            index = self._index.get(point)
        return index


@dataclass(frozen=True, slots=True)
class Mask:
    """A secret scalar a (a clamped X25519 key) whose inverse mod ℓ is a clamped key too."""

    forward: bytes
    inverse: bytes

    @staticmethod
    def random() -> Mask:
        """A fresh mask from `secrets`; about half the candidates have a clamped inverse."""
        while True:
            mask = Mask.from_scalar(int.from_bytes(secrets.token_bytes(32), "little"))
            if mask is not None:
                return mask

    @staticmethod
    def many(count: int) -> list[Mask]:
        """`count` fresh masks, drawn like `random()`, with all their inverses from one
        modular inversion (Montgomery's trick): an inversion costs 15 µs, about what
        the multiplications that use the mask cost, while a product mod ℓ is 0.2 µs."""
        masks: list[Mask] = []
        while len(masks) < count:
            tries = 2 * (count - len(masks)) + 4  # about half the candidates qualify
            scalars = [
                clamp(int.from_bytes(secrets.token_bytes(32), "little")) for _ in range(tries)
            ]
            for a, inverse in zip(scalars, _inverses(scalars), strict=True):
                clamped = clamped_representative(inverse)
                if clamped is not None and len(masks) < count:
                    masks.append(Mask(a.to_bytes(32, "little"), clamped.to_bytes(32, "little")))
        return masks

    @staticmethod
    def from_scalar(raw: int) -> Mask | None:
        """The mask for `raw` (clamped first), or None when its inverse cannot be clamped."""
        a = clamp(raw)
        inverse = clamped_representative(pow(a, -1, ORDER))
        if inverse is None:
            return None
        return Mask(a.to_bytes(32, "little"), inverse.to_bytes(32, "little"))

    @staticmethod
    def from_bytes(forward: bytes) -> Mask:
        """Rebuild a revealed mask from its forward scalar, checking it is a valid one."""
        if not isinstance(forward, bytes) or len(forward) != 32:
            raise BadPointError("a mask is 32 bytes")
        return _mask_from_forward(forward)

    def apply(self, point: Point) -> Point:
        """a·P: add this layer."""
        return _multiply(self.forward, point)

    def remove(self, point: Point) -> Point:
        """a⁻¹·P: take this layer off."""
        return _multiply(self.inverse, point)


def unmask(point: Point, masks: Sequence[Mask]) -> Point:
    """Take every one of `masks` off `point`, in as few multiplications as it can.

    One multiplication by the product of the inverses when that product has a clamped
    representative (about half the time); otherwise one layer comes off alone and the
    rest together, trying each layer in turn; sequentially as a last resort. Every
    seat unmasks each card it sees through a layer per seat: at 4 seats this halves
    the cost of showing a card.
    """
    inverses = [int.from_bytes(m.inverse, "little") for m in masks]
    product = 1
    for value in inverses:
        product = product * value % ORDER
    whole = clamped_representative(product)
    if whole is not None:
        return _multiply(whole.to_bytes(32, "little"), point)
    for mask in masks:
        rest = product * int.from_bytes(mask.forward, "little") % ORDER
        together = clamped_representative(rest)
        if together is not None:
            return _multiply(together.to_bytes(32, "little"), mask.remove(point))
    for mask in masks:
        point = mask.remove(point)
    return point


@functools.lru_cache(maxsize=2048)
def _mask_from_forward(forward: bytes) -> Mask:
    # A card key is checked when it arrives and used again when the card is unmasked:
    # its inverse (a modular inversion) is worked out once.
    a = int.from_bytes(forward, "little")
    mask = Mask.from_scalar(a)
    if mask is None or clamp(a) != a:
        raise BadPointError("not a valid mask scalar")
    return mask


def _inverses(values: list[int]) -> list[int]:
    """Each value's inverse mod ℓ (none may be 0 mod ℓ), with a single inversion."""
    prefix = []
    product = 1
    for v in values:
        prefix.append(product)
        product = product * v % ORDER
    inverse = pow(product, -1, ORDER)
    out = [0] * len(values)
    for i in range(len(values) - 1, -1, -1):
        out[i] = inverse * prefix[i] % ORDER
        inverse = inverse * values[i] % ORDER
    return out


def clamp(k: int) -> int:
    """X25519's clamping: a multiple of 8 in [2^254, 2^255)."""
    k &= (1 << 255) - 8
    return k | (1 << 254)


def clamped_representative(residue: int) -> int | None:
    """The clamped integer congruent to `residue` mod ℓ, if there is one.

    Clamped means ≡ 0 mod 8 and in [2^254, 2^255). Such x ≡ residue (mod ℓ) and
    ≡ 0 (mod 8) are the numbers x0 + 8ℓ·j; 8ℓ is just over 2^255, so at most
    one of them lies in the range.
    """
    x0 = (residue * _EIGHT_INVERSE_EIGHT) % _EIGHT_ORDER
    for x in (x0, x0 + _EIGHT_ORDER):
        if (1 << 254) <= x < (1 << 255):
            return x
    return None


_EIGHT_ORDER = 8 * ORDER
_EIGHT_INVERSE_EIGHT = 8 * pow(8, -1, ORDER)  # ≡ 1 mod ℓ and ≡ 0 mod 8
