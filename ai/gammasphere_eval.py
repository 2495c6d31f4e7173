"""The Gammasphere evaluation: Power Level, the field, what can attack next turn, and the
resources to play more (gas, Pylons, cards), per seat, minus the opponent's. The weights
live in `ai/weights/gammasphere.toml`.

It reads only what the state may know: the opponent's hand and deck by their sizes.

The search's leaves (`make_search_evaluation`, the registration's `search_evaluation`) value
a position as it will stand once the seat whose turn it is has made the attacks on the board
that pay (`attacks_made`). A search that plans whole turns ends its lines where a turn begins,
so without it every leaf would count the mover's ready attackers as mere stats, blind to what
they are about to destroy. Greedy, which looks one move ahead, reads the position as it
stands: the projection made greedy itself much stronger, and greedy is the measure of the
search (ai/weights/gammasphere.toml).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ai.evaluation import WEIGHTS_DIR, read_weights, relative, terminal_value, weighted
from ai.tuning import SCALE, OwnDecks
from p2pcards.engine import State
from p2pcards.games.gammasphere.cards import BATTLE_PROOF, CANNOT_ATTACK, UNATTACKABLE
from p2pcards.games.gammasphere.state import (
    ATTACK_MODE,
    AttackDefense,
    GammaState,
    SeatTotals,
    seat_totals_of,
)

GAMMA_FEATURES = (
    "power", "danger", "attack", "defense", "buildings", "pylons", "gas", "hand", "deck",
    "kills", "tempo", "direct", "lethal", "pressure",
)  # fmt: skip


@dataclass(frozen=True)
class GammaWeights:
    """Weights of the evaluation, in the order of GAMMA_FEATURES, and its scale."""

    vector: tuple[float, ...]
    scale: float

    @classmethod
    def load(cls, path: Path = WEIGHTS_DIR / "gammasphere.toml") -> GammaWeights:
        """The weights in a TOML file, every one required."""
        values = read_weights(path, [*GAMMA_FEATURES, "scale"])
        return cls(tuple(values[name] for name in GAMMA_FEATURES), values["scale"])


def gamma_features(
    state: GammaState, seat: int, stats: dict[int, AttackDefense] | None = None
) -> tuple[float, ...]:
    """One seat's features (GAMMA_FEATURES), in thousands where they are Power-Level-like;
    `stats`: `state.field_stats()`, if the caller has it."""
    return both_features(state, state.field_stats() if stats is None else stats)[seat]


BASIC = GAMMA_FEATURES.index("kills")
"""The features of one seat's own position alone (those before `kills`)."""


def basic_features(totals: SeatTotals) -> tuple[float, ...]:
    """One seat's first BASIC features, as `both_features` has them, from its
    `state.seat_totals()`."""
    power = totals.power
    danger = 3000 - power
    return (
        power / 1000,
        (danger if danger > 0 else 0) / 1000,  # max() without the call: every leaf
        totals.attack / 1000,
        totals.defense / 1000,
        totals.walls / 1000,
        float(totals.pylons),
        totals.gas / 1000,
        float(totals.hand),
        float(totals.deck),
    )


def basic_score(vector: tuple[float, ...], totals: SeatTotals) -> float:
    """`weighted(vector, basic_features(totals))` without the features' tuple or the sum's
    map: what a search with the shipped weights reads at every leaf, twice. The same terms in
    the same order, so the same float."""
    power, gas, pylons, hand, deck, attack, defense, walls = totals
    danger = 3000 - power
    return (
        vector[0] * (power / 1000)
        + vector[1] * ((danger if danger > 0 else 0) / 1000)
        + vector[2] * (attack / 1000)
        + vector[3] * (defense / 1000)
        + vector[4] * (walls / 1000)
        + vector[5] * pylons
        + vector[6] * (gas / 1000)
        + vector[7] * hand
        + vector[8] * deck
    )


