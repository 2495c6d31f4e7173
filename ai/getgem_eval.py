"""The GETGEM evaluation: how close each seat is to showing fire, water and thunder.

Per seat, a weighted sum of features (GETGEM_FEATURES), minus the strongest
opponent's: the race is won by one seat, so what counts is the lead over the
nearest rival. The weights live in `ai/weights/getgem.toml`.

A card this state cannot see (another seat's hidden hand, in a replica) counts by
the share of each kind among the cards it has not seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ai.defaults import DEFAULT_ROUND_CAP
from ai.evaluation import WEIGHTS_DIR, read_weights, relative, terminal_value, weighted
from ai.tuning import SCALE, Outcome, Tuning, constraints
from p2pcards import games
from p2pcards.engine import Game, State
from p2pcards.games.getgem import GetGemGame, GetGemState

ELEMENTS = ("fire", "water", "thunder")
GETGEM_FEATURES = (
    "coverage",  # of fire, water and thunder, how many the hand, laid cards and elements show
    "complete",  # 1 when they show all three: a declaration is possible
    "elements",  # element cards held (a theft cannot take them at random)
    "declared",  # a running declaration: 1 once laid, +1 for each laid card taken back
    "gems",  # gems that can pay for a take or an element card
    "actions",  # action cards in hand
    "barrier",  # Barrier cards in hand
    "cursed",  # 1 when a curse gem voids rainbows held
    "hand",  # cards in hand
    "curse",  # the curse gem held (it can never be discarded: the game's Old Maid)
    "ready",  # `declared` when the three gems are shown too: a victory check coming that wins
)


@dataclass(frozen=True)
class GetgemWeights:
    """Weights of the GETGEM evaluation, in the order of GETGEM_FEATURES, and its scale."""

    vector: tuple[float, ...]
    scale: float

    @classmethod
    def load(cls, path: Path = WEIGHTS_DIR / "getgem.toml") -> GetgemWeights:
        """The weights in a TOML file, every one required."""
        values = read_weights(path, [*GETGEM_FEATURES, "scale"])
        return cls(tuple(values[name] for name in GETGEM_FEATURES), values["scale"])


_GEM_INDEX = {gem: i for i, gem in enumerate((*ELEMENTS, "rainbow", "curse"))}
RAINBOW, CURSE = 3, 4
_TABLES: dict[Game, dict[str, tuple[int, bool]]] = {}


def _card_table(game: Game) -> dict[str, tuple[int, bool]]:
    """Per card id: its gem's index (-1 for an action card) and whether it can be a Barrier."""
    table = _TABLES.get(game)
    if table is None:
        assert isinstance(game, GetGemGame)
        table = _TABLES[game] = {
            card.id: (-1 if card.gem is None else _GEM_INDEX[card.gem], "barrier" in card.effects)
            for card in game.db.cards
        }
    return table


def getgem_features(state: GetGemState, seat: int) -> tuple[float, ...]:
    """One seat's features (GETGEM_FEATURES), unknown cards counted by expectation."""
    table = _card_table(state.game)
    gems = [0.0] * len(_GEM_INDEX)
    actions = barrier = 0.0
    unknown = 0
    for card in state.hand(seat):
        if card is None:
            unknown += 1
            continue
        gem, shields = table[card]
        if gem >= 0:
            gems[gem] += 1
        else:
            actions += 1
            barrier += shields
    laid = state.laid(seat)
    for card in laid:
        gem = table[card][0]
        if gem >= 0:
            gems[gem] += 1
    if unknown:
        unseen = state.unseen_cards()
        total = sum(unseen.values()) or 1
        for card, count in unseen.items():
            share = unknown * count / total
            gem, shields = table[card]
            if gem >= 0:
                gems[gem] += share
            else:
                actions += share
                barrier += share * shields
    elements = state.elements(seat)
    cursed = min(1.0, gems[CURSE]) if state.character(seat) != "priest" else 0.0
    rainbows = gems[RAINBOW] * (1.0 - cursed)
    shown = missing = 0.0
    for e, name in enumerate(ELEMENTS):
        if name in elements:
            shown += 1.0
        else:
            held = min(1.0, gems[e])
            shown += held
            missing += 1.0 - held
    coverage = shown + min(rainbows, missing)
    complete = 1.0 if coverage >= 3.0 else 0.0
    declared = float(4 - len(laid)) if laid else 0.0
    return (
        coverage,
        complete,
        float(len(elements)),
        declared,
        gems[0] + gems[1] + gems[2] + gems[RAINBOW],
        actions,
        barrier,
        cursed if gems[RAINBOW] > 0 else 0.0,
        float(state.hand_size(seat)),
        min(1.0, gems[CURSE]),
        declared * complete,
    )


