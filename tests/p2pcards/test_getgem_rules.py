"""The rules of GETGEM, rule by rule and card by card, against the rulebook.

Rulebook: ../shared/seeds/001_8f4b08e2e7b8d5ce.txt; each test cites the line it checks
(`cat -n` numbering). Where the book is silent, the engine's choice is cited as
"our choice (rules.md §N)": the numbered list in p2pcards/games/getgem/rules.md (also
docs/rules/getgem.md). Every position is built through the public API, and the test decides
every chance outcome.
"""

from __future__ import annotations

import pytest
from getgem_helpers import (
    DEAL,
    GAME,
    HAND_LIMIT,
    QTY,
    accept,
    apply,
    deal,
    end_turn,
    filler,
    named,
    new_state,
    setup,
    take,
)
from replica_helpers import laid_open, told

from p2pcards import CHANCE, TERMINAL
from p2pcards.engine import Action, Sighting
from p2pcards.errors import ActionFormatError, GameOptionError, IllegalActionError
from p2pcards.games.getgem import GetGemState
from p2pcards.games.getgem.actions import (
    Barrier,
    Declare,
    Discard,
    Element,
    GemTake,
    Guard,
    Pass,
    Pick,
    Pickpocket,
    Play,
    Push,
    Take,
    TakeBack,
    Trade,
)
from p2pcards.zones import Deal

ALL2 = frozenset({0, 1})
ALL3 = frozenset({0, 1, 2})


def illegal(state: GetGemState, action) -> None:
    """The action is refused, is not among the legal actions, and changes nothing."""
    before = state.public_digest()
    assert action not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert state.public_digest() == before


def steal(state: GetGemState, seat: int) -> Play:
    return named(state, Play, "steal", "steal", seat)


def pass_until_checked(state: GetGemState) -> None:
    """Every seat passes (draws are fillers, take-backs and discards the first choice) until
    no seat is declaring any more: the last victory check is done."""
    while state.declaring() and not state.is_terminal():
        kind = state.decision().kind
        if kind == "deal":
            deal(state, [filler(state)])
        elif kind in ("take-back", "limit"):
            state.apply_action(state.legal_actions()[0])
        else:
            state.apply_action(Pass())


# ----------------------------------------------------------------------- the components


def test_thirty_basic_cards_and_three_element_cards():
    # line 19: "基本カード30枚"; line 21: "宝玉エレメントカード3枚", line 31: in the middle.
    assert len(GAME.physical_cards()) == 30 == sum(QTY.values())
    state = new_state(2)
    assert state.deck_size() == 30
    assert {g: state.element_owner(g) for g in ("fire", "water", "thunder")} == dict.fromkeys(
        ("fire", "water", "thunder")
    )


def test_card_kinds_of_the_rulebook():
    # line 42-44, 78, 81: the gems; line 87-101: the five action cards (two of them dual).
    state = new_state(2)
    gems = {c: state.card_type(c).gem for c in ("fire", "water", "thunder", "rainbow", "curse")}
    assert gems == {"fire": "fire", "water": "water", "thunder": "thunder",
                    "rainbow": "rainbow", "curse": "curse"}  # fmt: skip
    assert state.card_type("push-peep").effects == ("steal-push", "peeping-draw")  # line 93
    assert state.card_type("push-barrier").effects == ("steal-push", "barrier")  # line 101
    assert state.card_type("steal").line == 87
    assert set(QTY) == {"fire", "water", "thunder", "rainbow", "curse", "steal",
                        "full-exchange", "excavation-arm", "push-peep", "push-barrier"}  # fmt: skip


def test_composition_is_the_deal_distribution():
    # line 26: shuffle the basic cards; our choice (rules.md, Composition): the quantities of
    # cards.toml. The first card dealt is each kind with probability qty / 30.
    state = new_state(2)
    assert state.is_chance_node()
    assert dict(state.chance_outcomes()) == pytest.approx({Deal(c): q / 30 for c, q in QTY.items()})


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_four_cards_dealt_to_each_round_the_table(seats):
    # line 26: "各プレイヤーにランダムにカードを4枚ずつ配ります"; our choice (rules.md §3): one
    # card at a time round the table from the first player.
    state = new_state(seats, first_player=1)
    receivers = []
    for _ in range(DEAL * seats):
        receivers.append(state.decision().receiver)
        state.apply_action(Deal(filler(state)))
    assert receivers == [(1 + i) % seats for i in range(seats)] * DEAL
    assert [state.hand_size(s) for s in range(seats)] == [DEAL] * seats
    # line 29-30: the rest is the deck; line 37: the first player draws first.
    assert state.deck_size() == 30 - DEAL * seats
    assert state.decision().kind == "deal" and state.decision().receiver == 1


def test_hands_are_hidden_from_other_seats():
    # line 28: "手札を他のプレイヤーに見られないように持ちます".
    state = setup({0: ["fire", "water", "thunder", "steal"]}, draw="rainbow")
    assert state.observation(1).hand(0) == [None] * 5
    assert state.observation(0).hand(0) == ["fire", "water", "thunder", "steal", "rainbow"]


