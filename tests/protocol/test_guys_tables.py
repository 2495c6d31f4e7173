"""Rise of the Guys at mental-poker tables (issue 16): each seat's own deck goes through the
cryptography, its owner masking first.

`InProcessTable` checks after every step that each replica agrees on the public digest and
holds exactly what its seat may know: its own hand, the mulligan and Loot cards it knows
inside its own deck, the cards shown, and nothing of the opponent's decklist beyond them.
At the end every seat discloses its secrets and the audit re-derives every shuffle and key,
and judges each committed decklist by the deck rules.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Generator

import pytest
from guys_helpers import deck

from ai.agents import make_agent
from p2pcards import games
from p2pcards.deckmodel import KnownDecksModel
from p2pcards.engine import Action, State
from p2pcards.games.rise_of_the_guys import GuysGame, GuysState
from p2pcards.games.rise_of_the_guys.actions import PASS, Mulligan, Order, Play, Reveal
from protocol.audit import audit
from protocol.errors import RemoteProtocolError
from protocol.inprocess import InProcessTable, TableResult, make_peers, run_everywhere
from protocol.mental_dealer import card_points, deck_audit

GAME = games.load("rise-of-the-guys")
assert isinstance(GAME, GuysGame)


def random_deck(rng: random.Random) -> dict[str, int]:
    """A random legal deck, built by the game's deck model around nothing seen."""
    model = GAME.rules.deck_model
    assert isinstance(model, KnownDecksModel)
    counts = model.build([0] * len(GAME.db.cards), rng)
    return {GAME.db.cards[k].id: n for k, n in enumerate(counts) if n}


def assert_clean(table: InProcessTable, result: TableResult) -> None:
    """The game ended with every replica on the table's digest and a clean audit."""
    assert result.error is None
    assert table.reference.is_terminal()
    assert len({table.reference.public_digest(), *result.digests}) == 1
    assert result.faults == [[], []]


def test_ai_seats_with_the_rulebook_decks_play_whole_games_with_a_clean_audit() -> None:
    """Issue 16: in-process tables of 2 peers with the shipped decks, AI seats, to the end."""
    agents = [make_agent("expectimax:nodes=120:samples=2", seed) for seed in (1, 2)]
    table = InProcessTable("rise-of-the-guys", agents, {"round_cap": 30})
    assert_clean(table, table.play())


class Recorder:
    """Random play that notes the moves that keep secrets inside a deck or on the board."""

    def __init__(self, seed: int, seen: Counter[str]) -> None:
        self.rng = random.Random(seed)
        self.seen = seen

    def act(self, observation: State) -> Action:
        assert isinstance(observation, GuysState)
        action = self.rng.choice(observation.legal_actions())
        if isinstance(action, Mulligan) and action.mask:
            self.seen["mulligan to the bottom"] += 1
        if isinstance(action, Order):
            self.seen["loot"] += 1
        if isinstance(action, Play) and action.face_down:
            self.seen["face-down play"] += 1
        if isinstance(action, Reveal):
            self.seen["reveal"] += 1
        if isinstance(action, Play) and not action.face_down:
            self.seen["card shown"] += 1
        return action


