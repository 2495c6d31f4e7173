"""The mental-poker dealer: resolves one seat's replica's chance nodes and shown cards.

Each seat's dealer follows its replica of the game. At a chance node it starts
the operations that deal the card (a reveal to the receiver, or a beacon and a
hand-over for a card taken at random) and gives back the outcome this seat may
apply: the card when its seat may see it, the hidden outcome otherwise. At a
decision the acting seat announces its action's public form and the positions
of the hand cards it names; every card the action opens (`State.reveals`:
shown, pushed, swapped, peeked at) is revealed to its viewers and, where the
action names it, checked against the action.

The methods are generators: they yield the step of each operation they wait
for and return the result, so the same code runs over any transport.
"""

from __future__ import annotations

import functools
from collections.abc import Generator
from typing import Any

from p2pcards.engine import Action, Game, Reveal, Sighting, State
from p2pcards.errors import ActionFormatError, IllegalActionError
from protocol.curve import hash_to_point
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.mental import MentalPeer

Waits = Generator[int, None, Action]


def card_points(game: Game) -> list[bytes]:
    """One distinct curve point per physical card: (game, card, copy) hashed to the curve."""
    return list(_points(game.name, tuple(game.physical_cards())))


@functools.cache
def _points(name: str, cards: tuple[str, ...]) -> tuple[bytes, ...]:
    # Hashing a card to the curve costs about a millisecond (Elligator's square roots):
    # a seat, its audit and a rebuilt seat all need the same hundred points.
    copies: dict[str, int] = {}
    points = []
    for card in cards:
        copy = copies.get(card, 0)
        copies[card] = copy + 1
        points.append(hash_to_point(name, card, copy))
    return tuple(points)