def test_turns_go_clockwise_from_the_first_player():
    # line 32-33: the first player is chosen, then turns go clockwise; our choice (rules.md §1,
    # §2): clockwise is seat + 1, and `first_player` stands for the rock-paper-scissors.
    state = setup(seats=3, first_player=2)
    order = []
    for _ in range(4):
        order.append(state.turn_seat())
        end_turn(state)
    assert order == [2, 0, 1, 2]


# ----------------------------------------------------------------------------- the turn


def test_draw_phase_draws_one_even_on_the_first_turn():
    # line 37: the turn player draws 1 card; our choice (rules.md §4): the first turn too.
    state = setup()
    assert state.hand_size(0) == DEAL + 1
    end_turn(state, draw="water")
    assert state.hand_size(1) == DEAL + 1 and state.hand(1)[-1] == "water"
    assert state.turns_played() == 2


def test_action_phase_may_do_nothing():
    # line 47: "アクションフェイズでなにもしなくてもかまいません".
    state = setup()
    assert Pass() in state.legal_actions()
    state.apply_action(Pass())
    assert state.discard_pile() == []
    assert state.decision().receiver == 1  # seat 1's draw


def test_any_number_of_action_cards_a_turn():
    # line 40, 84: action cards may be used as many as you like in a turn.
    state = setup({0: ["steal", "steal"], 1: ["fire", "water", "thunder", "rainbow"]})
    for _ in range(2):
        state.apply_action(steal(state, 1))
        accept(state)
        take(state, 0)
    assert state.discard_pile() == ["steal", "steal"]
    assert state.decision().kind == "action"


def test_played_action_card_goes_to_the_discard_pile_face_up():
    # line 40, 85: a used action card goes at once face up on the discard pile.
    state = setup({0: ["steal"], 1: ["fire"]})
    state.apply_action(steal(state, 1))
    assert state.discard_pile() == ["steal"]
    assert state.observation(1).discard_pile() == ["steal"]
    assert state.hand_size(0) == DEAL


def test_gem_take_discards_three_gems_for_a_random_card():
    # line 41, 76: discard 3 gem cards to take a random card from a chosen player.
    state = setup({0: ["fire", "water", "rainbow"], 1: ["steal", "push-peep"]}, draw="thunder")
    state.apply_action(named(state, GemTake, "fire,water,rainbow", 1))
    assert state.discard_pile() == ["fire", "water", "rainbow"]
    # our choice (rules.md §6): no Barrier window, it is no action card (line 107).
    assert state.decision().kind == "take"
    assert dict(state.chance_outcomes()) == pytest.approx(
        {Take(i, c): 0.25 for i, c in enumerate(state.hand(1))}
    )
    card = take(state, 1)
    assert state.hand(0)[-1] == card == "push-peep"
    assert state.hand_size(1) == DEAL - 1


def test_curse_gem_never_pays_for_a_take():
    # line 41: "呪いの宝玉は捨てることができません".
    state = setup({0: ["fire", "water", "curse", "steal"]}, draw="push-peep")
    assert not [a for a in state.legal_actions() if isinstance(a, GemTake)]
    illegal(state, named(state, GemTake, "curse,fire,water", 1))


@pytest.mark.parametrize("gem", ["fire", "water", "thunder"])
def test_two_gems_take_the_element_card(gem):
    # line 42-44: discard 2 gems of a kind for that element card; line 45: it lies in front of
    # the player, not in its hand.
    state = setup({0: [gem, gem, "steal", "steal"]})
    state.apply_action(named(state, Element, gem, f"{gem},{gem}"))
    assert state.element_owner(gem) == 0
    assert state.elements(0) == [gem]
    assert state.hand_size(0) == DEAL + 1 - 2
    assert state.discard_pile() == [gem, gem]
    illegal(
        state, named(state, Element, gem, f"{gem},{gem}")
    )  # our choice (rules.md §7): held already


def test_element_card_taken_from_its_holder():
    # line 46: an element another player holds is taken from in front of it.
    state = setup({0: ["fire", "fire"], 1: ["fire", "fire"]})
    state.apply_action(named(state, Element, "fire", "fire,fire"))
    end_turn(state)
    state.apply_action(named(state, Element, "fire", "fire,fire"))
    assert state.element_owner("fire") == 1
    assert state.elements(0) == []


def test_rainbow_cannot_pay_for_an_element_card():
    # line 80: "このカードによって宝玉エレメントカードを手に入れることはできません".
    state = setup({0: ["fire", "rainbow", "rainbow", "steal"]})
    assert not [a for a in state.legal_actions() if isinstance(a, Element)]
    illegal(state, named(state, Element, "fire", "fire,rainbow"))
    illegal(state, named(state, Element, "fire", "rainbow,rainbow"))


# ---------------------------------------------------------------------- declaring victory


def test_declaration_needs_fire_water_and_thunder():
    # line 49-50: lay 3 hand cards face up; with the element cards they must show all three.
    state = setup({0: ["fire", "water", "fire", "steal"]}, draw="water")
    assert not [a for a in state.legal_actions() if isinstance(a, Declare)]
    illegal(state, named(state, Declare, "fire,water,fire"))
    state = setup({0: ["fire", "water", "thunder", "steal"]})
    assert named(state, Declare, "fire,water,thunder") in state.legal_actions()