def both_features(
    state: GammaState,
    stats: dict[int, AttackDefense],
    totals: tuple[SeatTotals, SeatTotals] | None = None,
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Both seats' features (GAMMA_FEATURES); `stats`: `state.field_stats()`, `totals`
    `state.seat_totals()` if the caller has them (both come of one pass: `seat_totals(stats)`).
    (Where the weights after the first BASIC are 0, a search reads only those first BASIC
    features, at every leaf: `GammaEvaluation`.)"""
    guards: list[list[int]] = []  # each character's stat an attack must beat, by its mode
    guarded: list[bool] = []  # whether anything of the seat's is in play to be attacked
    strongest: list[int] = []  # the most attack of the seat's characters in Attack Mode
    weakest: list[int] = []  # the least attack of the seat's characters in Attack Mode, or 0
    for seat in (0, 1):
        characters, buildings = state.field_kinds(seat)
        guard = []
        most = least = 0
        for slot in characters:
            slot_attack, slot_defense = stats[slot]
            if state.mode(slot) == ATTACK_MODE:
                if slot_attack > most:  # max() without the call: every leaf of a search
                    most = slot_attack
                if not least or slot_attack < least:
                    least = slot_attack
                guard.append(slot_attack)
            else:
                guard.append(slot_defense)
        guards.append(guard)
        guarded.append(bool(characters or buildings))
        strongest.append(most)
        weakest.append(least)
    out = []
    turn = state.turn_seat()
    for seat, own in enumerate(state.seat_totals() if totals is None else totals):
        other = 1 - seat
        attack, most = own.attack, strongest[seat]
        # the opponent's characters our strongest attacker would destroy
        kills = float(sum(1 for guard_stat in guards[other] if guard_stat < most))
        # What our attackers would take off the opponent's Power Level unopposed, when the
        # opponent has nothing in play to guard it (rules.md, choice 13), and whether that
        # ends the game: a threat greedy games seldom show, which the search must weigh.
        direct = pressure = 0.0
        if attack and not guarded[other]:
            direct = attack / 1000
        elif weakest[other] and most > weakest[other]:
            # Our strongest attacker against their weakest in Attack Mode: the difference
            # comes off their Power Level (rules.md, choice 11).
            pressure = (most - weakest[other]) / 1000
        extras = (
            kills,
            1.0 if seat == turn else 0.0,
            direct,
            1.0 if direct and attack >= state.power(other) else 0.0,
            pressure,
        )
        out.append(basic_features(own) + extras)
    return out[0], out[1]


def attacks_made(
    state: GammaState,
    stats: dict[int, AttackDefense],
    keywords: dict[int, int],
    totals: tuple[SeatTotals, SeatTotals],
    vector: tuple[float, ...],
) -> tuple[SeatTotals, SeatTotals]:
    """`totals` (`state.seat_totals(stats, keywords)`) once the seat whose turn it is has made the
    attacks its ready characters can make without losing (rules.md, choices 10-13, 27): the
    opponent's characters that can be attacked, the one worth most first (by `vector`'s
    weights of attack and defense), each fall to the weakest attacker that beats it (an
    equal attack against Attack Mode trades both); once none stands, the buildings the same
    way; once nothing guards, the attackers left hit the player. Cards played or abilities
    used before the attacks are not foreseen, nor an attack that loses (the attacker's own
    Power Level would pay)."""
    if state.turn() <= 1:  # no attacks on the game's first turn (choice 3)
        return totals
    mover = state.turn_seat()
    attackers = []  # a loop, not a generator: every leaf
    for s in state.field_kinds(mover)[0]:
        if state.mode(s) == ATTACK_MODE and not state.tapped(s) and not keywords[s] & CANNOT_ATTACK:
            attackers.append(stats[s])
    if not attackers:
        return totals
    attackers.sort()
    w_attack, w_defense = vector[2], vector[3]
    their_chars, their_walls = state.field_kinds(1 - mover)
    guards = []
    for slot in their_chars:
        if keywords[slot] & UNATTACKABLE:
            continue
        attack, defense = stats[slot]
        attacking = state.mode(slot) == ATTACK_MODE
        worth = w_defense * defense + (w_attack * attack if attacking else 0.0)
        guards.append((worth, attack if attacking else defense, attacking, slot, defense))
    guards.sort(reverse=True)
    lost_attack = lost_defense = lost_walls = damage = 0
    my_attack = my_defense = 0
    standing = False  # a guard no attacker beats: the rest of the field stays guarded
    for _, bar, attacking, slot, guard_defense in guards:
        if keywords[slot] & BATTLE_PROOF:
            standing = True
            continue
        for i, (attack, defense) in enumerate(attackers):
            if attack > bar or (attack == bar and attacking):
                del attackers[i]
                lost_defense += guard_defense
                if attacking:  # its attack is the bar
                    lost_attack += bar
                    damage += attack - bar
                    if attack == bar:  # equal attacks: both fall (choice 10)
                        my_attack += attack
                        my_defense += defense
                break
        else:
            standing = True
    if not standing and their_walls:
        defenses = []
        for s in their_walls:
            if not keywords[s] & UNATTACKABLE:
                _, wall = stats[s]
                defenses.append(wall)
        defenses.sort(reverse=True)
        for wall in defenses:
            for i, (attack, _) in enumerate(attackers):
                if attack > wall:
                    del attackers[i]
                    lost_walls += wall
                    break
            else:
                standing = True
        standing = standing or len(defenses) < len(their_walls)
    if not standing:
        damage += sum(attack for attack, _ in attackers)
    if not (lost_attack or lost_defense or lost_walls or damage or my_attack):
        return totals
    out = list(totals)
    power, gas, pylons, hand, deck, attack, defense, walls = totals[1 - mover]
    power -= damage
    out[1 - mover] = seat_totals_of(
        (
            power if power > 0 else 0, gas, pylons, hand, deck,
            attack - lost_attack, defense - lost_defense, walls - lost_walls,
        )
    )  # fmt: skip
    if my_attack:
        power, gas, pylons, hand, deck, attack, defense, walls = totals[mover]
        out[mover] = seat_totals_of(
            (power, gas, pylons, hand, deck, attack - my_attack, defense - my_defense, walls)
        )
    return out[0], out[1]


class GammaEvaluation:
    """Each seat's weighted features minus the opponent's, in evaluation units."""

    def __init__(self, weights: GammaWeights, *, threat: bool = False) -> None:
        """`threat`: value a position once the seat to move has made its attacks."""
        self.weights = weights
        # The features after the first BASIC read the opponent's field against ours, most of
        # a leaf's work; at weight 0 (the shipped weights) they add nothing to a score, so
        # they are left out of it (a sum of the same terms, zeros aside: the same value).
        self._basic = not any(weights.vector[BASIC:])
        self._basic_vector = weights.vector[:BASIC]
        self._threat = threat

    def values(self, state: State) -> list[float]:
        """Both seats' values; terminal states by their returns."""
        assert isinstance(state, GammaState)
        if state.is_terminal():
            return [terminal_value(state, s) for s in range(2)]
        if self._basic:
            vector = self._basic_vector
            if self._threat:
                stats: dict[int, AttackDefense] = {}
                keywords: dict[int, int] = {}
                totals = state.seat_totals(stats, keywords)
                mine, theirs = attacks_made(state, stats, keywords, totals, vector)
            else:
                mine, theirs = state.seat_totals()
            scores = [basic_score(vector, mine), basic_score(vector, theirs)]
            return relative(scores, self.weights.scale)
        vector = self.weights.vector
        stats, keywords = {}, {}
        totals = state.seat_totals(stats, keywords)  # one pass for all three
        first, second = both_features(state, stats, totals)
        if self._threat:  # the seat's own features after the attacks, the rest as before
            mine, theirs = attacks_made(state, stats, keywords, totals, vector)
            first = basic_features(mine) + first[BASIC:]
            second = basic_features(theirs) + second[BASIC:]
        scores = [weighted(vector, first), weighted(vector, second)]
        return relative(scores, self.weights.scale)


