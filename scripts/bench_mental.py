"""Mental-poker costs: shuffle and lock, reveal, audit, and a modular-exponentiation baseline.

    .venv/bin/python scripts/bench_mental.py [--seats 2,4,8] [--cards 100] [--baseline-cards N]

For each seat count, every seat is a real `MentalPeer` in this process and every
message is signed, sent, verified and decoded, so the CPU times are the whole
table's (all peers together). The baseline runs the same two-phase shuffle
(mask and permute, then a mask per card) with 2048-bit modular exponentiation
in RFC 3526 group 14, as classic SRA mental poker does, on the same pile.
Targets (issue 3): 4 seats x 100 cards shuffled and locked in under 0.5 s of
CPU in total; at least 100x faster than the modular-exponentiation baseline.

The floor (issue 13): a shuffle of N cards by S seats is 3·N·S scalar
multiplications (mask and permute; take the pile mask off; put a card mask on),
so its floor is that many times the cost of one multiplication by a fresh scalar,
measured here; target: the whole shuffle (signatures, messages and all) within
1.15x of it at 4 seats x 100 cards. `--audit` also times the audit of whole
4-seat games of different lengths (target: time per log entry flat: linear).

`--own-decks` (issue 16): a 2-seat Rise of the Guys table commits to, masks and shuffles
both 40-card own decks, the owner of each first (target: at most 0.1 s of CPU for the
table), then a Loot of 3: the top three cards revealed to their owner, put back in the
owner's order and re-masked by it alone (relock), reported in ms; the one-off cost of
hashing the set's card points to the curve is reported apart (it is cached per process).
"""

import argparse
import secrets
import time

from ai.agents import make_agent
from protocol.audit import audit
from protocol.curve import Mask, hash_to_point
from protocol.inprocess import TableMesh, make_peers, run_everywhere
from protocol.mental import ShuffleSecrets, mask_and_permute, remask

# RFC 3526, 2048-bit MODP group 14.
MODP_2048 = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879"
    "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B"
    "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA4836"
    "1C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804"
    "F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6"
    "955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)


def cpu(fn: object) -> float:
    """CPU seconds `fn()` takes."""
    start = time.process_time()
    fn()  # type: ignore[operator]
    return time.process_time() - start


def modexp_shuffle(seats: int, cards: int) -> float:
    """CPU seconds of the two-phase shuffle with modular exponentiation (no messages)."""
    order = MODP_2048 - 1

    def key() -> tuple[int, int]:
        while True:  # an exponent invertible mod p-1, so a layer can come off again
            k = secrets.randbelow(order - 3) + 3
            try:
                return k, pow(k, -1, order)
            except ValueError:
                continue

    pile = [pow(2, i + 2, MODP_2048) for i in range(cards)]

    def run() -> None:
        nonlocal pile
        keys = [key() for _ in range(seats)]
        for k, _ in keys:  # phase 1: mask and permute
            pile = [pow(x, k, MODP_2048) for x in pile]
            secrets.SystemRandom().shuffle(pile)
        for _, k_inverse in keys:  # phase 2: swap the pile mask for per-card masks
            pile = [pow(pow(x, k_inverse, MODP_2048), key()[0], MODP_2048) for x in pile]

    return cpu(run)


def curve_shuffle_math(seats: int, points: list[bytes]) -> float:
    """CPU seconds of the same two-phase shuffle with X25519 masks (no messages)."""

    def run() -> None:
        pile = tuple(points)
        contributions = [ShuffleSecrets.random(len(points)) for _ in range(seats)]
        for secret in contributions:
            pile = mask_and_permute(pile, secret)
        for secret in contributions:
            pile = remask(pile, secret)

    return cpu(run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default="2,4,8")
    parser.add_argument("--cards", type=int, default=100)
    parser.add_argument(
        "--baseline-cards", type=int, default=None,
        help="pile size for the slow baseline (default: --cards); the ratio compares equal piles",
    )  # fmt: skip
    parser.add_argument(
        "--audit", action="store_true", help="also time audits of 4-seat games of growing length"
    )
    parser.add_argument(
        "--own-decks", action="store_true", help="only the own-deck figures of issue 16"
    )
    args = parser.parse_args()
    if args.own_decks:
        own_decks()
        return
    points = [hash_to_point("bench", "card", i) for i in range(args.cards)]
    Mask.random()  # warm up
    one = multiplication_cost(points)
    print(
        f"{args.cards}-card pile; CPU seconds for the whole table (all peers together); one "
        f"multiplication by a fresh scalar {one * 1e6:.1f} µs"
    )
    for seats in (int(s) for s in args.seats.split(",")):
        print(measure(seats, points, args.baseline_cards or args.cards, one))
    if args.audit:
        audit_growth()


