"""The mental-poker dealer: resolves one seat's replica's chance nodes and shown cards.

Every game keeps its cards as slots in zones (DESIGN.md §9), and one path deals them all.
Setup shuffles the shared deck among all seats, or each seat's own deck with its owner
masking first. A chance node is the replica's pending chance step (`chance_step`): the top
card of a zone (a draw, a look), a card picked by the beacon, or a roll of the beacon; the
card goes to the seats entitled to it, and the dealer gives back the outcome this seat may
apply (the card when it may see it, the hidden outcome otherwise). A deck the rules gathered
between steps (a discard pile turned over) is dealt afresh before it is drawn from.

At a decision the acting seat announces its action's public form; every game's actions
name the slots of the cards they use. The action applied to a clone of the replica says the
rest: first the cards the rules lay open on the way (`ZoneState.laid_open`: a card played,
a hand shown), revealed to their viewers and taught to this replica before the action is
applied for good, since the rules may read them (GETGEM's victory check); then piles it
reordered, shuffled or searched, re-masked or dealt afresh; then every other card whose
knowledge mask it widens, revealed to its new knowers. Each card shown is proved against
the card the action names, and a card shown to this seat that the action's public form does
not name (a card pushed to it, a hand laid open to it) is taught to the replica (`learn`).

The methods are generators: they yield the step of each operation they wait
for and return the result, so the same code runs over any transport.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Generator, Iterable
from typing import Any

from p2pcards.decks import OwnDecksGame, decklist_problems
from p2pcards.engine import Action, Game, Sighting, State
from p2pcards.errors import ActionFormatError, IllegalActionError
from p2pcards.zones import Reorder, Searched, Shown, Shuffled, ZoneState
from protocol.audit import DeckAudit
from protocol.curve import CardPoints
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.mental import MentalPeer, ShuffleSecrets

Waits = Generator[int, None, Action]


def card_points(game: Game) -> CardPoints:
    """One distinct curve point per physical card: (game, card, copy) hashed to the curve,
    each when first needed."""
    return _points(game.name, tuple(game.card_universe()))


@functools.cache
def _points(name: str, cards: tuple[str, ...]) -> CardPoints:
    # One table a process: a seat, its audit and a rebuilt seat all need the same points.
    return CardPoints(name, cards)


def card_of(game: Game) -> Callable[[bytes], str | None]:
    """The card id behind a point of `game`'s cards (None: the point is no card)."""
    points, cards = card_points(game), game.card_universe()

    def card(point: bytes) -> str | None:
        index = points.index_of(point)
        return None if index is None else cards[index]

    return card


def deck_audit(game: Game) -> DeckAudit | None:
    """How the audit judges the own decks of `game` (None for a shared deck): points read
    as cards, cards judged by the game's deck rules."""
    if not isinstance(game, OwnDecksGame):
        return None
    own: OwnDecksGame = game
    return DeckAudit(card_of(game), functools.partial(decklist_problems, own, game.name))


def own_decklist(game: Game, kept: Iterable[object]) -> dict[str, int] | None:
    """Our own deck as card counts, from the secrets we kept (the deck we committed to), or
    None if we kept none: how a saved seat gets its deck back."""
    card = card_of(game)
    for secret in kept:
        if isinstance(secret, ShuffleSecrets) and secret.deck:
            counts: dict[str, int] = {}
            for point in secret.deck:
                found = card(point)
                if found is None:
                    raise LocalProtocolError("our saved deck holds a point that is no card")
                counts[found] = counts.get(found, 0) + 1
            return counts
    return None


