"""The mental dealer's deck movements on a toy game of own decks (issue 16): a discard pile
shuffled back into its deck, and a deck searched by its owner, then shuffled. No card of
Rise of the Guys does either, so a toy game does both, at in-process tables whose replicas
are checked against what each seat may know after every step, with audits at the end."""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from p2pcards.digest import Canonical
from p2pcards.engine import CHANCE, TERMINAL, Action, Game, State
from p2pcards.errors import IllegalActionError
from p2pcards.zones import Deal, Pick, Roll, Step, Zone, ZoneRules, ZoneState
from protocol.errors import RemoteProtocolError
from protocol.inprocess import InProcessTable
from protocol.mental import Announcement, Body


class Kind:
    def __init__(self, id: str) -> None:
        self.id = id
        self.name = id.title()


KINDS = [Kind(k) for k in ("ant", "bee", "cat", "dog", "eel")]
DECKS = [[2, 2, 1, 1, 0], [0, 1, 2, 1, 2]]  # six cards each


@dataclass(frozen=True, slots=True)
class Draw(Action):
    kind = "draw"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    kind = "discard"
    slot: int
    card: str


@dataclass(frozen=True, slots=True)
class Recycle(Action):
    """Shuffle your discard pile into your deck."""

    kind = "recycle"


@dataclass(frozen=True, slots=True)
class Search(Action):
    """Take a card of your choice from your deck into your hand, then shuffle the deck."""

    kind = "search"
    card: str | None

    def public(self) -> Search:
        return Search(None)


class ToyGame(Game):
    name = "toy-decks"
    title = "Toy decks"
    min_players = 2
    max_players = 2
    action_types = (Draw, Discard, Recycle, Search, Deal, Pick, Roll)

    def new_initial_state(self, num_players: int, **options: Any) -> State:
        return ToyState(RULES)

    def physical_cards(self) -> list[str]:
        return []

    def card_universe(self) -> list[str]:
        return [k.id for k in KINDS for _ in range(3)]


RULES = ZoneRules(ToyGame(), KINDS, None)
LAYOUT = [
    Zone("deck:0", 0, "nobody"),
    Zone("hand:0", 0, "owner"),
    Zone("discard:0", 0, "everyone"),
    Zone("deck:1", 1, "nobody"),
    Zone("hand:1", 1, "owner"),
    Zone("discard:1", 1, "everyone"),
]
TURNS = 30


class ToyState(ZoneState):
    """Seats take turns: draw, discard a card of the hand, recycle the discard pile into the
    deck, or search the deck. The game ends after TURNS decisions."""

    __slots__ = ("_seat", "_turns")

    def __init__(self, rules: ZoneRules) -> None:
        super().__init__(
            rules, 2, LAYOUT, [("deck:0", DECKS[0]), ("deck:1", DECKS[1])], private_decks=True
        )
        self._turns = 0
        self._seat = 0
        self._current = 0

    def _after_chance(self, step: Step, slot: int, value: int) -> None:
        self._next()

    def _next(self) -> None:
        self._turns += 1
        self._seat = 1 - self._seat
        self._current = TERMINAL if self._turns >= TURNS else self._seat

    def _decisions(self, cur: int) -> list[Action]:
        out: list[Action] = []
        if self.zone_slots(f"deck:{cur}"):
            out.append(Draw())
            if self.viewer in (None, cur):  # the owner knows what its deck holds
                known = {c for s in self.zone_slots(f"deck:{cur}") if (c := self.card_at(s))}
                pool = self._pools[cur] or []
                unseen = {KINDS[k].id for k, n in enumerate(pool) if n}
                out += [Search(card) for card in sorted(known | unseen)]
        out += [Discard(s, c) for s in self.zone_slots(f"hand:{cur}") if (c := self.card_at(s))]
        if self.zone_slots(f"discard:{cur}"):
            out.append(Recycle())
        return out

    def _verify_decision(self, cur: int, action: Action) -> None:
        if isinstance(action, Search) and action.card is None:
            if self.viewer in (None, cur):
                raise IllegalActionError("the searching seat names its card")
            if not self.zone_slots(f"deck:{cur}"):
                raise IllegalActionError("an empty deck")
            return
        if isinstance(action, Discard) and self.card_at(action.slot) is None:
            if self.zone_of(action.slot) != f"hand:{cur}":
                raise IllegalActionError("not in the hand")
            return
        if action not in self._decisions(cur):
            raise IllegalActionError(f"{action} is not allowed")

    def _apply(self, action: Action) -> None:
        cur = self._current
        if cur == CHANCE:
            self._apply_outcome(action)
            return
        deck, hand = self.zone(f"deck:{cur}"), self.zone(f"hand:{cur}")
        if isinstance(action, Draw):
            self._ask_chance(Step("draw", deck, hand, 1 << cur))
            return
        if isinstance(action, Discard):
            self._show(action.slot, action.card, 3)
            self._move(action.slot, self.zone(f"discard:{cur}"))
        elif isinstance(action, Recycle):
            self._shuffle_into(self.zone(f"discard:{cur}"), deck)
        elif isinstance(action, Search):
            k = None if action.card is None else self._kind(action.card)
            self._search(deck, hand, k, 1 << cur)
        self._next()

    def returns(self) -> list[float]:
        return [0.5, 0.5]

    def public_sections(self) -> dict[str, Canonical]:
        return {"zones": self.zones_public(), "turns": [self._turns, self._current]}

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        return {"zones": self.zones_json(seat), "turns": self._turns}

    def clone(self) -> ToyState:
        other = self._clone_zones()
        other._turns = self._turns
        other._seat = self._seat
        return other

    def search_key(self) -> Hashable:
        return (tuple(self._ident), self._turns)


class Wanderer:
    """Random play that leans on the movements under test."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: State) -> Action:
        actions = observation.legal_actions()
        rare = [a for a in actions if isinstance(a, Recycle | Search)]
        if rare and self.rng.random() < 0.4:
            return self.rng.choice(rare)
        return self.rng.choice(actions)


def test_shuffles_and_searches_of_own_decks_keep_every_secret_and_pass_the_audit() -> None:
    moves = 0
    for seed in range(6):
        agents = [Wanderer(seed), Wanderer(seed + 100)]
        table = InProcessTable(ToyGame(), agents)
        result = table.play()
        assert result.error is None, result.error
        assert len({table.reference.public_digest(), *result.digests}) == 1
        assert result.faults == [[], []]
        moves += sum(1 for _, op in table.seats[0].peer.log if getattr(op, "kind", "") == "shuffle")
    assert moves > 12 * 2  # far more than the two first deals: re-deals happened


def test_a_search_that_takes_another_card_than_it_names_names_the_searcher() -> None:
    """The owner says which card of its deck it took; the card it then holds is proved
    against the card its action named, so pointing at another card names the searcher."""

    def lie(seat: int, body: Body) -> Body:
        if seat == 0 and isinstance(body, Announcement) and "position" in body.payload:
            return Announcement(body.step, {"position": 0 if body.payload["position"] else 1})
        return body

    caught = 0
    for seed in range(4):
        agents = [Wanderer(seed), Wanderer(seed + 50)]
        table = InProcessTable(ToyGame(), agents, cheat=lie, check_knowledge=False)
        result = table.play()
        assert isinstance(result.error, RemoteProtocolError)
        said = str(result.error)  # another card than it named, or no card of the deck at all
        assert result.error.seat == 0 and ("the card it showed" in said or "took card" in said)
        caught += 1
    assert caught == 4
