"""The mental-poker dealer: resolves one seat's replica's chance nodes and shown cards.

Each seat's dealer follows its replica of the game. At a chance node it starts
the operations that deal the card (a reveal to the receiver, or a beacon and a
hand-over for a card taken at random) and gives back the outcome this seat may
apply: the card when its seat may see it, the hidden outcome otherwise. At a
decision the acting seat announces its action, and any card the action shows is
revealed to all and checked against the action.

The methods are generators: they yield the step of each operation they wait
for and return the result, so the same code runs over any transport.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from p2pcards.engine import Action, Game, State
from p2pcards.errors import ActionFormatError, IllegalActionError
from protocol.curve import hash_to_point
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.mental import MentalPeer

Waits = Generator[int, None, Action]


def card_points(game: Game) -> list[bytes]:
    """One distinct curve point per physical card: (game, card, copy) hashed to the curve."""
    copies: dict[str, int] = {}
    points = []
    for card in game.physical_cards():
        copy = copies.get(card, 0)
        copies[card] = copy + 1
        points.append(hash_to_point(game.name, card, copy))
    return points


class MentalDealer:
    """One seat's bridge between its replica and its `MentalPeer`."""

    def __init__(self, peer: MentalPeer, game: Game, replica: State, points: list[bytes]) -> None:
        self.peer = peer
        self.game = game
        self.replica = replica
        self.card_ids = game.physical_cards()
        self.points = points
        self.deck: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(peer.num_seats)]
        self.shown: list[int] = []  # face-up cards since the last shuffle: the next deck
        self.generation = 0
        self.last_shown: tuple[int, int, str] | None = (
            None  # (seat, position, card) of the last show
        )

    def card_id(self, card: int) -> str | None:
        """The card id behind a locked card, if this seat may know it."""
        physical = self.peer.card_of(card)
        return None if physical is None else self.card_ids[physical]

    def setup(self) -> Generator[int, None, None]:
        """Shuffle the whole deck, every seat taking part."""
        step = self.peer.shuffle(self.points)
        yield step
        self.deck = self.peer.shuffled_cards(step)

    def chance(self) -> Waits:
        """Resolve the replica's chance node; return the outcome this seat applies."""
        replica = self.replica
        if replica.reshuffles() > self.generation:
            # The discard pile (every card of it shown, so its points are public)
            # becomes a new deck: shuffle it again among all seats.
            points = [self.peer.cards[c].point for c in self.shown]
            if any(p is None for p in points):
                raise LocalProtocolError("a discarded card was never shown")
            step = self.peer.shuffle([p for p in points if p is not None])
            yield step
            self.deck = self.peer.shuffled_cards(step)
            self.shown = []
            self.generation = replica.reshuffles()
        move = replica.chance_move()
        if move.kind == "deal":
            card = self.deck.pop()
            yield self.peer.reveal(card, {move.to})
            self.hands[move.to].append(card)
        elif move.kind == "take":
            assert move.source is not None
            hand = self.hands[move.source]
            step = self.peer.beacon(len(hand))
            yield step
            position = self.peer.beacon_value(step)
            card = hand.pop(position)
            yield self.peer.reveal(card, {move.to})
            self.hands[move.to].append(card)
            return replica.chance_outcome_for(self.card_id(card), position)
        else:
            raise LocalProtocolError(f"no dealing for chance moves of kind {move.kind!r}")
        return replica.chance_outcome_for(self.card_id(card))

    def decide(self, action: Action | None) -> Waits:
        """The current player's action: ours to announce (`action`), or another seat's to check."""
        replica = self.replica
        seat = replica.current_player()
        me = self.peer.seat
        self.last_shown = None
        payload: dict[str, Any] | None = None
        if seat == me:
            if action is None:
                raise LocalProtocolError("it is our decision: give the action")
            payload = {"action": action.to_json()}
            shown = replica.shown_card(action)
            if shown is not None:
                payload["card"] = self._pick(seat, shown)
        step = self.peer.announce(seat, payload)
        yield step
        said = self.peer.announcement(step)
        try:
            announced = self.game.action_from_json(said.get("action"))
        except ActionFormatError as exc:
            raise RemoteProtocolError(seat, f"announced a malformed action: {exc}", step) from None
        shown = replica.shown_card(announced)
        position = -1
        if shown is not None:
            # The card is revealed to all first: only then can every replica be told
            # which slot of the hand it was, and the action be checked against it.
            card = said.get("card")
            if not isinstance(card, int) or card not in self.hands[seat]:
                raise RemoteProtocolError(seat, "showed a card that is not in its hand", step)
            step = self.peer.reveal(card, range(self.peer.num_seats))
            yield step
            if self.card_id(card) != shown:
                raise RemoteProtocolError(
                    seat, f"played {shown} but the card it showed is {self.card_id(card)}", step
                )
            position = self.hands[seat].index(card)
            replica.show_card(seat, position, shown)
        try:
            replica.verify_action(announced)
        except IllegalActionError as exc:
            raise RemoteProtocolError(seat, f"announced an illegal action: {exc}", step) from None
        if shown is not None:
            self.last_shown = (seat, position, shown)
            self.shown.append(self.hands[seat].pop(position))
        return announced

    def _pick(self, seat: int, card_id: str) -> int:
        """Which of our locked cards to show for `card_id`: the one most seats already know."""
        best = -1
        best_knowers = -1
        for card in self.hands[seat]:
            if self.card_id(card) == card_id:
                holders = self.peer.cards[card].holders
                knowers = len(set.intersection(*holders))
                if knowers > best_knowers:
                    best, best_knowers = card, knowers
        if best < 0:
            raise LocalProtocolError(f"we hold no {card_id}")
        return best

    def disclose(self) -> Generator[int, None, None]:
        """Reveal every secret, for the audit."""
        yield self.peer.disclose()