def test_element_cards_count_but_three_cards_are_still_laid():
    # line 61: an element card counts as that gem; line 63: still 3 cards must be laid.
    state = setup({0: ["thunder", "thunder", "fire", "water"]}, draw="steal")
    state.apply_action(named(state, Element, "thunder", "thunder,thunder"))
    assert named(state, Declare, "fire,water,steal") in state.legal_actions()
    illegal(state, named(state, Declare, "fire,water"))
    state.apply_action(named(state, Declare, "fire,steal,water"))
    assert state.laid(0) == ["fire", "steal", "water"]


def test_rainbow_counts_as_any_one_gem():
    # line 79: a rainbow gem counts as fire, water or thunder for declaring and checking.
    state = setup({0: ["fire", "water", "rainbow", "steal"]})
    assert named(state, Declare, "fire,water,rainbow") in state.legal_actions()
    state = setup({0: ["fire", "rainbow", "rainbow", "steal"]})
    assert named(state, Declare, "fire,rainbow,rainbow") in state.legal_actions()


def test_curse_gem_cancels_rainbows_at_the_declaration():
    # line 82: a player holding the curse gem loses its rainbows' effect; our choice
    # (rules.md §18): a curse in hand (or laid) counts.
    state = setup({0: ["fire", "water", "rainbow", "curse"]}, draw="steal")
    assert not [a for a in state.legal_actions() if isinstance(a, Declare)]
    illegal(state, named(state, Declare, "fire,water,rainbow"))


def test_laid_cards_are_public_and_make_a_declaring_player():
    # line 49: laid face up; line 51-52: the player is declaring, those are its laid cards.
    state = setup({0: ["fire", "water", "thunder", "steal"]})
    state.apply_action(named(state, Declare, "fire,water,thunder"))
    assert state.declaring() == [0]
    assert state.observation(1).laid(0) == ["fire", "water", "thunder"]
    assert state.hand_size(0) == 2


def test_non_turn_declarers_take_back_one_laid_card_each_end_phase():
    # line 53: in each end phase every declaring non-turn player takes one laid card back.
    state = setup({0: ["fire", "water", "thunder", "steal"]})
    state.apply_action(named(state, Declare, "fire,water,thunder"))
    assert state.decision().kind == "deal"  # no take-back in the declarer's own end phase
    deal(state, [filler(state)])
    state.apply_action(Pass())
    assert state.decision().kind == "take-back" and state.current_player() == 0
    assert state.legal_actions() == [TakeBack("fire"), TakeBack("water"), TakeBack("thunder")]
    state.apply_action(TakeBack("water"))  # its choice
    assert state.laid(0) == ["fire", "thunder"]
    assert state.hand(0)[-1] == "water"
    assert state.decision().kind == "deal"


def test_taking_back_the_last_card_is_a_victory_check_that_wins():
    # line 54-55: whoever took back all three shows its hand; with fire, water and thunder it
    # wins and the game ends.
    state = setup({0: ["fire", "water", "thunder", "steal"]})
    state.apply_action(named(state, Declare, "fire,water,thunder"))
    pass_until_checked(state)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.winners() == [0]
    assert state.returns() == [1.0, 0.0]
    assert state.observation(1).hand(0) == state.hand(0)  # the hand was shown to all


def test_failed_victory_check_only_shows_the_hand():
    # line 56: without all three, the hand was shown for nothing; our choice (rules.md §21,
    # §24): element cards count as held at the check; the player may declare again later.
    state = setup({0: ["thunder", "thunder", "fire", "water"], 1: ["thunder", "thunder"]},
                  draw="steal")  # fmt: skip
    apply(
        state,
        named(state, Element, "thunder", "thunder,thunder"),
        named(state, Declare, "fire,steal,water"),
    )
    deal(state, [filler(state)])
    state.apply_action(named(state, Element, "thunder", "thunder,thunder"))  # seat 1 takes it away
    pass_until_checked(state)
    assert not state.is_terminal()
    assert state.laid(0) == [] and "thunder" not in state.hand(0)
    assert state.hand(0).count(None) == 0
    assert state.observation(1).hand(0) == state.hand(0)
    assert state.declaring() == []


def test_hand_limit_discards_down_to_six_never_the_curse():
    # line 57: at the end of its own turn a player with 7 or more cards discards to 6; the
    # curse gem cannot be discarded.
    state = setup({0: ["curse", "steal", "steal", "full-exchange"]})
    for _ in range(2):
        end_turn(state)  # seat 0 passes; seat 1 draws
        end_turn(state)  # seat 1 passes; seat 0 draws
    assert state.hand_size(0) == 7
    state.apply_action(Pass())
    assert state.decision().kind == "limit" and state.decision().count == 1
    assert named(state, Discard, "curse") not in state.legal_actions()
    illegal(state, named(state, Discard, "curse"))
    state.apply_action(named(state, Discard, "steal"))
    assert state.hand_size(0) == HAND_LIMIT
    assert state.discard_pile() == ["steal"]
    assert state.decision().receiver == 1


