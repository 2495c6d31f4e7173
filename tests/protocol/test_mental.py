"""The mental-poker peer: who learns which card, beacons, sealing, fair and hiding shuffles."""

import dataclasses
import math
from collections import Counter
from itertools import permutations

import pytest

from protocol.audit import audit
from protocol.beacon import unbiased_below
from protocol.curve import hash_to_point
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.inprocess import make_peers, run_everywhere
from protocol.mental import MaskedPile, MentalPeer, SealedKey
from protocol.sealed import open_sealed

POINTS = [hash_to_point("test", "card", i) for i in range(12)]


def shuffled(
    num_seats: int, points: list[bytes] = POINTS
) -> tuple[list[MentalPeer], object, list[int]]:
    peers, bus = make_peers(num_seats, points)
    step = run_everywhere(bus, lambda p: p.shuffle(points))[0]
    return peers, bus, peers[0].shuffled_cards(step)


def reveal(bus: object, card: int, viewers: set[int]) -> None:
    run_everywhere(bus, lambda p: p.reveal(card, viewers))  # type: ignore[arg-type]


def test_a_card_revealed_to_one_seat_is_known_to_it_alone() -> None:
    peers, bus, cards = shuffled(4)
    reveal(bus, cards[0], {2})
    seen = [p.card_of(cards[0]) for p in peers]
    assert seen[2] is not None and seen[:2] + seen[3:] == [None, None, None]
    assert all(p.card_of(cards[1]) is None for p in peers)  # other cards stay locked


def test_hand_over_then_public_reveal() -> None:
    peers, bus, cards = shuffled(3)
    reveal(bus, cards[5], {0})  # dealt to seat 0
    reveal(bus, cards[5], {1})  # stolen by seat 1: seat 0 hands its last key over, sealed
    assert [p.card_of(cards[5]) is not None for p in peers] == [True, True, False]
    sealed = [m for _, m in peers[2].log if isinstance(m, SealedKey)]
    assert len(sealed) == 1 and sealed[0].reader == 1
    reveal(bus, cards[5], {0, 1, 2})
    assert len({p.card_of(cards[5]) for p in peers}) == 1
    assert peers[2].card_of(cards[5]) is not None


def test_reveal_to_two_seats_keeps_the_third_out() -> None:
    peers, bus, cards = shuffled(3)
    reveal(bus, cards[3], {0, 2})
    assert [p.card_of(cards[3]) is not None for p in peers] == [True, False, True]


def test_a_sealed_key_opens_only_for_its_reader() -> None:
    peers, bus, cards = shuffled(3)
    reveal(bus, cards[0], {0})
    reveal(bus, cards[0], {1})
    m = next(m for _, m in peers[2].log if isinstance(m, SealedKey))
    from protocol.commitments import canonical

    header = canonical(["sealed-key", m.step, m.card, 0, 1])
    eavesdropper = peers[2]
    with pytest.raises(RemoteProtocolError, match="does not decrypt"):
        open_sealed(
            eavesdropper._encryption_key, eavesdropper.encryption_keys[0], eavesdropper.table_id,
            0, 1, m.step, m.sealed, header,
        )  # fmt: skip


def test_beacon_agrees_everywhere_and_stays_in_range() -> None:
    peers, bus = make_peers(3, POINTS)
    values = set()
    for _ in range(10):
        step = run_everywhere(bus, lambda p: p.beacon(6))[0]
        got = {p.beacon_value(step) for p in peers}
        assert len(got) == 1
        values |= got
    assert values <= set(range(6))


def test_unbiased_below_is_uniform() -> None:
    counts = Counter(unbiased_below(3, i.to_bytes(4, "big")) for i in range(30_000))
    assert set(counts) == {0, 1, 2}
    assert all(abs(c - 10_000) < 600 for c in counts.values())


