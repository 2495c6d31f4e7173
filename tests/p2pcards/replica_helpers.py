"""An honest dealer without the cryptography: what each replica is told before each step.

The table protocol applies an action to a clone of the replica, reveals the cards the rules
lay open on the way (`ZoneState.laid_open`) and teaches the replicas that may see them what
the action's public form does not name (`State.learn`: a pushed card, a hand shown), then
every replica applies the action's public form. These helpers work the same out from the
complete state, so the rules tests can check replicas against `observation(seat)` at every
step, for any game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, ChanceOutcome, Sighting, State
from p2pcards.zones import Shown, ZoneState


def laid_open(state: State, action: Action) -> list[Shown]:
    """Every card `action` lays open, with every seat that knows it then and the card."""
    assert isinstance(state, ZoneState)
    after = state.clone()
    after.record_movements()
    after.apply_action(action)
    return after.laid_open()


def told(opened: list[Shown], replica: State, seat: int) -> list[Sighting]:
    """What `seat`'s replica is told: the cards laid open to it that it does not know."""
    assert isinstance(replica, ZoneState)
    return [
        Sighting(shown.slot, shown.card)
        for shown in opened
        if shown.card is not None
        and shown.knowers >> seat & 1
        and replica.card_at(shown.slot) is None
    ]


def step_replicas(state: State, replicas: dict[int, State], action: Action) -> None:
    """Advance the complete state and each seat's replica by one step, as a table would."""
    if state.is_chance_node():
        assert isinstance(action, ChanceOutcome)
        viewers = state.chance_viewers()
        for seat, replica in replicas.items():
            replica.apply_action(action if seat in viewers else action.hidden())
        state.apply_action(action)
        return
    opened = laid_open(state, action)
    actor = state.current_player()
    for seat, replica in replicas.items():
        replica.learn(told(opened, replica, seat))
        # As the mental dealer does: the acting seat applies its action in full (a private
        # reorder's order), every other seat the public form.
        replica.apply_action(action if seat == actor else action.public())
    state.apply_action(action)


def unseen_cards(state: ZoneState, seat: int) -> set[str]:
    """The cards `seat` may not know right now, of which it knows no copy anywhere (so no
    name of them may reach it): another seat's hand and deck, face-down cards."""
    seen = {card for _, _, card, mask in state.slots() if mask >> seat & 1}
    return {
        card
        for _, _, card, mask in state.slots()
        if card is not None and not mask >> seat & 1 and card not in seen
    }


def random_decisions(
    game: str, seed: int, seat: int = 0, decks: list[str] | None = None
) -> Iterator[State]:
    """The whole state before each of `seat`'s decisions in a two-seat game (round cap 10)
    where every seat chooses at random and a seeded dealer deals."""
    options = {"decks": decks} if decks else {}
    state = games.load(game).new_initial_state(2, round_cap=10, **options)
    dealer, rng = LocalDealer(seed), random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
            continue
        if state.current_player() == seat:
            yield state
        state.apply_action(rng.choice(state.legal_actions()))