def test_empty_deck_is_refilled_from_the_discard_pile():
    # line 58-59: when the deck runs out, the discard pile is shuffled into a new deck; our
    # choice (rules.md §5): its slots become the deck, every card unknown again.
    state = setup({0: ["fire", "fire"]})
    state.apply_action(named(state, Element, "fire", "fire,fire"))
    while state.deck_size() > 0:
        end_turn(state)
    assert state.reshuffles() == 0
    state.apply_action(Pass())
    pile = [slot for slot, place, _, _ in state.slots() if place == "discard"]
    while state.decision().kind == "limit":
        action = state.legal_actions()[0]
        assert isinstance(action, Discard)
        pile.append(action.slot)
        state.apply_action(action)
    assert state.decision().kind == "deal"
    assert state.reshuffles() == 1
    assert state.discard_pile() == []
    assert state.deck_slots() == pile
    assert all(card is None and mask == 0 for _, place, card, mask in state.slots()
               if place == "deck")  # fmt: skip
    assert sum(state.unseen_cards().values()) == len(pile)


# ---------------------------------------------------------------------------- the cards


def test_steal_takes_a_random_card_after_the_barrier_window():
    # line 88: choose a player, take a random card of its hand; line 107 with our choice
    # (rules.md §9): the chosen seat is asked first whether it uses a Barrier.
    state = setup({0: ["steal"], 1: ["fire", "water", "thunder", "rainbow"]}, seats=3)
    state.apply_action(steal(state, 1))
    d = state.decision()
    assert (d.kind, d.seat, d.actor, d.target, d.effect) == ("window", 1, 0, 1, "steal")
    assert state.legal_actions() == [Pass()]
    accept(state)
    assert state.chance_move().kind == "take" and state.chance_move().source == 1
    assert state.chance_viewers() == frozenset({0, 1})
    take(state, 2)
    assert state.hand(0)[-1] == "thunder"
    assert state.observation(0).hand(0)[-1] == "thunder"
    assert state.observation(2).hand(0)[-1] is None  # our choice (rules.md §12)


def test_full_exchange_swaps_whole_hands():
    # line 90: choose a player and exchange whole hands with it.
    state = setup({0: ["full-exchange", "curse", "fire"], 1: ["water", "thunder", "rainbow"]},
                  seats=3, draw="steal")  # fmt: skip
    mine = state.hand(0)[1:]
    theirs = state.hand(1)
    state.apply_action(named(state, Play, "full-exchange", "full-exchange", 1))
    accept(state)
    assert state.hand(0) == theirs and state.hand(1) == mine
    assert state.observation(0).hand(0) == theirs  # each knows what it got and gave
    assert state.observation(1).hand(0) == theirs
    assert state.observation(2).hand(1) == [None] * len(mine)


def test_full_exchange_with_an_empty_hand_and_a_window_that_offers_only_pass():
    # line 90; our choices (rules.md §8, §9): any other player may be chosen for a Full
    # Exchange or a Peeping Draw, and the window opens even on an empty hand.
    state = setup({0: ["fire", "fire", "water", "water"], 1: ["push-peep", "steal"]},
                  draw="full-exchange")  # fmt: skip
    apply(
        state,
        named(state, Element, "fire", "fire,fire"),
        named(state, Element, "water", "water,water"),
    )
    state.apply_action(named(state, Play, "full-exchange", "full-exchange", 1))
    accept(state)
    assert state.hand_size(1) == 0 and state.hand_size(0) == DEAL
    illegal(state, steal(state, 1))  # our choice (rules.md §8): a Steal needs a card to take
    state.apply_action(named(state, Play, "push-peep", "peeping-draw", 1))
    assert state.decision().kind == "window" and state.legal_actions() == [Pass()]
    accept(state)
    assert state.decision().kind == "deal" and state.decision().receiver == 0


def test_excavation_arm_takes_a_discarded_card_then_discards_one():
    # line 92: choose a discard-pile card, add it to the hand, then discard a hand card.
    state = setup({0: ["fire", "fire", "excavation-arm", "curse"]}, draw="steal")
    state.apply_action(named(state, Element, "fire", "fire,fire"))
    # our choice (rules.md §15): not the Arm being played; the pile holds only fire.
    assert [a for a in state.legal_actions() if isinstance(a, Play)] == [
        named(state, Play, "steal", "steal", 1),
        named(state, Play, "excavation-arm", "excavation-arm", None, "fire"),
    ]
    state.apply_action(named(state, Play, "excavation-arm", "excavation-arm", None, "fire"))
    assert state.hand(0)[-1] == "fire"
    assert state.discard_pile() == ["fire", "excavation-arm"]
    assert state.decision().kind == "dig"
    assert named(state, Discard, "curse") not in state.legal_actions()
    state.apply_action(named(state, Discard, "steal"))
    assert state.discard_pile() == ["fire", "excavation-arm", "steal"]
    assert state.decision().kind == "action"


def test_excavation_arm_may_take_another_arm():
    # line 92; our choice (rules.md §15): another copy of Excavation Arm may be taken.
    state = setup({0: ["fire", "fire", "excavation-arm", "excavation-arm"]})
    apply(state, named(state, Element, "fire", "fire,fire"))
    state.apply_action(named(state, Play, "excavation-arm", "excavation-arm", None, "fire"))
    state.apply_action(named(state, Discard, "fire"))
    assert named(state, Play, "excavation-arm", "excavation-arm", None, "excavation-arm") in (
        state.legal_actions()
    )


def test_excavation_arm_needs_a_discard_pile():
    # line 92: there must be a discarded card to choose; our choice (rules.md §15).
    state = setup({0: ["excavation-arm"]})
    assert not [a for a in state.legal_actions() if isinstance(a, Play) and a.pick]
    illegal(state, named(state, Play, "excavation-arm", "excavation-arm", None, "fire"))