class GetgemEvaluation:
    """Each seat's weighted features minus the strongest opponent's, in evaluation units."""

    def __init__(self, weights: GetgemWeights) -> None:
        self.weights = weights

    def values(self, state: State) -> list[float]:
        """Every seat's value; terminal states by their returns."""
        assert isinstance(state, GetGemState)
        n = state.num_players
        if state.is_terminal():
            return [terminal_value(state, s) for s in range(n)]
        vector = self.weights.vector
        scores = [weighted(vector, getgem_features(state, s)) for s in range(n)]
        return relative(scores, self.weights.scale)


def make_evaluation(path: Path | None = None) -> GetgemEvaluation:
    """The evaluation with the shipped weights, or those of the file `path`."""
    return GetgemEvaluation(GetgemWeights.load() if path is None else GetgemWeights.load(path))


# The fit (scripts/tune_weights.py): two-seat games, features of the complete state, which is
# what the search evaluates (its worlds are determinized: every hand dealt).


def _start(number: int) -> State:
    """A two-seat GETGEM game."""
    return games.load("getgem").new_initial_state(2, round_cap=DEFAULT_ROUND_CAP)


def _sampled(state: State) -> bool:
    """Every decision of the seat whose turn it is, in its action phase."""
    assert isinstance(state, GetGemState)
    return state.phase() == "action"


def _difference(state: State, _: float) -> list[float]:
    """Seat 0's features minus seat 1's."""
    assert isinstance(state, GetGemState)
    mine, theirs = getgem_features(state, 0), getgem_features(state, 1)
    return [a - b for a, b in zip(mine, theirs, strict=True)]


def _current(path: Path) -> tuple[float, list[float]]:
    """The file's weights in log-odds (no hyperparameter)."""
    weights = GetgemWeights.load(path)
    return 0.0, [v * weights.scale / SCALE for v in weights.vector]


def _header(outcome: Outcome) -> list[str]:
    """The weights file's comment."""
    return [
        "# Weights of the GETGEM evaluation (ai/getgem_eval.py), in log-odds of winning per",
        "# unit of each feature, times `scale`. Fitted by scripts/tune_weights.py",
        f"#     {outcome.command}",
        f"# to {outcome.games} two-seat {outcome.players()} games (epsilon {outcome.epsilon}),"
        " features of",
        f"# the complete state; held-out log-loss {outcome.loss:.4f}{outcome.replaced()}.",
        *constraints(outcome),
    ]


TUNING = Tuning(
    features=GETGEM_FEATURES,
    hyper="",
    candidates=(0.0,),
    start=_start,
    sampled=_sampled,
    difference=_difference,
    current=_current,
    settings=lambda _: {"scale": SCALE},
    header=_header,
    notes={},
    # Left free, a fit to self-play put the curse gem above 0 (pushed to whoever leads, it
    # comes with leading): what helps a seat is held to help it, the curse to hurt it.
    signs={
        **dict.fromkeys(
            ("coverage", "complete", "elements", "declared", "gems", "actions", "ready"),
            "nonnegative",
        ),
        "cursed": "nonpositive",
        "curse": "nonpositive",
    },
)
"""How scripts/tune_weights.py fits the weights (the registration's `tuning`)."""
