"""How a GETGEM composition plays: game length, card use, seat advantage, from playouts.

    .venv/bin/python scripts/sim_getgem_composition.py [--composition fire=5,water=5,...]
        [--seats 2,3,4,5] [--games 1000] [--policy greedy|random|both]

The rulebook (line 19; docs/rules/getgem.md) gives 30 basic cards but not
how many of each kind: `--composition` overrides cards.toml's quantities (card ids: fire, water,
thunder, rainbow, curse, steal, full-exchange, excavation-arm, push-peep, push-barrier) so
alternatives can be compared. Each seat plays `random` (uniform among legal actions) or
`greedy` (a simple heuristic, below); the first player rotates with the game number, so the
figures per turn position are fair. Printed per seat count: turns per game (mean, median,
90th percentile), games drawn at the turn cap, the win share of the first player (fair share
1/n), and per game how often each card kind or move was used.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from collections.abc import Callable

from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action
from p2pcards.games.getgem import GetGemGame, GetGemState, cards
from p2pcards.games.getgem.actions import (
    Barrier,
    Declare,
    Discard,
    Element,
    GemTake,
    Guard,
    Pass,
    Play,
    Push,
    TakeBack,
)

Policy = Callable[[GetGemState, list[Action], random.Random], Action]
ELEMENTS = ("fire", "water", "thunder")
TURN_CAP = 100  # turns before a game is drawn (the library has no cap: rules.md §25)


def random_policy(state: GetGemState, actions: list[Action], rng: random.Random) -> Action:
    """Uniform among the legal actions."""
    return rng.choice(actions)


def _value(state: GetGemState, seat: int, card: str) -> float:
    """How much a seat wants to keep a card (low values are pushed or discarded first)."""
    hand = [c for c in state.hand(seat) if c is not None]
    have = Counter(hand)
    mine = set(state.elements(seat))
    if card == "curse":
        return -10.0
    if card in ELEMENTS:
        if card in mine:
            return 0.5
        return 6.0 if have[card] == 1 else 2.0
    if card == "rainbow":
        return 0.0 if "curse" in have else 4.0
    if card == "push-barrier":
        return 3.0
    return 1.5


def _target_score(state: GetGemState, seat: int, other: int) -> float:
    """Whom to steal from: declarers first (their hand decides their check), then big hands."""
    return (10 if state.laid(other) else 0) + state.hand_size(other) + len(state.elements(other))


def greedy_policy(state: GetGemState, actions: list[Action], rng: random.Random) -> Action:
    """A simple player: it reads only its own hand and public information."""
    seat = state.current_player()
    hand = [c for c in state.hand(seat) if c is not None]
    have = Counter(hand)
    kind = state.decision().kind
    if kind == "window":
        for a in actions:
            if isinstance(a, Barrier | Guard):
                return a
        return actions[0]
    if kind in ("push", "dig", "limit"):
        options = [a for a in actions if isinstance(a, Push | Discard)]
        if not options:
            return actions[0]
        return min(options, key=lambda a: _value(state, seat, getattr(a, "card", "") or ""))
    if kind == "take-back":
        return actions[0]
    if kind != "action":
        return rng.choice(actions)
    mine = set(state.elements(seat))
    missing = [g for g in ELEMENTS if g not in mine and not have[g]]

    def target(a: Action) -> float:
        victim = getattr(a, "seat", None)
        return -1.0 if victim is None else _target_score(state, seat, victim)

    plays: dict[str, list[Play]] = {}
    for a in actions:
        if isinstance(a, Play):
            plays.setdefault(a.effect, []).append(a)
    # Get rid of the curse first.
    if have["curse"]:
        for effect in ("steal-push", "full-exchange"):
            if plays.get(effect):
                best = max(plays[effect], key=target)
                if effect == "steal-push" or state.hand_size(best.seat or 0) >= len(hand) - 1:
                    return best
    # An element card for a gem we have two of and do not hold.
    elements = [a for a in actions if isinstance(a, Element)]
    if elements:
        return max(elements, key=lambda a: 1 if a.element in missing else 0)
    for effect in ("steal", "steal-push", "peeping-draw"):
        if plays.get(effect):
            return max(plays[effect], key=target)
    digs = [p for p in plays.get("excavation-arm", []) if p.pick in missing]
    if digs:
        return digs[0]
    surplus = sum(max(0, have[g] - 1) for g in ELEMENTS)
    takes = [a for a in actions if isinstance(a, GemTake)]
    if takes and surplus >= 3:

        def waste(a: GemTake) -> tuple[int, float]:
            used = Counter(a.cards.split(","))
            spoils = sum(1 for g, n in used.items() if have[g] - n < 1 and g not in mine)
            return (spoils, -target(a))

        best = min(takes, key=waste)
        if waste(best)[0] == 0:
            return best
    declares = [a for a in actions if isinstance(a, Declare)]
    if declares:
        # Lay the cards that matter least once the check comes (they return to the hand).
        return min(declares, key=lambda a: sum(_value(state, seat, c) for c in a.cards.split(",")))
    return next(a for a in actions if isinstance(a, Pass))


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def playout(
    game: GetGemGame, seats: int, seed: int, policy: Policy
) -> tuple[GetGemState, Counter[str]]:
    """One game, first player rotating with the seed; the uses of each card and move."""
    state = game.new_initial_state(seats, first_player=seed % seats, turn_cap=TURN_CAP)
    dealer = LocalDealer(seed)
    rng = random.Random(seed)
    used: Counter[str] = Counter()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
            continue
        actions = state.legal_actions()
        action = policy(state, actions, rng) if len(actions) > 1 else actions[0]
        if isinstance(action, Play):
            used[f"{action.card}:{action.effect}"] += 1
        elif isinstance(action, Push):
            used["push curse" if action.card == "curse" else "push"] += 1
        elif isinstance(action, Barrier):
            used["barrier"] += 1
        elif isinstance(action, GemTake):
            used["gem-take"] += 1
        elif isinstance(action, Element):
            used["element"] += 1
            used["element from a player"] += state.element_owner(action.element) is not None
        elif isinstance(action, Declare):
            used["declare"] += 1
            used["declare with rainbow"] += "rainbow" in action.cards
        elif isinstance(action, TakeBack) and len(state.laid(state.current_player())) == 1:
            used["victory check"] += 1
        state.apply_action(action)
    used["reshuffles"] += state.reshuffles()
    return state, used


def report(game: GetGemGame, seats: int, games: int, policy_name: str) -> None:
    policy = POLICIES[policy_name]
    turns: list[int] = []
    capped = first_wins = 0
    seat_wins: Counter[int] = Counter()
    used: Counter[str] = Counter()
    rainbow_win = curse_win = 0
    for seed in range(games):
        state, counts = playout(game, seats, seed, policy)
        used += counts
        turns.append(state.turns_played())
        winners = state.winners()
        if len(winners) != 1:
            capped += 1
            continue
        (w,) = winners
        seat_wins[w] += 1
        first_wins += w == state.first_player()
        hand = state.hand(w)
        rainbow_win += "rainbow" in hand
        curse_win += "curse" in hand
    decided = games - capped
    q = statistics.quantiles(turns, n=10)
    print(
        f"  {seats} seats, {policy_name}: turns mean {statistics.mean(turns):5.1f} median "
        f"{statistics.median(turns):4.0f} p90 {q[-1]:4.0f}; capped {capped / games:5.1%}; "
        f"first player wins {first_wins / max(1, decided):5.1%} (fair {1 / seats:5.1%}); "
        f"winner holds rainbow {rainbow_win / max(1, decided):4.0%}, curse "
        f"{curse_win / max(1, decided):4.0%}"
    )
    checks = used["victory check"]
    print(
        f"    victory checks won {decided / max(1, checks):4.0%} of {checks / games:.2f} a game; "
        + ", ".join(
            f"{name} {n / games:.2f}" for name, n in sorted(used.items()) if name != "victory check"
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--composition", default="", help="e.g. fire=5,water=5,steal=3")
    parser.add_argument("--seats", default="2,3,4,5")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--policy", choices=["greedy", "random", "both"], default="both")
    args = parser.parse_args()
    db = cards.load()
    if args.composition:
        qty = {}
        for item in args.composition.split(","):
            name, _, value = item.partition("=")
            qty[name.strip()] = int(value)
        db = db.with_quantities(qty)
    game = GetGemGame(db)
    print("composition: " + ", ".join(f"{c.id} {c.qty}" for c in db.cards) + f" ({db.deck_size})")
    policies = ["greedy", "random"] if args.policy == "both" else [args.policy]
    for seats in (int(s) for s in args.seats.split(",")):
        for name in policies:
            report(game, seats, args.games, name)


if __name__ == "__main__":
    main()