def test_steal_and_push_takes_then_pushes_another_card():
    # line 96-97: take a random card, then push a card other than the one taken.
    state = setup({0: ["push-peep", "curse", "fire"], 1: ["steal", "water", "water"]},
                  seats=3, draw="water")  # fmt: skip
    state.apply_action(named(state, Play, "push-peep", "steal-push", 1))
    accept(state)
    take(state, 1)  # a water
    d = state.decision()
    assert (d.kind, d.seat, d.actor, d.target) == ("push", 0, 0, 1)
    # our choice (rules.md §11): another water may go back, but not the taken one.
    assert state.legal_actions() == [
        named(state, Push, card) for card in ("fire", "water", "curse", "full-exchange")
    ]
    state.apply_action(named(state, Push, "curse"))
    assert state.hand(1)[-1] == "curse"
    assert state.observation(1).hand(1)[-1] == "curse"
    assert state.observation(2).hand(1)[-1] is None  # only the victim sees it
    assert named(state, Push, "curse").public() == named(state, Push, None)


def test_push_never_gives_back_the_card_just_taken():
    # line 97: "そこで加えたカード以外のカード".
    state = setup({0: ["push-barrier", "fire"], 1: ["steal", "steal"]}, draw="water")
    state.apply_action(named(state, Play, "push-barrier", "steal-push", 1))
    accept(state)
    take(state, 0)
    assert named(state, Push, "steal") not in state.legal_actions()
    illegal(state, named(state, Push, "steal"))


def test_peeping_draw_shows_the_hand_then_draws_once_a_turn():
    # line 99: look at a chosen hand, then draw 1; line 86, 100: once per turn.
    state = setup({0: ["push-peep", "push-peep"], 1: ["fire", "water"]}, seats=3)
    state.apply_action(named(state, Play, "push-peep", "peeping-draw", 1))
    accept(state)
    assert state.observation(0).hand(1) == state.hand(1)
    assert state.observation(2).hand(1) == [None] * DEAL
    assert state.decision().kind == "deal" and state.decision().receiver == 0
    deal(state, ["thunder"])
    assert state.peeping_draws() == 1
    plays = [a for a in state.legal_actions() if isinstance(a, Play)]
    assert plays and all(a.effect != "peeping-draw" for a in plays)  # steal-push is still on
    illegal(state, named(state, Play, "push-peep", "peeping-draw", 2))


def test_barrier_cancels_an_action_card_that_chose_you():
    # line 106-107: Barrier is used when another player's action card chooses you, and
    # cancels its effect.
    state = setup({0: ["steal"], 1: ["push-barrier", "fire"]})
    state.apply_action(steal(state, 1))
    assert state.legal_actions() == [Pass(), named(state, Barrier, "push-barrier")]
    state.apply_action(named(state, Barrier, "push-barrier"))
    assert state.discard_pile() == ["steal", "push-barrier"]
    assert state.hand_size(1) == DEAL - 1 and state.hand_size(0) == DEAL
    assert state.decision().kind == "action" and state.current_player() == 0


def test_barrier_cancels_the_whole_peeping_draw():
    # line 107; our choice (rules.md §10): the draw is cancelled too, the card still counts.
    state = setup({0: ["push-peep"], 1: ["push-barrier"]})
    state.apply_action(named(state, Play, "push-peep", "peeping-draw", 1))
    state.apply_action(named(state, Barrier, "push-barrier"))
    assert state.decision().kind == "action"
    assert state.hand_size(0) == DEAL and state.peeping_draws() == 1
    assert state.observation(0).hand(1) == [None] * (DEAL - 1)


def test_barrier_is_no_action_of_ones_own_turn():
    # line 106-107: Barrier is used only when chosen; our choice (rules.md §10).
    state = setup({0: ["push-barrier"]})
    illegal(state, named(state, Play, "push-barrier", "barrier", None))
    illegal(state, named(state, Barrier, "push-barrier"))


def test_gem_take_cannot_be_answered_by_barrier():
    # line 107 names action and character cards only; our choice (rules.md §6).
    state = setup({0: ["fire", "water", "thunder"], 1: ["push-barrier"]})
    state.apply_action(named(state, GemTake, "fire,thunder,water", 1))
    assert state.decision().kind == "take"


def test_laid_cards_cannot_be_stolen():
    # line 49, 88: laid cards lie in front of the player, not in its hand; our choice
    # (rules.md §22).
    state = setup({0: ["fire", "water", "thunder"], 1: ["steal"]}, draw="rainbow")
    state.apply_action(named(state, Declare, "fire,thunder,water"))
    deal(state, ["fire"])
    state.apply_action(steal(state, 0))
    accept(state)
    assert len(state.chance_outcomes()) == 2  # the two hand cards only
    assert take(state, 0) == "full-exchange"
    assert state.laid(0) == ["fire", "thunder", "water"]


def test_a_declaring_player_does_not_declare_again():
    # line 51; our choice (rules.md §19).
    state = setup({0: ["fire", "water", "thunder", "fire"]}, draw="water")
    state.apply_action(named(state, Declare, "fire,thunder,water"))
    deal(state, ["thunder"])
    end_turn(state, draw="thunder")  # seat 1's turn; seat 0 takes a card back
    assert state.laid(0) == ["thunder", "water"]
    assert state.current_player() == 0 and state.decision().kind == "action"
    assert not [a for a in state.legal_actions() if isinstance(a, Declare)]


