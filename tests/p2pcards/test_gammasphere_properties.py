"""Gammasphere with random legal decks (issue 17's property playouts): every game ends under
a cap; each deck's cards are conserved; Power Levels never pass 9000 and the game ends at 0;
levels stay within 1..10; and replicas driven as a table drives them keep the digests and
never hold the opponent's decklist."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from gamma_helpers import DB, GAME
from replica_helpers import step_replicas

from p2pcards.dealer import LocalDealer
from p2pcards.deckmodel import KnownDecksModel
from p2pcards.decks import DeckList, deck_problems
from p2pcards.games.gammasphere import DECK_RULES


def random_deck(rng: random.Random) -> dict[str, int]:
    """A random legal deck: 10 to 16 Pylons, the rest built by the deck model."""
    model = GAME.rules.deck_model
    assert isinstance(model, KnownDecksModel)
    seen = [0] * len(DB.cards)
    seen[DB.index["pylon"]] = rng.randint(10, 16)
    counts = model.build(seen, rng)
    deck = {DB.cards[k].id: n for k, n in enumerate(counts) if n}
    assert deck_problems(DeckList.from_counts(GAME.name, deck), DECK_RULES, DB) == []
    return deck


@pytest.mark.parametrize("seed", range(10))
def test_random_decks_play_to_the_end_with_replicas_in_step(seed: int) -> None:
    rng = random.Random(seed)
    decks = [random_deck(rng), random_deck(rng)]
    state = GAME.new_initial_state(2, decks=decks, round_cap=25)
    replicas = {seat: state.observation(seat) for seat in (0, 1)}
    dealer = LocalDealer(seed)
    for _ in range(20_000):
        if state.is_terminal():
            break
        chance = state.is_chance_node()
        action = dealer.sample(state) if chance else rng.choice(state.legal_actions())
        step_replicas(state, replicas, action)
        for seat, replica in replicas.items():
            assert replica.public_digest() == state.public_digest(), seat
            assert replica.deck_composition(1 - seat) is None  # never the opponent's list
        for seat in (0, 1):
            assert state.power(seat) <= 9000
            assert state.power(seat) > 0 or state.is_terminal()
            for slot in state.characters(seat):
                assert 1 <= state.level(slot) <= 10
        for seat in (0, 1):
            assert Counter(state.deck_composition(seat)) == Counter(decks[seat])
    assert state.is_terminal(), "the game did not end under its cap"
    assert sum(state.returns()) == pytest.approx(1.0)