def test_an_observer_cannot_tell_which_slot_holds_which_card() -> None:
    # Four copies of one card and eight others: an observer storing every message sees
    # no ciphertext twice and no card point in clear, so equal cards do not show.
    points = [hash_to_point("test", "same", i) for i in range(4)] + POINTS[:8]
    peers, _bus, cards = shuffled(3, points)
    observed = [c for _, m in peers[0].log if isinstance(m, MaskedPile) for c in m.cards]
    assert len(observed) == len(set(observed)) == 6 * len(points)
    assert not set(observed) & set(points)
    final = [peers[0].cards[c].cipher for c in cards]
    assert len(set(final)) == len(points)


def chi_square_survival(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with an odd number of degrees of freedom."""
    assert df % 2 == 1
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * i + 1)
    return total


def test_shuffles_are_uniform() -> None:
    # 360 real three-seat shuffles of three cards, each then revealed to all: each of the
    # six orders should come up 60 times. The threshold is the chi-square value an honest
    # shuffle exceeds less than once in a million runs (5 degrees of freedom).
    points = POINTS[:3]
    peers, bus = make_peers(3, points)
    orders: Counter[tuple[int, ...]] = Counter()
    trials = 360
    for _ in range(trials):
        step = run_everywhere(bus, lambda p: p.shuffle(points))[0]
        cards = peers[0].shuffled_cards(step)
        for card in cards:
            reveal(bus, card, {0, 1, 2})
        orders[tuple(peers[1].card_of(c) or 0 for c in cards)] += 1
    assert set(orders) == set(permutations(range(3)))
    expected = trials / 6
    chi2 = sum((orders[o] - expected) ** 2 / expected for o in permutations(range(3)))
    threshold = next(x / 10 for x in range(1, 1000) if chi_square_survival(x / 10, 5) < 1e-6)
    assert 30 < threshold < 40  # sanity of the survival function: about 35.9 for df = 5
    assert chi2 < threshold


def test_honest_disclosure_passes_the_audit() -> None:
    peers, bus, cards = shuffled(3)
    reveal(bus, cards[0], {1})
    run_everywhere(bus, lambda p: p.beacon(4))
    run_everywhere(bus, lambda p: p.disclose())
    for p in peers:
        assert audit(p.log, p.table_id, 3, p.encryption_keys) == []


def test_an_own_deck_stays_hidden_until_shown_and_its_decklist_is_audited() -> None:
    deck = POINTS[:6]
    peers, bus = make_peers(3, POINTS)
    step = run_everywhere(bus, lambda p: p.shuffle_own_deck(1, 6, deck if p.seat == 1 else ()))[0]
    cards = peers[0].shuffled_cards(step)
    # The others never saw the decklist: no plain card point in anything they received.
    received = {c for _, m in peers[0].log if isinstance(m, MaskedPile) for c in m.cards}
    assert not received & set(POINTS)
    reveal(bus, cards[0], {1})  # the owner draws
    assert [p.card_of(cards[0]) is not None for p in peers] == [False, True, False]
    reveal(bus, cards[0], {0, 1, 2})  # and plays it
    assert peers[0].card_of(cards[0]) in range(6)
    run_everywhere(bus, lambda p: p.disclose())
    for p in peers:
        assert audit(p.log, p.table_id, 3, p.encryption_keys) == []


def test_an_owner_that_masks_another_deck_than_it_committed_to_is_named() -> None:
    peers, bus = make_peers(2, POINTS)
    honest_deck, other_deck = POINTS[:4], POINTS[4:8]
    peers[1]._start_shuffle((), 4, 1, tuple(honest_deck))  # commits to honest_deck...
    peers[0].shuffle_own_deck(1, 4)
    secret = peers[1]._shuffle_secrets[0]
    # ...but masks other_deck: swap the deck it works from, keeping its commitment.
    peers[1]._shuffle_secrets[0] = dataclasses.replace(secret, deck=tuple(other_deck))
    while bus.deliver():  # move the messages until the shuffle is done
        pass
    peers[1]._shuffle_secrets[0] = secret  # and discloses the committed one
    run_everywhere(bus, lambda p: p.disclose())
    faults = audit(peers[0].log, peers[0].table_id, 2, peers[0].encryption_keys)
    assert any(f.seat == 1 and "does not follow from its secrets" in f.reason for f in faults)


def _own_deck_looked_at(n: int) -> tuple[list[MentalPeer], object, list[int]]:
    """Seat 1's own deck of six, its top `n` cards revealed to it alone (a Loot)."""
    peers, bus = make_peers(3, POINTS)
    deck = POINTS[:6]
    step = run_everywhere(bus, lambda p: p.shuffle_own_deck(1, 6, deck if p.seat == 1 else ()))[0]
    cards = peers[0].shuffled_cards(step)
    top = cards[-n:][::-1]  # top first
    for card in top:
        reveal(bus, card, {1})
    return peers, bus, top


def test_a_private_reorder_keeps_new_places_unlinkable_and_passes_the_audit() -> None:
    """Issue 16: the owner puts the cards it looked at back in its own order, each masked
    afresh by it alone; the others see new ciphertexts they cannot match to the old ones,
    a card drawn from the new order is the one the owner chose, and the audit agrees."""
    peers, bus, top = _own_deck_looked_at(3)
    seen = [peers[1].card_of(c) for c in top]
    order = (2, 0, 1)  # the old third card now on top
    step = run_everywhere(bus, lambda p: p.relock(1, top, order if p.seat == 1 else None))[0]
    new = peers[0].shuffled_cards(step)
    assert [peers[1].card_of(c) for c in new] == [seen[i] for i in order]
    old_ciphers = {peers[0].cards[c].cipher for c in top}
    assert not old_ciphers & {peers[0].cards[c].cipher for c in new}
    assert [peers[0].card_of(c) for c in new] == [None, None, None]
    reveal(bus, new[0], {0, 1, 2})  # drawn and played: the owner's one key opens it
    assert [p.card_of(new[0]) for p in peers] == [seen[2]] * 3
    run_everywhere(bus, lambda p: p.disclose())
    for p in peers:
        assert audit(p.log, p.table_id, 3, p.encryption_keys) == []


def test_a_reorder_that_swaps_in_another_card_names_the_owner() -> None:
    """Issue 16's cheat: a Loot reorder that swapped in a card the owner never took."""
    peers, bus, top = _own_deck_looked_at(2)
    owner = peers[1]
    kept = owner.cards[top[0]].point
    owner.cards[top[0]].point = POINTS[6]  # not in the deck at all
    run_everywhere(bus, lambda p: p.relock(1, top, (0, 1) if p.seat == 1 else None))
    owner.cards[top[0]].point = kept
    run_everywhere(bus, lambda p: p.disclose())
    for p in peers:
        faults = audit(p.log, p.table_id, 3, p.encryption_keys)
        assert [(f.seat, "a swap" in f.reason) for f in faults] == [(1, True)]


def test_only_the_owner_who_saw_the_cards_may_relock_them() -> None:
    peers, _, top = _own_deck_looked_at(2)
    with pytest.raises(LocalProtocolError, match="only the owner"):
        peers[0].relock(1, top, (1, 0))
    with pytest.raises(LocalProtocolError, match="cards it has seen"):
        peers[0].relock(0, top, (1, 0))


@pytest.mark.parametrize("swap", [False, True])
def test_a_re_deal_must_be_the_cards_it_replaces(swap: bool) -> None:
    """Issue 16: a deck searched or shuffled into is dealt afresh from the cards its owner
    knows it holds (in any order); committing to another card is named at the audit."""
    peers, bus, top = _own_deck_looked_at(6)  # the owner has seen its whole deck
    held = [peers[1].cards[c].point for c in reversed(top)]
    dealt = [*held[1:], POINTS[7]] if swap else held
    run_everywhere(
        bus,
        lambda p: p.shuffle_own_deck(1, 6, dealt if p.seat == 1 else (), replacing=top),  # type: ignore[arg-type]
    )
    run_everywhere(bus, lambda p: p.disclose())
    for p in peers:
        faults = audit(p.log, p.table_id, 3, p.encryption_keys)
        assert [(f.seat, "re-dealt" in f.reason) for f in faults] == ([(1, True)] if swap else [])