def test_declarers_take_back_in_clockwise_order_from_the_turn_player():
    # line 53: all declaring non-turn players; our choice (rules.md §20): from the seat after
    # the turn player, clockwise.
    state = setup({1: ["fire", "water", "thunder"], 2: ["fire", "water", "thunder"]}, seats=3)
    end_turn(state)
    state.apply_action(named(state, Declare, "fire,thunder,water"))
    deal(state, [filler(state)])
    state.apply_action(named(state, Declare, "fire,thunder,water"))
    assert state.current_player() == 1 and state.decision().kind == "take-back"
    state.apply_action(TakeBack("fire"))
    deal(state, [filler(state)])
    state.apply_action(Pass())  # seat 0's end phase: seat 1, then seat 2
    seen = []
    while state.decision().kind == "take-back":
        seen.append((state.current_player(), state.decision().count))
        state.apply_action(state.legal_actions()[0])
    assert seen == [(1, 2), (2, 3)]


def test_curse_pushed_to_a_declarer_spoils_its_rainbow_check():
    # line 55, 82: the check counts the hand as it is then; a curse held voids the rainbow.
    state = setup({0: ["fire", "water", "rainbow"], 1: ["push-peep"]}, draw="steal")
    state.apply_action(named(state, Declare, "fire,rainbow,water"))
    deal(state, ["curse"])
    state.apply_action(named(state, Play, "push-peep", "steal-push", 0))
    accept(state)
    take(state, 0)
    state.apply_action(named(state, Push, "curse"))
    pass_until_checked(state)
    assert not state.is_terminal()
    assert "curse" in state.hand(0) and "rainbow" in state.hand(0)


def test_turn_cap_draws_the_game():
    # our choice (rules.md §25): an optional cap for AI games; after `turn_cap` turns the game
    # is drawn, shared equally.
    state = setup(turn_cap=3)
    for _ in range(3):
        assert not state.is_terminal()
        state.apply_action(Pass())
        while state.is_chance_node():
            deal(state, [filler(state)])
    assert state.is_terminal()
    assert state.winners() == [0, 1] and state.returns() == [0.5, 0.5]
    assert state.turns_played() == 3


def test_round_cap_counts_a_turn_of_every_seat():
    # our choice (rules.md §25): `round_cap` (the command line's --round-cap) is turns x seats.
    assert new_state(3, round_cap=4).options.turn_cap == 12
    assert new_state(2, round_cap=None).options.turn_cap is None


def pass_turns(state: GetGemState, turns: int) -> None:
    """Every seat passes (discarding to the hand limit when asked) for `turns` turns."""
    while state.turns_played() < turns:
        assert not state.is_terminal()
        if state.is_chance_node():
            deal(state, [filler(state)])
        elif Pass() in state.legal_actions():
            state.apply_action(Pass())
        else:  # the hand limit (line 57): discard the first card offered
            state.apply_action(state.legal_actions()[0])


@pytest.mark.parametrize("match", [False, True])
def test_no_turn_cap_by_default(match):
    # rulebook line 55: "そのプレイヤーの勝利となり、ゲームが終了します" (the game ends with a
    # won victory check) and line 73 ("10点先取", a match ends at 10 points): the book has no
    # other end. Our choice (rules.md §25): the library caps nothing; headless commands pass
    # their own cap. Players who never declare play on past any cap we ever had (100, 400).
    state = new_state(2, match=match)
    assert state.options.turn_cap is None
    while state.is_chance_node():
        deal(state, [filler(state)])
    pass_turns(state, 401 if match else 101)
    assert not state.is_terminal()
    assert state.returns() == [0.0, 0.0]


# -------------------------------------------------------------------------------- matches


def test_match_winner_scores_ten_less_three_per_rainbow_and_the_next_game_starts_right():
    # line 71: the winner scores 10 - 3 x its rainbow gems; line 72: the next game starts
    # with the winner's right-hand neighbour; our choice (rules.md §26): with clockwise play
    # that is the seat before the winner, (winner - 1) mod n.
    state = setup({0: ["fire", "water", "rainbow", "rainbow"]}, seats=3, draw="thunder",
                  match=True)  # fmt: skip
    state.apply_action(named(state, Declare, "fire,rainbow,water"))
    pass_until_checked(state)
    assert state.game_number() == 2 and not state.is_terminal()
    assert state.last_winner() == 0
    assert state.scores() == [10 - 3 * 2, 0, 0]
    assert state.first_player() == 2
    assert state.reshuffles() == 1 and state.deck_size() == 30
    assert state.elements(0) == [] and state.declaring() == []
    assert state.decision().kind == "deal" and state.decision().receiver == 2


def test_match_ends_at_ten_points():
    # line 73: the first to 10 points wins the match.
    state = setup({0: ["fire", "water", "thunder", "steal"]}, match=True)
    state.apply_action(named(state, Declare, "fire,thunder,water"))
    pass_until_checked(state)
    assert state.is_terminal()
    assert state.scores() == [10, 0] and state.winners() == [0]
    assert state.returns() == [1.0, 0.0]