def own_decks(rounds: int = 10) -> None:
    """Issue 16's figures: two own decks shuffled, and a Loot of 3 with a private reorder."""
    from p2pcards import games
    from protocol.mental_dealer import card_points

    game = games.load("rise-of-the-guys")
    start = time.process_time()
    points = card_points(game)
    hashing = time.process_time() - start
    decks = [points[0:160:4], points[160:320:4]]  # forty different cards each
    shuffles, loots = [], []
    for _ in range(rounds):
        peers, bus = make_peers(2, points)
        began = time.process_time()
        first = -1
        for owner in (0, 1):
            step = run_everywhere(
                bus,
                lambda p, o=owner: p.shuffle_own_deck(  # type: ignore[misc]
                    o, 40, decks[o] if p.seat == o else ()
                ),
            )[0]
            first = step if first < 0 else first
        shuffles.append(time.process_time() - began)
        top = peers[0].shuffled_cards(first)[-3:][::-1]
        began = time.process_time()
        for card in top:
            run_everywhere(bus, lambda p, c=card: p.reveal(c, {0}))  # type: ignore[misc]
        run_everywhere(
            bus,
            lambda p, t=top: p.relock(0, t, (2, 0, 1) if p.seat == 0 else None),  # type: ignore[misc]
        )
        loots.append(time.process_time() - began)
    print(
        f"Rise of the Guys, 2 seats, CPU for the whole table over {rounds} tables: commit, mask "
        f"and shuffle both 40-card own decks {min(shuffles):.3f} s best, "
        f"{sum(shuffles) / rounds:.3f} s mean (target 0.1 s); a Loot of 3 with its private "
        f"reorder {min(loots) * 1000:.1f} ms best, {sum(loots) / rounds * 1000:.1f} ms mean; "
        f"hashing the set's {len(points)} card points once {hashing:.3f} s"
    )


def multiplication_cost(points: list[bytes], count: int = 2000) -> float:
    """CPU seconds of one scalar multiplication by a scalar not used before (its key object
    made, then the exchange): the unit of the shuffle's floor."""
    masks = Mask.many(count)
    start = time.process_time()
    for mask, point in zip(masks, points * (count // len(points) + 1), strict=False):
        mask.apply(point)
    return (time.process_time() - start) / count


def audit_growth(games: int = 8) -> None:
    """The audit's time per logged entry over 4-seat GETGEM games of different lengths
    (random play: each game ends when someone wins, some soon, some late)."""
    rows = []
    for seed in range(games):
        agents = [make_agent("random", seed * 10 + s) for s in range(4)]
        mesh = TableMesh("getgem", agents, {"round_cap": 400}, seed=seed, shuffle_seed=seed)
        mesh.run()
        peer = mesh.peers[0].mental
        start = time.process_time()
        verdict = audit(peer.log, peer.table_id, 4, peer.encryption_keys)
        took = time.process_time() - start
        assert verdict == [], verdict
        rows.append((len(peer.log), len(peer.ops), took))
    for entries, ops, took in sorted(rows):
        print(
            f"audit, 4-seat getgem: {ops:5} operations, {entries:6} log entries, "
            f"{took:6.3f} s, {took / entries * 1e6:6.1f} µs an entry"
        )


def measure(seats: int, points: list[bytes], baseline_cards: int, one: float) -> str:
    """One line of figures for a table of `seats`."""
    peers, bus = make_peers(seats, points)
    start = time.process_time()
    step = run_everywhere(bus, lambda p: p.shuffle(points))[0]
    shuffle = time.process_time() - start
    cards = peers[0].shuffled_cards(step)
    start = time.process_time()
    run_everywhere(bus, lambda p: p.reveal(cards[0], {seats - 1}))
    reveal = time.process_time() - start
    start = time.process_time()
    run_everywhere(bus, lambda p: p.disclose())
    disclose = time.process_time() - start
    peer = peers[0]
    start = time.process_time()
    verdict = audit(peer.log, peer.table_id, seats, peer.encryption_keys)
    audit_time = time.process_time() - start
    assert verdict == [], verdict
    curve_math = curve_shuffle_math(seats, points[:baseline_cards])
    modexp = modexp_shuffle(seats, baseline_cards)
    floor = 3 * len(points) * seats * one
    return (
        f"{seats} seats: shuffle+lock {shuffle:6.3f} s, {shuffle / floor:4.2f}x its floor of "
        f"{floor:5.3f} s | reveal to one seat "
        f"{reveal * 1000:6.2f} ms | disclose {disclose:5.3f} s + audit {audit_time:5.3f} s "
        f"(one peer) | {baseline_cards}-card shuffle math: X25519 {curve_math:6.3f} s, "
        f"modexp-2048 {modexp:7.2f} s, ratio {modexp / curve_math:5.0f}x"
    )


if __name__ == "__main__":
    main()
