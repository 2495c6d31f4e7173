"""Booster packs and sealed decks (issue 15; Rise of the Guys' rulebook line 237: a booster is
5 commons, 3 rares, 1 epic and 1 of any rarity; rules.md, "Sealed"): p2pcards/boosters.py,
p2pcards/sealed.py and the deck file writer of p2pcards/decks.py."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from p2pcards.boosters import ANY, BoosterError, PackLayout, open_boosters, pool_of
from p2pcards.decks import DeckError, DeckList, deck_problems, format_deck, parse_deck
from p2pcards.games.rise_of_the_guys import BOOSTER, DECK_RULES, GAME
from p2pcards.sealed import SealedGame, build_sealed_deck, sealed_deck

DB = GAME.db
RARITY = {card.id: card.rarity for card in DB.cards}


def _usable(pool: dict[str, int], classes: set[str]) -> int:
    """Copies of the pool a deck of these classes may hold (at most 4 of a card)."""
    return sum(
        min(n, DECK_RULES.max_copies)
        for card, n in pool.items()
        if classes.issuperset(DB.by_id[card].classes)
    )


def test_a_pack_is_five_commons_three_rares_one_epic_and_one_of_any_rarity() -> None:
    """Line 237, in slot order; a card at most once a pack; tokens never, though the opener
    is given every card of the database, tokens too."""
    assert BOOSTER.size == 10 and BOOSTER.sealed_packs == 10
    assert any(card.token for card in DB.cards)
    packs = open_boosters(DB.cards, BOOSTER, 500, seed=1)
    assert len(packs) == 500
    for pack in packs:
        rarities = [RARITY[card] for card in pack]
        assert rarities[:9] == ["common"] * 5 + ["rare"] * 3 + ["epic"]
        assert rarities[9] in ("common", "rare", "epic")
        assert len(set(pack)) == 10
        assert not any(DB.by_id[card].token for card in pack)
    assert BOOSTER.slot_names() == ("common",) * 5 + ("rare",) * 3 + ("epic", ANY)


def test_the_any_slot_weighs_each_rarity_by_its_card_count() -> None:
    """Rules.md, "Sealed": every card not yet in the pack is as likely, so the any slot is
    common 35/72, rare 25/72, epic 12/72 of the time (40, 28, 13 cards less the 5, 3, 1
    already in the pack)."""
    packs = open_boosters(GAME.booster_cards, BOOSTER, 6000, seed=2)
    seen = Counter(RARITY[pack[9]] for pack in packs)
    for rarity, share in (("common", 35 / 72), ("rare", 25 / 72), ("epic", 12 / 72)):
        assert seen[rarity] / 6000 == pytest.approx(share, abs=0.025), seen
    # Every card of the set is opened at some point: no card is left out of the packs.
    assert set(pool_of(packs)) == {card.id for card in GAME.booster_cards}


def test_the_same_seed_opens_the_same_packs_and_other_seeds_others() -> None:
    """Issue 15: the opener is pure and seeded."""
    first = open_boosters(GAME.booster_cards, BOOSTER, 10, seed=42)
    assert open_boosters(GAME.booster_cards, BOOSTER, 10, seed=42) == first
    assert open_boosters(GAME.booster_cards, BOOSTER, 3, seed=42) == first[:3]
    pools = {tuple(open_boosters(GAME.booster_cards, BOOSTER, 10, seed)) for seed in range(20)}
    assert len(pools) == 20


def test_boosters_that_cannot_be_opened_say_why() -> None:
    """A count below one, and a set with too few cards of a rarity for one pack."""
    with pytest.raises(BoosterError, match="at least one booster"):
        open_boosters(GAME.booster_cards, BOOSTER, 0, seed=1)
    epics = [card for card in GAME.booster_cards if card.rarity == "epic"][:1]
    two_epics = PackLayout(("common", "rare", "epic"), (("epic", 2),), sealed_packs=1)
    with pytest.raises(BoosterError, match="too few epic cards for a pack: 2 needed, 1"):
        open_boosters(epics, two_epics, 1, seed=1)
    with pytest.raises(ValueError, match="bad slot 'mythic'"):
        PackLayout(("common",), (("mythic", 1),), sealed_packs=1)


def test_ten_boosters_always_build_a_legal_deck_within_the_pool() -> None:
    """Lines 117-125 and rules.md, "Sealed": 40 cards, at most 4 of a card, one or two
    classes, no token; and no card used more often than it was opened."""
    assert isinstance(GAME, SealedGame)
    for seed in range(60):
        packs = open_boosters(GAME.booster_cards, BOOSTER, BOOSTER.sealed_packs, seed)
        pool = pool_of(packs)
        deck = sealed_deck(GAME, packs, f"Sealed {seed}", "")
        assert deck_problems(deck, DECK_RULES, DB) == [], seed
        assert deck.size == 40 and deck.game == "rise-of-the-guys"
        for card, n in deck.cards:
            assert n <= pool[card], (seed, card)


def test_seven_boosters_are_enough_and_one_is_not() -> None:
    """Rules.md, "Sealed": 7 boosters have built a deck for every seed tried; 1 booster (10
    cards) never can, and says so."""
    for seed in range(100):
        packs = open_boosters(GAME.booster_cards, BOOSTER, 7, seed)
        assert deck_problems(sealed_deck(GAME, packs, "s", ""), DECK_RULES, DB) == []
    packs = open_boosters(GAME.booster_cards, BOOSTER, 1, seed=3)
    with pytest.raises(DeckError, match=r"the 10 cards opened make no legal deck: it needs 40"):
        sealed_deck(GAME, packs, "s", "")


def test_the_classes_chosen_give_the_most_usable_copies() -> None:
    """Rules.md, "Sealed", step 1: of every one or two classes, the deepest pool."""
    for seed in range(30):
        packs = open_boosters(GAME.booster_cards, BOOSTER, 10, seed)
        pool = pool_of(packs)
        deck = sealed_deck(GAME, packs, "s", "")
        chosen = {c for card, _ in deck.cards for c in DB.by_id[card].classes}
        best = max(
            _usable(pool, set(pair)) for pair in combinations(("comrade", "doodad", "madlad"), 2)
        )
        assert len(chosen) == 2 and _usable(pool, chosen) == best, seed


def test_rarer_then_cheaper_cards_go_in_first() -> None:
    """Rules.md, "Sealed", step 2: a card of the chosen classes left out (copies to spare) is
    never rarer, or as rare and cheaper, than a card put in."""
    rank = {"common": 0, "rare": 1, "epic": 2}

    def order(card: str) -> tuple[int, int, str]:
        return -rank[RARITY[card]], DB.by_id[card].cost, card

    for seed in range(30):
        packs = open_boosters(GAME.booster_cards, BOOSTER, 10, seed)
        pool, deck = pool_of(packs), sealed_deck(GAME, packs, "s", "").counts()
        chosen = {c for card in deck for c in DB.by_id[card].classes}
        spare = [
            card
            for card, n in pool.items()
            if chosen.issuperset(DB.by_id[card].classes) and deck.get(card, 0) < min(n, 4)
        ]
        assert spare, seed  # ten boosters give more than 40 usable copies
        assert max(order(card) for card in deck) <= min(order(card) for card in spare), seed


def test_the_pool_limits_copies_and_the_rules_cap_them() -> None:
    """A card opened once is used once at most; one opened 9 times, 4 times at most."""
    two_classes = [c.id for c in GAME.booster_cards if set(c.classes) <= {"comrade", "madlad"}]
    pool = {card: 1 for card in two_classes}
    pool["robutt"] = 9  # doodad: left out with the third class
    pool["chicken-dance"] = 9
    deck = build_sealed_deck(pool, GAME.booster_cards, DECK_RULES, BOOSTER.rarities, GAME.name)
    assert deck_problems(deck, DECK_RULES, DB) == []
    assert deck.counts().get("chicken-dance", 0) <= 4 and "robutt" not in deck.counts()
    assert all(n == 1 for card, n in deck.cards if card != "chicken-dance")


def test_an_unknown_card_in_the_pool_is_named() -> None:
    with pytest.raises(DeckError, match="'no-such-card', which is no card of rise-of-the-guys"):
        build_sealed_deck(
            {"no-such-card": 40}, DB.cards, DECK_RULES, BOOSTER.rarities, "rise-of-the-guys"
        )


def test_a_deck_written_as_toml_reads_back_the_same() -> None:
    """format_deck writes what parse_deck reads, whatever the text holds."""
    deck = DeckList(
        "sealed", 'Sealed "7" \\ é', "rise-of-the-guys", (("robutt", 4), ("smack", 2)),
        archetype="tempo", description='line\nbreak, tab\t, del \x7f, astral 😀, "quotes"',
    )  # fmt: skip
    text = format_deck(deck)
    assert "[cards]\nrobutt = 4\nsmack = 2\n" in text
    assert parse_deck(text.encode(), "x.toml", "sealed") == deck
