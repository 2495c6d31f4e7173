"""A zones game keeps each zone's digest rows and their encoding while the zone is unchanged
(`ZoneState.zones_public`, `slot_rows`), and its copies share them: at every step of a game,
the digests must be those of the plain sections, encoded whole, though a copy that went
another way digested its own position meanwhile, and when the two are read in turn (each zone
keeps its newest two parts)."""

import json
import random

import pytest

from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.digest import section_digests
from p2pcards.zones import DigestParts, ZoneState


def plain_digests(state: ZoneState) -> dict[str, str]:
    """The digests of a copy that keeps nothing: every section made afresh, as plain lists."""
    fresh = state.clone()
    fresh._digest_parts = DigestParts()
    return section_digests(json.loads(json.dumps(fresh.public_sections())))


@pytest.mark.parametrize(
    ("game", "seats"), [("rpg-get", 4), ("rise-of-the-guys", 2), ("gammasphere", 2)]
)
def test_kept_zone_encodings_give_the_digests_of_the_plain_sections(game: str, seats: int) -> None:
    state = games.load(game).new_initial_state(seats)
    assert isinstance(state, ZoneState)
    dealer, rng = LocalDealer(7), random.Random(7)
    for step in range(250):
        if state.is_terminal():
            break
        plain = plain_digests(state)
        assert state.section_digests() == plain
        if step % 5 == 0 and not state.is_chance_node():
            other = state.clone()  # shares the parts, and puts its own in
            other.apply_action(rng.choice(other.legal_actions()))
            theirs = plain_digests(other)
            for _ in range(2):  # in turn: each finds its own parts again, as the older ones
                assert other.section_digests() == theirs
                assert state.section_digests() == plain
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