@pytest.mark.parametrize("seed", range(4))
def test_random_legal_decks_keep_every_secret_and_pass_the_audit(seed: int) -> None:
    """Random legal decks at both seats, random play against an AI seat: every step checked
    against what each seat may know; mulligans and shown cards go through."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    decks = [random_deck(rng), random_deck(rng)]
    agents = [Recorder(seed * 2, seen), make_agent("greedy", seed)]
    table = InProcessTable("rise-of-the-guys", agents, {"decks": decks, "round_cap": 40})
    assert_clean(table, table.play())
    assert seen["mulligan to the bottom"] and seen["card shown"]


def test_over_many_tables_every_kind_of_hidden_move_happens() -> None:
    """The moves the knowledge checks above must cover do happen at these tables."""
    seen: Counter[str] = Counter()
    decks = ["sneaky-stinky", "control"]  # Sneaky Guys; Fortune Teller and Scroll of Lore loot
    for seed in range(6):
        agents = [Recorder(seed * 2, seen), Recorder(seed * 2 + 1, seen)]
        table = InProcessTable("rise-of-the-guys", agents, {"decks": decks, "round_cap": 40})
        assert_clean(table, table.play())
    assert {"mulligan to the bottom", "loot", "face-down play", "reveal"} <= set(seen)


class NamesAnotherCard:
    """A seat that plays a card face up but names another card of the same kind."""

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def act(self, observation: State) -> Action:
        assert isinstance(observation, GuysState)
        actions = observation.legal_actions()
        for action in actions:
            if isinstance(action, Play) and not action.face_down and action.card is not None:
                real = GAME.db.by_id[action.card]
                for other in GAME.db.deck_cards:
                    if other.type == real.type and other.cost == real.cost and other != real:
                        return Play(
                            action.slot, other.id, action.lane, action.host, action.enhanced
                        )
        return self.rng.choice(actions)


def test_a_seat_that_names_another_card_than_it_shows_is_named() -> None:
    """Issue 16: a card played is proved to everyone; a lie names the liar, not the table."""
    table = InProcessTable(
        "rise-of-the-guys", [NamesAnotherCard(), make_agent("greedy", seed=1)], {"round_cap": 30}
    )
    result = table.play()
    assert isinstance(result.error, RemoteProtocolError)
    assert result.error.seat == 0


def _own_deck_table(decks: list[list[str]]) -> list[list[object]]:
    """Both seats shuffle the given own decks (seat 1's may be a cheat's), disclose, and
    audit with the game's deck rules: each peer's faults."""
    points = card_points(GAME)
    universe = GAME.card_universe()
    index = {card: [i for i, c in enumerate(universe) if c == card] for card in set(universe)}

    def deck_points(cards: list[str]) -> list[bytes]:
        used: Counter[str] = Counter()
        out = []
        for card in cards:
            out.append(points[index[card][used[card] % len(index[card])]])
            used[card] += 1
        return out

    peers, bus = make_peers(2, points)
    for owner, cards in enumerate(decks):
        run_everywhere(
            bus,
            lambda p, o=owner, c=cards: p.shuffle_own_deck(  # type: ignore[misc]
                o, len(c), deck_points(c) if p.seat == o else ()
            ),
        )
    run_everywhere(bus, lambda p: p.disclose())
    checks = deck_audit(GAME)
    return [audit(p.log, p.table_id, 2, p.encryption_keys, decks=checks) for p in peers]  # type: ignore[misc]


def _listed(counts: dict[str, int]) -> list[str]:
    return [card for card, n in counts.items() for _ in range(n)]


def test_an_illegal_decklist_is_named_at_the_audit() -> None:
    """Issue 16: at the end the audit checks the committed decklist is legal (40 cards, at
    most 4 copies, one or two classes, no tokens); the limit: not before (docs)."""
    legal = _listed(GAME.deck("tempo-machine"))
    three_classes = [*_listed(GAME.deck("aggro-historical"))[:39], "robutt"]
    assert "robutt" not in GAME.deck("aggro-historical")
    for faults in _own_deck_table([legal, three_classes]):
        assert [(f.seat, "illegal deck" in f.reason) for f in faults] == [(1, True)]
        assert "classes" in faults[0].reason


def test_a_deck_holding_one_card_twice_is_caught_at_once() -> None:
    """A card "drawn" twice: a deck whose two cards are the very same card shows it in the
    owner's first masking turn, and the owner is named before any card is dealt."""
    points = card_points(GAME)
    _, bus = make_peers(2, points)
    twice = [points[0]] * 2 + points[8 : 8 + 38]
    with pytest.raises(RemoteProtocolError) as caught:
        run_everywhere(bus, lambda p: p.shuffle_own_deck(1, 40, twice if p.seat == 1 else ()))
    assert caught.value.seat == 1 and "repeats a ciphertext" in str(caught.value)


class Keeper:
    """Keeps its opening hand."""

    def act(self, observation: State) -> Action:
        return Mulligan(0)


def _say(table: InProcessTable, seat: int, action: Action | None, speaker: int) -> Generator:  # type: ignore[type-arg]
    """A cheating seat's raw side of an announcement: it says `action` when it is the
    `speaker`, else waits for the speaker's, checking nothing against its own replica."""
    peer = table.seats[seat].dealer.peer
    yield peer.announce(speaker, None if action is None else {"action": action.to_json()})


def _lie_face_down(deck0: dict[str, int], pick: Callable[[str], bool]) -> RemoteProtocolError:
    """Seat 0 plays face down, on turn 1, a card of its opening hand that `pick` likes; the
    honest seat 1 follows the table to the reveal, where seat 0 must show that card."""
    for _ in range(20):  # until an opening hand holds such a card
        table = InProcessTable(
            "rise-of-the-guys", [Keeper(), Keeper()], {"decks": [deck0, "control"]}
        )
        table.start()
        ref = table.reference
        assert isinstance(ref, GuysState)
        while ref.phase() != "lead":
            table.step()
        hand = [(s, ref.card_at(s)) for s in ref.zone_slots("hand:0")]
        chosen = [(s, c) for s, c in hand if c is not None and pick(c)]
        if chosen:
            break
    else:
        raise AssertionError("no opening hand held the card")
    slot, card = chosen[0]
    honest = table.seats[1]
    lie: Action = Play(slot, None, 0, face_down=True)
    while True:
        actor = honest.replica.current_player()
        mine = PASS if actor == 1 else None
        said = lie if actor == 0 else None
        if isinstance(honest.replica, GuysState) and honest.replica.phase() == "reveal":
            said = Reveal(slot, card)
        try:
            _, action = table.bus.run([_say(table, 0, said, actor), honest.dealer.decide(mine)])
        except RemoteProtocolError as exc:
            return exc
        honest.replica.apply_action(action)
        lie = PASS


def test_a_face_down_play_that_was_no_sneaky_guy_names_its_seat() -> None:
    """Issue 16, rules §18: a face-down play hides its card and cost; at the reveal the card
    is proved and checked against the rules as they stood when it was played."""
    error = _lie_face_down(
        deck("hothead"),
        lambda c: GAME.db.by_id[c].type == "guy" and "sneaky" not in GAME.db.by_id[c].keywords,
    )
    assert error.seat == 0 and "not a Sneaky Guy" in str(error)


def test_a_face_down_play_that_was_not_affordable_names_its_seat() -> None:
    """Turn 1 gives 1 energy: a Sneaky Guy costing more was never affordable (rules §4)."""
    sneaky = deck(
        "jack-in-the-box",
        "disguyse",
        "pickpocket",
        "ninja-nate",
        *["jack-in-the-box"] * 3,
        *["disguyse"] * 3,
    )
    error = _lie_face_down(
        sneaky, lambda c: GAME.db.by_id[c].cost > 1 and "sneaky" in GAME.db.by_id[c].keywords
    )
    assert error.seat == 0 and "energy" in str(error)