def make_evaluation(path: Path | None = None) -> GammaEvaluation:
    """The evaluation with the shipped weights, or those of the file `path`."""
    return GammaEvaluation(GammaWeights.load() if path is None else GammaWeights.load(path))


def make_search_evaluation(path: Path | None = None) -> GammaEvaluation:
    """The search's leaf evaluation: `make_evaluation`'s, once the mover has attacked."""
    return GammaEvaluation(make_evaluation(path).weights, threat=True)


FIT = OwnDecks(
    "gammasphere", "Gammasphere", "ai/gammasphere_eval.py", GammaState, gamma_features,
    GammaWeights.load, lambda st: True,
)  # fmt: skip
_FITTED = FIT.tuning(
    GAMMA_FEATURES,
    {
        "power": "per 1000 Power Level",
        "danger": "per 1000 Power Level under 3000, on top of `power`",
        "attack": "per 1000 attack of characters in Attack Mode",
        "defense": "per 1000 defense of characters",
        "buildings": "per 1000 defense of buildings",
        "pylons": "per Pylon",
        "gas": "per 1000 gas",
        "hand": "per card in hand",
        "deck": "per card left in the deck (running out loses)",
        "kills": "per character of the opponent's that our strongest attacker would destroy",
        "tempo": "for the seat whose turn it is",
        "direct": "per 1000 attack in Attack Mode when the opponent has nothing in play to guard",
        "lethal": "when that direct attack would end the game",
        "pressure": "per 1000 attack our strongest has over their weakest in Attack Mode",
    },
)
TUNING = dataclasses.replace(
    _FITTED,
    # A fit reads the features as the position stands (no attacks made): so its file says.
    settings=lambda _: {"scale": SCALE, "threat": 0.0},
)
"""How scripts/tune_weights.py fits the weights (the registration's `tuning`)."""
