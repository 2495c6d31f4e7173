"""Turning the seats' revealed random contributions into an unbiased integer."""

import hashlib


def unbiased_below(bound: int, seed: bytes) -> int:
    """A uniform integer in [0, bound) from a seed, by rejection sampling over a hash stream.

    Reducing one hash mod `bound` would favour small values; drawing again when the
    draw falls in the incomplete last block removes that bias exactly.
    """
    if bound < 1:
        raise ValueError("bound must be at least 1")
    limit = (1 << 256) - (1 << 256) % bound
    counter = 0
    while True:
        x = int.from_bytes(hashlib.sha256(seed + counter.to_bytes(8, "big")).digest(), "big")
        if x < limit:
            return x % bound
        counter += 1


def combine(reveals: list[bytes]) -> bytes:
    """One seed from every seat's revealed value, in seat order."""
    h = hashlib.sha256(b"p2pcards/beacon/1")
    for value in reveals:
        h.update(len(value).to_bytes(2, "big") + value)
    return h.digest()
