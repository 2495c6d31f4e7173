"""Canonical encoding and hashing of public state, one digest per section.

Replicas compare these after every action. The encoding is JSON with sorted
keys and no floats, so two replicas on any platform hash the same bytes, and a
mismatch names the section (turn, piles, board, scores) that diverged.
"""

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence

# Sequence and Mapping (not list and dict) so that a list[int] is a Canonical.
Canonical = None | bool | int | str | Sequence["Canonical"] | Mapping[str, "Canonical"]


def canonical_bytes(value: Canonical) -> bytes:
    """Encode a value made of ints, strings, lists and str-keyed maps canonically."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False).encode()


class Encoded(list[Canonical]):
    """A list section whose canonical encoding was made with it (`canonical`, the bytes
    `canonical_bytes` gives for it), so that `section_digests` hashes them as they are: a
    state that keeps the encoding of the parts of a big section that did not change (the
    zones of a zones game) pays for its changes only."""

    __slots__ = ("canonical",)

    def __init__(self, items: Iterable[Canonical], canonical: bytes) -> None:
        super().__init__(items)
        self.canonical = canonical


def section_digests(sections: Mapping[str, Canonical]) -> dict[str, str]:
    """SHA-256 hex digest of each section's canonical encoding."""
    return {
        name: hashlib.sha256(
            body.canonical if isinstance(body, Encoded) else canonical_bytes(body)
        ).hexdigest()
        for name, body in sections.items()
    }


def combined_digest(digests: Mapping[str, str]) -> str:
    """One digest over all section digests, for a quick equality check."""
    return hashlib.sha256(canonical_bytes(dict(digests))).hexdigest()