class MentalDealer:
    """One seat's bridge between its replica and its `MentalPeer`.

    It mirrors no rules: the replica says where every slot is (`deck_slots`, `hand_slots`)
    and which cards a step opens (`chance_move`, `reveals`); the dealer only remembers which
    locked card each slot holds.
    """

    def __init__(self, peer: MentalPeer, game: Game, replica: State, points: list[bytes]) -> None:
        self.peer = peer
        self.game = game
        self.replica = replica
        self.card_ids = game.physical_cards()
        self.points = points
        self.locked: dict[int, int] = {}  # slot id -> index of its locked card in peer.cards
        self.generation = 0
        self.last_sightings: list[Sighting] = []  # what the replica was told before the last step

    def card_id(self, card: int) -> str | None:
        """The card id behind a locked card, if this seat may know it."""
        physical = self.peer.card_of(card)
        return None if physical is None else self.card_ids[physical]

    def setup(self) -> Generator[int, None, None]:
        """Shuffle the whole deck, every seat taking part."""
        yield from self._shuffle_deck(self.points)

    def _shuffle_deck(self, points: list[bytes]) -> Generator[int, None, None]:
        """Shuffle `points` among all seats and lay them, in order, on the replica's deck slots."""
        step = self.peer.shuffle(points)
        yield step
        deck = self.replica.deck_slots()
        if len(deck) != len(points):
            raise LocalProtocolError(f"a deck of {len(deck)} slots for {len(points)} cards")
        self.locked.update(zip(deck, self.peer.shuffled_cards(step), strict=True))

    def chance(self) -> Waits:
        """Resolve the replica's chance node; return the outcome this seat applies."""
        replica = self.replica
        self.last_sightings = []
        if replica.reshuffles() > self.generation:
            yield from self._shuffle_deck(self._new_deck_points())
            self.generation = replica.reshuffles()
        move = replica.chance_move()
        viewers = replica.chance_viewers()
        if move.kind == "deal":
            card = self.locked[replica.deck_slots()[-1]]
            yield self.peer.reveal(card, viewers)
            return replica.chance_outcome_for(self.card_id(card))
        if move.kind == "take":
            assert move.source is not None
            hand = replica.hand_slots(move.source)
            step = self.peer.beacon(len(hand))
            yield step
            position = self.peer.beacon_value(step)
            card = self.locked[hand[position]]
            yield self.peer.reveal(card, viewers)
            return replica.chance_outcome_for(self.card_id(card), position)
        raise LocalProtocolError(f"no dealing for chance moves of kind {move.kind!r}")

    def _new_deck_points(self) -> list[bytes]:
        """The points of the cards the replica has just made a new deck of.

        Either every card of the game (gathered for a new deal: a fresh shuffle of the
        whole deck), or cards that were shown to all, whose points are public.
        """
        deck = self.replica.deck_slots()
        if len(deck) == len(self.points):
            return self.points
        points = [self.peer.cards[self.locked[slot]].point for slot in deck]
        if any(p is None for p in points):
            raise LocalProtocolError("a card put back into the deck was never shown")
        return [p for p in points if p is not None]

    def decide(self, action: Action | None) -> Waits:
        """The current player's action: ours to announce (`action`), or another seat's to check.

        Returns the action's public form, which every replica applies after `see`ing what
        the dealer opened for it (`last_sightings`).
        """
        replica = self.replica
        seat = replica.current_player()
        payload: dict[str, Any] | None = None
        if seat == self.peer.seat:
            if action is None:
                raise LocalProtocolError("it is our decision: give the action")
            positions: list[int] = []
            for reveal in replica.reveals(action):
                if reveal.cards is not None:
                    named = [c for c in reveal.cards if c is not None]
                    positions.extend(replica.positions_of(reveal.seat, named))
            payload = {"action": action.public().to_json(), "positions": positions}
        step = self.peer.announce(seat, payload)
        yield step
        said = self.peer.announcement(step)
        try:
            announced = self.game.action_from_json(said.get("action"))
        except ActionFormatError as exc:
            raise RemoteProtocolError(seat, f"announced a malformed action: {exc}", step) from None
        if announced.public() != announced:
            raise RemoteProtocolError(seat, "announced a card only one seat may learn", step)
        try:
            reveals = replica.reveals(announced)
        except IllegalActionError as exc:
            raise RemoteProtocolError(seat, f"announced an illegal action: {exc}", step) from None
        opened = yield from self._open(seat, reveals, said.get("positions"), step)
        self.last_sightings = opened
        try:
            replica.see(opened)
            replica.verify_action(announced)
        except IllegalActionError as exc:
            raise RemoteProtocolError(seat, f"announced an illegal action: {exc}", step) from None
        return announced

    def _open(
        self, seat: int, reveals: list[Reveal], positions: object, step: int
    ) -> Generator[int, None, list[Sighting]]:
        """Reveal what `reveals` asks, the acting seat's picks at `positions`; what we saw."""
        if not isinstance(positions, list) or not all(isinstance(p, int) for p in positions):
            raise RemoteProtocolError(seat, "announced no list of hand positions", step)
        wanted = sum(len(r.cards) for r in reveals if r.cards is not None)
        if len(positions) != wanted:
            raise RemoteProtocolError(
                seat, f"named {len(positions)} hand positions for {wanted} cards", step
            )
        picks = iter(positions)
        plan: list[tuple[Reveal, int, str | None, int]] = []  # reveal, position, named, op
        for reveal in reveals:
            hand = self.replica.hand_slots(reveal.seat)
            chosen: list[tuple[int, str | None]]
            if reveal.cards is None:
                chosen = [(p, None) for p in range(len(hand))]
            else:
                if reveal.seat != seat:
                    raise LocalProtocolError("only the acting seat picks cards of its hand")
                chosen = [(next(picks), named) for named in reveal.cards]
                used = [p for p, _ in chosen]
                if len(set(used)) != len(used) or not all(0 <= p < len(hand) for p in used):
                    raise RemoteProtocolError(seat, f"named bad hand positions {used}", step)
            for position, named in chosen:
                op = self.peer.reveal(self.locked[hand[position]], reveal.viewers)
                plan.append((reveal, position, named, op))
        for *_, op in plan:
            yield op
        sightings = []
        for reveal, position, named, _ in plan:
            card = self.card_id(self.locked[self.replica.hand_slots(reveal.seat)[position]])
            if named is not None and card is not None and card != named:
                raise RemoteProtocolError(
                    seat, f"played {named} but the card it showed is {card}", step
                )
            sightings.append(Sighting(reveal.seat, position, card, reveal.cards is not None))
        return sightings

    def disclose(self) -> Generator[int, None, None]:
        """Reveal every secret, for the audit."""
        yield self.peer.disclose()