# ----------------------------------------------------------------------------- characters


def test_characters_are_drafted_first_player_last():
    # line 65-66: character cards dealt at random or drafted, face up; our choice
    # (rules.md §27): a draft in reverse turn order, the first player picking last.
    state = new_state(3, characters=True, first_player=1)
    pickers = []
    for name in ("guardian", "merchant", "priest"):
        assert state.decision().kind == "pick"
        pickers.append(state.current_player())
        state.apply_action(Pick(name))
    assert pickers == [0, 2, 1]
    assert [state.character(s) for s in range(3)] == ["guardian", "priest", "merchant"]
    assert state.is_chance_node() and state.decision().receiver == 1
    illegal(new_state(2, characters=True), Pick("wizard"))


def characters_table(chars: tuple[str, str], hands) -> GetGemState:
    state = new_state(2, characters=True)
    apply(state, Pick(chars[1]), Pick(chars[0]))  # seat 1 picks first
    return _deal_after_draft(state, hands)


def _deal_after_draft(state: GetGemState, hands) -> GetGemState:
    from collections import Counter

    spare = Counter(QTY)
    spare.subtract(c for h in hands.values() for c in h)
    full = {}
    for s in range(2):
        cards = list(hands.get(s, ()))
        while len(cards) < DEAL + (s == 0):
            c = next(c for c in ("full-exchange", "excavation-arm", "steal", *QTY) if spare[c] > 0)
            spare[c] -= 1
            cards.append(c)
        full[s] = cards
    for r in range(DEAL):
        for s in range(2):
            state.apply_action(Deal(full[s][r]))
    state.apply_action(Deal(full[0][DEAL]))
    return state


def test_pickpocket_takes_for_two_gems_once_a_turn():
    # our choice (rules.md §27): the Pickpocket's ability, answerable by a Barrier (line 107).
    state = characters_table(("pickpocket", "priest"), {0: ["fire", "water", "thunder", "rainbow"]})
    state.apply_action(named(state, Pickpocket, "fire,water", 1))
    assert state.decision().kind == "window" and state.decision().effect == "pickpocket"
    accept(state)
    take(state, 0)
    assert state.ability_used(0)
    assert not [a for a in state.legal_actions() if isinstance(a, Pickpocket)]


def test_alchemist_pays_an_element_with_one_rainbow():
    # our choice (rules.md §27); line 80 still holds for everyone else.
    state = characters_table(("alchemist", "priest"), {0: ["fire", "rainbow", "rainbow"]})
    assert named(state, Element, "fire", "fire,rainbow") in state.legal_actions()
    illegal(state, named(state, Element, "fire", "rainbow,rainbow"))
    state.apply_action(named(state, Element, "fire", "fire,rainbow"))
    assert state.element_owner("fire") == 0


def test_guardian_cancels_once_between_its_turns():
    # our choice (rules.md §27).
    state = characters_table(("priest", "guardian"), {0: ["steal", "steal"]})
    state.apply_action(steal(state, 1))
    assert state.legal_actions() == [Pass(), Guard()]
    state.apply_action(Guard())
    assert state.hand_size(1) == DEAL and state.ability_used(1)
    state.apply_action(steal(state, 1))
    assert state.legal_actions() == [Pass()]
    illegal(state, Guard())


def test_merchant_trades_a_card_for_a_draw_once_a_turn():
    # our choice (rules.md §27).
    state = characters_table(("merchant", "priest"), {0: ["curse", "steal"]})
    assert named(state, Trade, "curse") not in state.legal_actions()
    state.apply_action(named(state, Trade, "steal"))
    assert state.discard_pile() == ["steal"]
    assert state.decision().kind == "deal" and state.decision().receiver == 0
    deal(state, ["fire"])
    assert not [a for a in state.legal_actions() if isinstance(a, Trade)]


def test_priest_keeps_its_rainbows_despite_the_curse():
    # our choice (rules.md §27); compare line 82.
    state = characters_table(("priest", "merchant"), {0: ["fire", "water", "rainbow", "curse"]})
    assert named(state, Declare, "fire,water,rainbow") in state.legal_actions()


# ------------------------------------------------------------- what an action shows


def shown(state: GetGemState, action: Action) -> list[tuple[str | None, int]]:
    """The cards `action` lays open, as (card, seats that know it then), by slot."""
    return [(entry.card, entry.knowers) for entry in laid_open(state, action)]


def test_card_naming_actions_show_their_cards_to_all():
    # line 40 (action cards face up), 41-44 (gems discarded), 49 (laid face up).
    state = setup({0: ["fire", "water", "thunder", "steal"]}, draw="fire")
    everyone = 0b11
    assert shown(state, steal(state, 1)) == [("steal", everyone)]
    take = named(state, GemTake, "fire,water,thunder", 1)
    assert sorted(shown(state, take)) == [(c, everyone) for c in ("fire", "thunder", "water")]
    assert shown(state, named(state, Element, "fire", "fire,fire")) == [("fire", everyone)] * 2
    declare = named(state, Declare, "fire,water,thunder")
    assert sorted(shown(state, declare)) == [(c, everyone) for c in ("fire", "thunder", "water")]
    assert shown(state, Pass()) == []
    hand = state.hand_slots(0)
    # Two fires: the menu names the first in the hand (no seat knows either better).
    assert named(state, Element, "fire", "fire,fire").slots == f"{hand[0]},{hand[4]}"


