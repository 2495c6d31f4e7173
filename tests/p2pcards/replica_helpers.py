"""An honest dealer without the cryptography: what each replica is told before each step.

The table protocol opens the cards a decision uses (`State.reveals`) and tells every replica
what it may learn (`State.see`), then every replica applies the action's public form. These
helpers work the same out from the complete state, so the rules tests can check replicas
against `observation(seat)` at every step, for any game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, ChanceOutcome, Sighting, State
from p2pcards.zones import ZoneState


def sightings(state: State, action: Action) -> list[tuple[Sighting, frozenset[int]]]:
    """Every card `action` opens, as (sighting with the card, seats that learn it)."""
    opened: list[tuple[Sighting, frozenset[int]]] = []
    public = state.reveals(action.public())
    full = state.reveals(action)  # the same reveals, naming even what the public form hides
    assert [(r.seat, r.viewers) for r in public] == [(r.seat, r.viewers) for r in full]
    for reveal in full:
        card_in = dict(zip(state.hand_slots(reveal.seat), state.hand(reveal.seat), strict=True))
        if reveal.cards is None:
            opened.extend(
                (Sighting(slot, card, pinned=False), reveal.viewers)
                for slot, card in card_in.items()
            )
            continue
        named = [c for c in reveal.cards if c is not None]
        assert len(named) == len(reveal.cards), "the full action names every card it uses"
        for slot in state.slots_of(reveal.seat, named):
            opened.append((Sighting(slot, card_in[slot]), reveal.viewers))
    return opened


def told(opened: list[tuple[Sighting, frozenset[int]]], seat: int) -> list[Sighting]:
    """What `seat`'s replica is told: the card where it may learn it, the slot either way."""
    return [s if seat in viewers else Sighting(s.slot, None, s.pinned) for s, viewers in opened]


def step_replicas(state: State, replicas: dict[int, State], action: Action) -> None:
    """Advance the complete state and each seat's replica by one step, as a table would."""
    if state.is_chance_node():
        assert isinstance(action, ChanceOutcome)
        viewers = state.chance_viewers()
        for seat, replica in replicas.items():
            replica.apply_action(action if seat in viewers else action.hidden())
        state.apply_action(action)
        return
    opened = sightings(state, action)
    actor = state.current_player()
    for seat, replica in replicas.items():
        replica.see(told(opened, seat))
        # As the mental dealer does: the acting seat applies its action in full (a private
        # reorder's order), every other seat the public form.
        replica.apply_action(action if seat == actor else action.public())
    state.see(told(opened, -1))
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
