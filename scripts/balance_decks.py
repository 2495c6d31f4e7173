"""The balance table of a game's shipped decks: greedy against greedy, every pair and mirror.

    .venv/bin/python scripts/balance_decks.py [--game rise-of-the-guys] [--games 1000]
                                              [--decks a,b,...] [--focus DECK] [--jobs 2]
                                              [--no-mirrors]

For every two decks, `--games` games with the decks swapping seats every game (each deal is
played twice, once from each side), and the score of the row's deck against the column's
with a 95% Wilson interval; then each deck's overall score and, in `--games` mirror games
of each deck, seat 0's score (the first player's edge). Issue 28's targets: no deck below
40% against any other, seat 0 between 45% and 55% in every mirror (`--no-mirrors` leaves the
mirrors out, for a game whose issue asks only the pairs: RPG Get!'s, issue 25). Both seats are
greedy, each game seeded by its number, so the table is the same on every run.
"""

import argparse
import functools
import itertools
import os
from concurrent.futures import ProcessPoolExecutor

from ai.match import play_match
from ai.ratings import wilson
from p2pcards import games
from p2pcards.decks import OwnDecksBase


def seat_returns(game: str, decks: tuple[str, str], seed: int) -> tuple[float, ...]:
    """One greedy game, decks[s] in seat s, seeded by `seed`: the seats' returns."""
    result = play_match(game, ["greedy", "greedy"], seed, options={"decks": list(decks)})
    if result.status != "ok":
        raise RuntimeError(f"game {seed} ({decks}) ended by {result.status}: {result.error}")
    return result.returns


def pair_score(game: str, first: str, second: str, count: int, pool: ProcessPoolExecutor) -> float:
    """`first`'s score against `second` over `count` games, the seats swapped every game and
    each deal played from both sides."""
    seatings = [((first, second) if i % 2 == 0 else (second, first)) for i in range(count)]
    seeds = [i // 2 for i in range(count)]
    returns = pool.map(functools.partial(seat_returns, game), seatings, seeds, chunksize=20)
    return sum(r[0] if i % 2 == 0 else r[1] for i, r in enumerate(returns))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="rise-of-the-guys")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--decks", default="", help="comma-separated; default every shipped deck")
    parser.add_argument("--focus", help="only this deck's pairs and mirror (to try a change)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--mirrors", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    loaded = games.load(args.game)
    if not isinstance(loaded, OwnDecksBase):
        parser.error(f"{args.game} is not a game of own decks")
    decks = [d for d in args.decks.split(",") if d] or sorted(loaded.decks)
    overall = {deck: 0.0 for deck in decks}
    with ProcessPoolExecutor(args.jobs) as pool:
        pairs = [(a, b) for a, b in itertools.combinations(decks, 2) if args.focus in (None, a, b)]
        for first, second in pairs:
            score = pair_score(args.game, first, second, args.games, pool)
            overall[first] += score
            overall[second] += args.games - score
            low, high = wilson(score, args.games)
            print(
                f"{first} vs {second}: {score:g}/{args.games} = {score / args.games:.1%} "
                f"[95% {low:.1%}, {high:.1%}]",
                flush=True,
            )
        for deck in decks if args.focus is None else [args.focus]:
            total = args.games * (len(decks) - 1)
            if total:  # a lone deck plays its mirror only
                print(f"{deck} overall: {overall[deck] / total:.1%} of {total} games", flush=True)
        for deck in (decks if args.focus is None else [args.focus]) if args.mirrors else []:
            mirror = pool.map(
                functools.partial(seat_returns, args.game, (deck, deck)),
                range(args.games),
                chunksize=20,
            )
            first_seat = sum(r[0] for r in mirror)
            low, high = wilson(first_seat, args.games)
            print(
                f"{deck} mirror: seat 0 scores {first_seat / args.games:.1%} "
                f"[95% {low:.1%}, {high:.1%}]",
                flush=True,
            )


if __name__ == "__main__":
    main()