def test_push_is_shown_to_the_victim_only():
    # line 97; our choice (rules.md §11).
    state = setup({0: ["push-peep", "curse"], 1: ["fire"]}, seats=3)
    state.apply_action(named(state, Play, "push-peep", "steal-push", 1))
    assert shown(state, Pass()) == []
    accept(state)
    take(state, 0)
    push = named(state, Push, "curse")
    assert push.slot == state.hand_slots(0)[0] and push.public() == Push(push.slot, None)
    assert shown(state, push) == [("curse", 0b011)]  # the pusher and seat 1, not seat 2
    replica = state.observation(1)
    replica.learn(told(laid_open(state, push), replica, 1))
    replica.apply_action(push.public())
    state.apply_action(push)
    assert replica.hand(1) == state.hand(1) and replica.public_digest() == state.public_digest()


def test_exchange_peek_and_victory_check_show_whole_hands():
    # line 90, 99, 54.
    state = setup({0: ["full-exchange", "push-peep"]}, seats=3)
    state.apply_action(named(state, Play, "full-exchange", "full-exchange", 2))
    mine, theirs = state.hand(0), state.hand(2)
    exchanged = shown(state, Pass())
    assert sorted(exchanged) == sorted(
        [(c, 0b101) for c in mine] + [(c, 0b101) for c in theirs]
    )  # each hand to the other seat (and its owner); seat 1 sees nothing
    state = setup({0: ["push-peep"]}, seats=3)
    state.apply_action(named(state, Play, "push-peep", "peeping-draw", 1))
    assert sorted(shown(state, Pass())) == sorted((c, 0b011) for c in state.hand(1))
    state = setup({0: ["fire", "water", "thunder", "steal"]})
    state.apply_action(named(state, Declare, "fire,thunder,water"))
    deal(state, [filler(state)])
    state.apply_action(Pass())
    assert shown(state, TakeBack("fire")) == []
    state.apply_action(TakeBack("fire"))
    for last in (False, True):
        deal(state, [filler(state)])  # seat 0 draws
        end_turn(state)  # seat 0 passes, seat 1 draws
        state.apply_action(Pass())  # seat 1's end phase: seat 0 takes a card back
        card = state.laid(0)[0]
        hand = [*state.hand(0), card]
        expected = sorted((c, 0b11) for c in hand) if last else []
        assert sorted(shown(state, TakeBack(card))) == expected
        state.apply_action(TakeBack(card))
    assert state.winners() == [0]


def test_a_replica_learns_a_played_card_from_the_action_it_cannot_see():
    # DESIGN.md §3: the action names the slot and the card; a replica that cannot see the
    # hand learns the card there, and one that knows another card there refuses the action.
    state = setup({0: ["steal", "steal"], 1: ["fire"]})
    replica = state.observation(1)
    action = steal(state, 1)
    replica.apply_action(action)
    state.apply_action(action)
    assert list(replica.slots()) == list(state.observation(1).slots())
    state = setup({0: ["steal", "fire"], 1: ["fire"]})
    fire = state.hand_slots(0)[state.hand(0).index("fire")]
    with pytest.raises(IllegalActionError, match="holds no steal"):
        state.observation(0).apply_action(Play(fire, "steal", "steal", 1))


def test_a_sighting_that_contradicts_what_a_replica_knows_is_refused():
    state = setup({0: ["steal"], 1: ["fire"]}, draw="water")
    with pytest.raises(IllegalActionError):
        state.observation(0).learn([Sighting(state.hand_slots(0)[0], "curse")])


# ---------------------------------------------------------------- options and wire forms


@pytest.mark.parametrize(
    "options",
    [{"turn_cap": 0}, {"turn_cap": "5"}, {"first_player": 2}, {"match": 1}, {"colour": "red"}],
)
def test_bad_options_are_refused(options):
    with pytest.raises(GameOptionError):
        GAME.new_initial_state(2, **options)


@pytest.mark.parametrize("seats", [1, 6])
def test_two_to_five_players(seats):
    # line 16: "プレイ人数 2人~5人".
    with pytest.raises(GameOptionError, match="2 to 5"):
        GAME.new_initial_state(seats)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "play", "card": "steal", "effect": "steal", "seat": "1", "pick": None},
        {"kind": "gem-take", "cards": "fire,water,thunder"},
        {"kind": "push", "card": 3},
        {"kind": "dance"},
    ],
)
def test_malformed_actions_are_refused(data):
    with pytest.raises(ActionFormatError):
        GAME.action_from_json(data)


def test_unknown_cards_and_wrong_counts_are_illegal():
    state = setup({0: ["fire", "water", "thunder", "steal"]})
    illegal(state, named(state, Play, "dragon", "steal", 1))
    illegal(state, named(state, Declare, "fire,water"))
    illegal(state, named(state, GemTake, "fire,water,thunder,steal", 1))
    illegal(state, named(state, Play, "steal", "steal", 0))  # not oneself
    illegal(state, named(state, Play, "steal", "full-exchange", 1))
    illegal(state, TakeBack("fire"))
    illegal(state, named(state, Push, "fire"))
    assert state.current_player() != CHANCE
