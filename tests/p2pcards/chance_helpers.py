"""Chance outcomes a test chooses, and the test that many of them fall as chance says.

The collectible games pick at random through the dealer: a random target is a roll (`Roll`,
a number below the count of candidates), a random discard a pick (`Pick`, a position in the
hand). A test sets the number itself to check that it is what chooses the card, and samples
many with a seeded `LocalDealer` to check that every candidate comes up as often as it should.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable

from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, State
from p2pcards.zones import Pick, Roll

# The chi-square statistic's 99.9th percentile by degrees of freedom: a fair dealer exceeds
# it once in a thousand seeds, and the seed is fixed, so a failure means a biased choice.
CHI_SQUARE_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46}
SAMPLES = 600


def numbered(state: State, number: int) -> Action:
    """At a roll, the roll of `number`; at a random pick, the pick of position `number`."""
    for outcome, _ in state.chance_outcomes():
        if isinstance(outcome, Roll) and outcome.value == number:
            return outcome
        if isinstance(outcome, Pick) and outcome.position == number:
            return outcome
    raise AssertionError(f"no roll or pick numbered {number} at this chance node")


def sides(state: State) -> int:
    """How many numbers the roll or pick the state is at may give."""
    numbers = set()
    for outcome, _ in state.chance_outcomes():
        assert isinstance(outcome, Roll | Pick), outcome
        numbers.add(outcome.value if isinstance(outcome, Roll) else outcome.position)
    return len(numbers)


def is_random_choice(state: State) -> bool:
    """Whether the state waits for a roll or a random pick (not a draw or a look)."""
    return state.is_chance_node() and state.chance_move().kind in ("roll", "take")


def sample(
    state: State, observe: Callable[[State], Hashable], seed: int, samples: int = SAMPLES
) -> Counter[Hashable]:
    """What `observe` sees once the dealer (seeded) has settled the rolls and random picks
    that wait at `state`, counted over `samples` plays from the same position."""
    dealer = LocalDealer(seed)
    seen: Counter[Hashable] = Counter()
    for _ in range(samples):
        s = state.clone()
        while is_random_choice(s):
            s.apply_action(dealer.sample(s))
        seen[observe(s)] += 1
    return seen


def assert_uniform(seen: Counter[Hashable], expected: list[Hashable]) -> None:
    """Every expected result came up, nothing else did, and the counts pass a chi-square
    test of equal chances (at the 0.1% level)."""
    assert set(seen) == set(expected), f"seen {dict(seen)}, expected each of {expected}"
    total = sum(seen.values())
    mean = total / len(expected)
    chi2 = sum((seen[e] - mean) ** 2 / mean for e in expected)
    bound = CHI_SQUARE_999[len(expected) - 1]
    assert chi2 < bound, f"chi-square {chi2:.1f} >= {bound} over {dict(seen)}"