class MentalDealer:
    """One seat's bridge between its replica and its `MentalPeer`.

    It mirrors no rules: the replica says where every slot is (`deck_slots`, `zone_slots`)
    and which cards a step opens (`chance_step`, and the knowledge masks an action widens);
    the dealer only remembers which locked card each slot holds.
    """

    def __init__(self, peer: MentalPeer, game: Game, replica: State, points: CardPoints) -> None:
        self.peer = peer
        self.game = game
        self.replica = replica
        self.card_ids = game.card_universe()
        self.points = points
        self.own_points: Counter[bytes] = Counter()  # the deck we committed to, if own decks
        self.copies: dict[str, list[int]] = {}  # card id -> its copies' indices in `points`
        for index, card in enumerate(self.card_ids):
            self.copies.setdefault(card, []).append(index)
        self.locked: dict[int, int] = {}  # slot id -> index of its locked card in peer.cards
        self.generation = 0  # the replica's shuffles this dealer has dealt (`reshuffles()`)
        self.last_sightings: list[Sighting] = []  # what the replica was told before the last step

    def card_id(self, card: int) -> str | None:
        """The card id behind a locked card, if this seat may know it."""
        physical = self.peer.card_of(card)
        return None if physical is None else self.card_ids[physical]

    def setup(self) -> Generator[int, None, None]:
        """Shuffle the whole deck, every seat taking part; or each seat's own deck."""
        decks = self._zone_replica().own_decks()
        if not decks:
            yield from self._shuffle_deck(list(self.points))
            return
        # One deck after the other: cards are numbered as their shuffles finish, and the
        # audit numbers them in step order, so two shuffles must not race.
        for deck in decks:
            slots = self._zone_replica().zone_slots(deck.zone)
            points: list[bytes] = []
            if deck.owner == self.peer.seat:
                if deck.cards is None or len(deck.cards) != len(slots):
                    raise LocalProtocolError(f"our replica does not hold our deck {deck.zone}")
                points = self._deck_points(deck.cards)
                self.own_points = Counter(points)
            step = self.peer.shuffle_own_deck(deck.owner, len(slots), points)
            yield step
            self.locked.update(zip(slots, self.peer.shuffled_cards(step), strict=True))

    def _deck_points(self, cards: list[str]) -> list[bytes]:
        """The points of our own decklist: the i-th copy of a card gets that copy's point."""
        used: dict[str, int] = {}
        points = []
        for card in cards:
            copies = self.copies.get(card, [])
            n = used.get(card, 0)
            if n >= len(copies):
                raise LocalProtocolError(f"our deck holds more copies of {card} than a table deals")
            points.append(self.points[copies[n]])
            used[card] = n + 1
        return points

    def _shuffle_deck(self, points: list[bytes]) -> Generator[int, None, None]:
        """Shuffle `points` among all seats and lay them, in order, on the replica's deck slots."""
        step = self.peer.shuffle(points)
        yield step
        deck = self.replica.deck_slots()
        if len(deck) != len(points):
            raise LocalProtocolError(f"a deck of {len(deck)} slots for {len(points)} cards")
        self.locked.update(zip(deck, self.peer.shuffled_cards(step), strict=True))

    def chance(self) -> Waits:
        """Deal the replica's chance step: the top card (or one `depth` under it) of a zone,
        a card picked by the beacon, or a roll of the beacon; return the outcome this seat
        applies (the card when it may see it, the hidden outcome otherwise)."""
        replica = self._zone_replica()
        self.last_sightings = []
        if replica.reshuffles() > self.generation:
            # A deck gathered by the rules between two steps (a discard pile turned over, or
            # every card for the next game of a match): deal it afresh before drawing from it.
            yield from self._shuffle_deck(self._new_deck_points())
            self.generation = replica.reshuffles()
        step, pile = replica.chance_step()
        viewers = replica.chance_viewers()
        if step.kind == "roll":
            roll = self.peer.beacon(step.sides)
            yield roll
            return replica.chance_outcome_for(None, self.peer.beacon_value(roll))
        position = 0
        if step.kind == "pick":
            pick = self.peer.beacon(len(pile))
            yield pick
            position = self.peer.beacon_value(pick)
            slot = pile[position]
        else:
            slot = pile[-1 - step.depth]
        card = yield from self._open_slot(slot, viewers)
        if self.peer.seat not in viewers and replica.card_at(slot) is None:
            card = None  # seen before by this peer's keys, but not this replica's to know
        return replica.chance_outcome_for(card, position)

    def _new_deck_points(self) -> list[bytes]:
        """The points of the cards the replica has just made a new deck of.

        Either every card of the game (gathered for a new deal: a fresh shuffle of the
        whole deck), or cards that were shown to all, whose points are public.
        """
        deck = self.replica.deck_slots()
        if len(deck) == len(self.points):
            return list(self.points)
        points = [self.peer.cards[self.locked[slot]].point for slot in deck]
        if any(p is None for p in points):
            raise LocalProtocolError("a card put back into the deck was never shown")
        return [p for p in points if p is not None]

    def decide(self, action: Action | None) -> Waits:
        """The current player's action: ours to announce (`action`), or another seat's to check.

        The acting seat announces the action's public form. The action applied to a clone of
        the replica says who learns what: the cards the rules lay open on the way are
        revealed first and those this seat sees are taught to the replica (`last_sightings`),
        then a clone that knows them applies it again, and the piles it moves (re-masked or
        dealt afresh here) and the other cards whose knowers it widens (revealed to them)
        follow; every card shown must be the card the action named.
        Returns the action every replica applies: ours in full (a private reorder's order),
        another seat's as announced.
        """
        replica = self._zone_replica()
        seat = replica.current_player()
        mine = seat == self.peer.seat
        payload: dict[str, Any] | None = None
        if mine:
            if action is None:
                raise LocalProtocolError("it is our decision: give the action")
            payload = {"action": action.public().to_json()}
        announced, step = yield from self._announce(seat, payload)
        told = action if mine and action is not None else announced
        after = self._applied(replica, told, seat, step)
        learned: list[Sighting] = []
        revealed: set[int] = set()
        first = [shown for shown in after.laid_open() if shown.slot in self.locked]
        if first:
            yield from self._show(first, after, seat, step, learned)
            revealed = {shown.slot for shown in first}
            replica.learn(learned)
            after = self._applied(replica, told, seat, step)  # now knowing what it showed
        # First what the action did to whole piles (a reorder, a shuffle, a search), so
        # that every slot holds the locked card the engine says it holds; then the cards
        # it shows.
        for move in after.movements():
            if isinstance(move, Reorder):
                yield from self._relock(move, seat)
                continue
            if isinstance(move, Shuffled):
                yield from self._redeal(move.zone, list(move.slots))
            else:
                yield from self._take_searched(move, after)
            self.generation += 1  # one shuffle of the replica's, dealt
        rest = [
            shown
            for shown in after.shown_since(replica)
            if shown.slot in self.locked and shown.slot not in revealed
        ]
        yield from self._show(rest, after, seat, step, None)
        self.last_sightings = learned
        return told

    def _applied(self, replica: ZoneState, action: Action, seat: int, step: int) -> ZoneState:
        """A clone of the replica with `action` applied, its movements and shows recorded."""
        after = replica.clone()
        after.record_movements()
        try:
            after.apply_action(action)
        except IllegalActionError as exc:
            raise RemoteProtocolError(seat, f"announced an illegal action: {exc}", step) from None
        return after

    def _show(
        self,
        shown: list[Shown],
        after: ZoneState,
        seat: int,
        step: int,
        learned: list[Sighting] | None,
    ) -> Generator[int, None, None]:
        """Reveal each card `shown` to the seats that know it now; each must be the card the
        action named. Those this seat sees and its replica does not know go to `learned`
        (if given: the cards laid open, which the replica learns before the action)."""
        ops = []
        for entry in shown:
            seen_by = frozenset(s for s in range(after.num_players) if entry.knowers >> s & 1)
            ops.append(self.peer.reveal(self.locked[entry.slot], seen_by))
        # Found among the named cards' copies, not every card's (a cheat's is found anyway).
        self.points.expect(entry.card for entry in shown if entry.card is not None)
        yield from ops
        self.points.expect(())
        replica = self._zone_replica()
        for entry in shown:
            card, named = self.card_id(self.locked[entry.slot]), entry.card
            if card is not None and named is not None and card != named:
                raise RemoteProtocolError(
                    seat, f"named {named} but the card it showed is {card}", step
                )
            if (
                learned is not None
                and card is not None
                and entry.knowers >> self.peer.seat & 1
                and replica.card_at(entry.slot) is None
            ):
                learned.append(Sighting(entry.slot, card))

    def _announce(
        self, seat: int, payload: dict[str, Any] | None
    ) -> Generator[int, None, tuple[Action, int]]:
        """`seat`'s announced action in its public form, checked for shape; and its step."""
        step = self.peer.announce(seat, payload)
        yield step
        said = self.peer.announcement(step)
        try:
            announced = self.game.action_from_json(said.get("action"))
        except ActionFormatError as exc:
            raise RemoteProtocolError(seat, f"announced a malformed action: {exc}", step) from None
        if announced.public() != announced:
            raise RemoteProtocolError(seat, "announced a card only one seat may learn", step)
        return announced, step

    # ------------------------------------------------------------ zones games

    def _zone_replica(self) -> ZoneState:
        if not isinstance(self.replica, ZoneState):
            raise LocalProtocolError(f"{self.game.name} keeps its cards in no zones")
        return self.replica

    def _open_slot(self, slot: int, viewers: frozenset[int]) -> Generator[int, None, str | None]:
        """Reveal the card locked in `slot` to `viewers`; the card, if we may see it."""
        locked = self.locked.get(slot)
        if locked is None:  # a token: its identity was public from its making
            return self._zone_replica().card_at(slot)
        yield self.peer.reveal(locked, viewers)
        return self.card_id(locked)

    def _relock(self, move: Reorder, seat: int) -> Generator[int, None, None]:
        """The seat that looked puts the cards back re-masked by it alone: the others cannot
        link old places to new ones (its order stays its own)."""
        if (seat == self.peer.seat) != (move.order is not None):
            raise LocalProtocolError("a reorder's order is known to its seat alone")
        taken = [self.locked[slot] for slot in move.slots]
        relock = self.peer.relock(seat, taken, move.order)
        yield relock
        self.locked.update(zip(move.slots, self.peer.shuffled_cards(relock), strict=True))

    def _redeal(self, zone: str, slots: list[int]) -> Generator[int, None, None]:
        """A shuffled zone dealt afresh: a seat's own zone from the cards its owner knows it
        holds (the audit checks they are the cards it held); a table's zone, whose cards
        everyone has seen, from their public points."""
        if not slots:
            return
        owner = self._zone_replica().zone_owner(zone)
        held = [self.locked.get(slot) for slot in slots]
        old = [card for card in held if card is not None]
        if len(old) != len(slots):
            raise LocalProtocolError(f"a token was shuffled into {zone}")
        if owner is None:
            points = [self.peer.cards[card].point for card in old]
            public = [p for p in points if p is not None]
            if len(public) != len(points):
                raise LocalProtocolError(f"{zone} was shuffled holding cards not all have seen")
            step = self.peer.shuffle(public)
        else:
            ours = self._our_points(owner, old) if owner == self.peer.seat else []
            step = self.peer.shuffle_own_deck(owner, len(slots), ours, old)
        yield step
        self.locked.update(zip(slots, self.peer.shuffled_cards(step), strict=True))

    def _our_points(self, owner: int, cards: list[int]) -> list[bytes]:
        """The points of our locked `cards`: those we have seen, and for the rest what is
        left of the deck we committed to once every card of it we have seen is taken out."""
        replica = self._zone_replica()
        seen: Counter[bytes] = Counter()
        for slot, card in self.locked.items():
            point = self.peer.cards[card].point
            if point is not None and replica.home(slot) == owner:
                seen[point] += 1
        rest = self.own_points - seen
        known = [p for card in cards if (p := self.peer.cards[card].point) is not None]
        if known and not all(self.own_points[p] for p in known):
            raise LocalProtocolError("a card shuffled into our deck is not of our deck")
        if rest.total() != len(cards) - len(known):
            raise LocalProtocolError("cards of our deck we never saw are outside it")
        return [*known, *rest.elements()]

    def _take_searched(self, move: Searched, after: ZoneState) -> Generator[int, None, None]:
        """Its owner looks through a zone (every card revealed to it), says which card it
        took, and the rest is dealt afresh."""
        owner = self._zone_replica().zone_owner(move.zone)
        if owner is None:
            raise LocalProtocolError(f"{move.zone} belongs to no seat to search it")
        old = [self.locked[slot] for slot in (move.taken, *move.slots)]
        yield from [self.peer.reveal(card, frozenset({owner})) for card in old]
        payload: dict[str, Any] | None = None
        if owner == self.peer.seat:
            wanted = after.card_at(move.taken)
            cards = [self.card_id(card) for card in old]
            if wanted not in cards:
                raise LocalProtocolError(f"we took {wanted}, which {move.zone} does not hold")
            payload = {"position": cards.index(wanted)}
        said = self.peer.announce(owner, payload)
        yield said
        position = self.peer.announcement(said).get("position")
        if not isinstance(position, int) or isinstance(position, bool):
            raise RemoteProtocolError(owner, "named no card of the zone it searched", said)
        if not 0 <= position < len(old):
            raise RemoteProtocolError(owner, f"took card {position} of {len(old)}", said)
        self.locked[move.taken] = old.pop(position)
        self.locked.update(zip(move.slots, old, strict=True))
        yield from self._redeal(move.zone, list(move.slots))

    def disclose(self) -> Generator[int, None, None]:
        """Reveal every secret, for the audit."""
        yield self.peer.disclose()
