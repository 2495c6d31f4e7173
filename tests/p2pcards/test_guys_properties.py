"""Rise of the Guys with random legal decks (issue 15's property playouts): every game ends
under a cap, each deck's cards are conserved, life and health rules hold, and replicas driven
as a table drives them keep the digests and never hold the opponent's decklist."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from guys_helpers import DB, GAME
from replica_helpers import step_replicas

from p2pcards.dealer import LocalDealer
from p2pcards.deckmodel import KnownDecksModel
from p2pcards.decks import DeckList, deck_problems
from p2pcards.games.rise_of_the_guys import DECK_RULES

SEEDS = range(12)


def random_deck(rng: random.Random) -> dict[str, int]:
    """A random legal deck: built by the deck model around nothing seen."""
    model = GAME.rules.deck_model
    assert isinstance(model, KnownDecksModel)
    counts = model.decklist(0, [0] * len(DB.cards), rng)
    if rng.random() < 0.5:  # sometimes from scratch, sometimes a shipped deck
        counts = model.build([0] * len(DB.cards), rng)
    deck = {DB.cards[k].id: n for k, n in enumerate(counts) if n}
    assert deck_problems(DeckList.from_counts(GAME.name, deck), DECK_RULES, DB) == []
    return deck


@pytest.mark.parametrize("seed", SEEDS)
def test_random_decks_play_to_the_end_with_replicas_in_step(seed: int) -> None:
    rng = random.Random(seed)
    decks = [random_deck(rng), random_deck(rng)]
    state = GAME.new_initial_state(2, decks=decks, round_cap=30)
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
            assert replica.deck_composition(seat) == decks[seat]
        for seat in (0, 1):
            assert state.life(seat) <= 20
            for guy in state.guys(seat):
                if not state.face_down(guy):
                    assert state.damage(guy) < state.health(guy)  # destroyed at >= health
        assert Counter(state.deck_composition(0)) == Counter(decks[0])
    assert state.is_terminal(), "the game did not end under its cap"
    assert sum(state.returns()) == pytest.approx(1.0)
