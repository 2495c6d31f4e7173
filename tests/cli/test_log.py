"""The log a person can follow (issue 14, point 1): every step in plain sentences, only what
the viewing seat may know, the whole history a page at a time, each game's own help, the
final board and why the game ended.

Rulebooks: rpg-battle ../shared/seeds/003_cfa394b9cdefb20c.txt, GETGEM
../shared/seeds/001_8f4b08e2e7b8d5ce.txt.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator, Sequence

import pytest
from getgem_helpers import named
from replica_helpers import laid_open
from replica_helpers import told as told_to
from rich.console import Console

import cli.table as table_cli
from ai.agents import make_agent
from cli.narration import PAGE, Narrator
from cli.play import answer_to, menu_for, run_local_game, show_news
from cli.views import RESHUFFLED, view_for
from cli.wording import Seats, sentence, third_person
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, State
from p2pcards.games.getgem.actions import Declare, Push
from p2pcards.games.getgem.actions import Pass as GemPass
from p2pcards.games.getgem.actions import Play as GemPlay
from p2pcards.games.getgem.actions import Take as GemTake
from p2pcards.games.rpg_battle.actions import EndTurn, Pass, Pick, Play, React
from p2pcards.history import witnessed
from p2pcards.zones import Deal

RPG = games.load("rpg-battle")
GETGEM = games.load("getgem")


def told(state: State, actions: Sequence[Action], viewer: int) -> list[str]:
    """Apply `actions` and return what the viewer's log says of them."""
    narrator = Narrator(view_for(state.game.name), Seats(viewer))
    for action in actions:
        before = state.observation(viewer)
        state.apply_action(action)
        narrator.saw(before, action, state.observation(viewer))
    return narrator.news()


def seen(state: State, viewer: int | None) -> State:
    """What a seat (or, None, a spectator: its narrator hides every hidden card) is shown."""
    return state.clone() if viewer is None else state.observation(viewer)


def console() -> Console:
    return Console(file=io.StringIO(), width=120, record=True, color_system=None)


def answering(out: Console, answer: str = "1") -> Callable[[str], str]:
    """A person who answers every question with `answer`, the prompt shown on `out`."""

    def read_line(prompt: str) -> str:
        out.print(prompt)
        return answer

    return read_line


# --------------------------------------------------------------------------- rpg-battle

DRAFT = [Pick(c) for c in ("vex", "sera", "kalen", "gideon", "anya", "mystra")]
HANDS = (
    ["attack-iii", "heal", "heal", "heal-ii", "heal-ii"],
    ["counter", "attack", "heal", "heal", "heal-ii"],
)
DEALS = [Deal(c) for hand in HANDS for c in hand]
# The deal takes the deck's top slot (99, then 98, ...): seat 0 holds slots 99-95 and seat 1
# slots 94-90, each hand in the order of HANDS.
# Seat 0's Vex attacks seat 1's Sera for 12 (STR 4 x 3); Sera answers with Counter.
COUNTERED = [Play(99, "attack-iii", "sera"), React(94, "counter")]
# Seat 0's other characters pass and it draws; seat 1's Sera (STR 1) attacks Vex, left at
# 1 HP by the Counter, and seat 0 takes the hit.
KNOCKED_OUT = [Pass(), Pass(), EndTurn(False), Deal("heal"), Play(93, "attack", "vex"), Pass()]


def test_counter_damage_is_told_with_the_hp_it_leaves() -> None:
    # Rulebook line 59: Counter, "Use when being attacked to reverse the attack".
    lines = told(RPG.new_initial_state(2), DRAFT + DEALS + COUNTERED, viewer=0)
    assert "Your Vex plays Attack III on seat 1's Sera (12 damage)." in lines
    assert "Seat 1's Sera counters with Counter: the 12 damage goes back to Vex." in lines
    assert "Your Vex takes 12 damage (13 → 1 HP)." in lines
    assert not any("Sera takes" in line for line in lines)


def test_a_knock_out_is_told() -> None:
    # Rulebook line 26: a character that would drop below 1 HP is knocked out.
    state = RPG.new_initial_state(2)
    lines = told(state, DRAFT + DEALS + COUNTERED + KNOCKED_OUT, viewer=1)
    assert state.hp("vex") == 0
    assert "Seat 0's Vex is knocked out (1 → 0 HP)." in lines


def test_a_hidden_draw_names_no_card_to_the_other_seats() -> None:
    for viewer, other in ((0, 1), (1, 0)):
        lines = told(RPG.new_initial_state(2), DRAFT + DEALS, viewer)
        mine = "Attack III, Heal, Heal, Heal II and Heal II" if viewer == 0 else (
            "Counter, Attack, Heal, Heal and Heal II"
        )  # fmt: skip
        assert f"You draw {mine}." in lines
        assert f"Seat {other} draws 5 cards." in lines
        secret = "Counter" if viewer == 0 else "Attack III"
        assert not any(secret in line for line in lines), lines


def test_every_character_reaching_0_hp_has_its_ko_line() -> None:
    """Whole random games at 2 to 8 seats: each step that leaves a character at 0 HP tells
    it, so does each reshuffle of the discard pile, and the end tells who won and why."""
    reshuffles = 0
    for seats in (2, 4, 8):
        state = RPG.new_initial_state(seats, round_cap=40)
        dealer, agents = LocalDealer(seats), [make_agent("random", s) for s in range(seats)]
        narrator = Narrator(view_for("rpg-battle"), Seats(0))
        kos = 0
        while not state.is_terminal():
            if state.is_chance_node():
                action = dealer.sample(state)
            else:
                action = agents[state.current_player()].act(
                    state.observation(state.current_player())
                )
            before = state.observation(0)
            fell = [c for s in range(seats) for c in state.characters(s) if state.hp(c) > 0]
            state.apply_action(action)
            narrator.saw(before, action, state.observation(0))
            news = narrator.news()
            for c in fell:
                if state.hp(c) == 0:
                    kos += 1
                    name = state.stats(c).name
                    assert any(f"{name} is knocked out (" in n for n in news), news
        assert kos > 0
        assert re.match(r"Game over(: | at the round cap)", narrator.history[-1])
        assert narrator.history.count(RESHUFFLED) == state.reshuffles()
        reshuffles += state.reshuffles()
    assert reshuffles > 0


def test_the_final_board_and_the_result_end_a_local_game() -> None:
    out = console()
    final = run_local_game(
        RPG.new_initial_state(3, round_cap=30), view_for("rpg-battle"),
        {s: make_agent("random", s) for s in (1, 2)}, LocalDealer(4), out, answering(out),
    )  # fmt: skip
    text = out.export_text()
    tail = text[text.rindex("choice [") :]
    assert "Round" in tail and "your hand" in tail and "seat 2 (random)" in tail  # the board
    winners = [s for s, r in enumerate(final.returns()) if r > 0]
    reason = "the last with a character standing" if len(final.active_seats()) == 1 else "tie-break"
    assert tail.rstrip().endswith(".") and reason in tail.splitlines()[-1]
    assert ("you win" if winners == [0] else f"seat {winners[0]} win") in tail.splitlines()[-1]


def test_all_news_since_the_last_decision_comes_before_the_next_question() -> None:
    """At 8 seats a whole round passes between two of the person's decisions: every seat's
    turn is told (the old log kept 8 lines)."""
    out = console()
    run_local_game(
        RPG.new_initial_state(8, round_cap=3), view_for("rpg-battle"),
        {s: make_agent("random", s) for s in range(1, 8)}, LocalDealer(2), out,
        answering(out),
    )  # fmt: skip
    text = out.export_text()
    questions = [m.end() for m in re.finditer(r"choice \[[^\n]*\n", text)]
    round_2 = text.index("— your turn (round 2) —")
    between = text[max(q for q in questions if q < round_2) : round_2]  # no question asked
    turns = [text.index(f"— seat {seat}'s turn (round 1) —") for seat in range(1, 8)]
    assert turns == sorted(turns) and turns[-1] < round_2
    assert len(between.splitlines()) > 8 and "— seat 7's turn (round 1) —" in between


# ------------------------------------------------------------------------------ GETGEM


def fillers(state: State) -> Iterator[str]:
    """Cards never played here, for every draw a test does not care about: action cards,
    then fire and thunder (never water, nor a gem that stands in for it)."""
    pads = ("full-exchange", "excavation-arm", "steal", "push-peep", "fire", "thunder")
    while True:
        unseen = state.unseen_cards()  # type: ignore[attr-defined]
        yield next(c for c in pads if unseen.get(c))


def test_a_failed_victory_check_says_why() -> None:
    # Line 54-56: when the declarer's last laid card is back, its hand is shown, and only fire,
    # water and thunder win. Line 82: a Curse Gem voids its holder's Rainbow Gems. Seat 0
    # declares with a Rainbow Gem; seat 1's Steal & Push then gives it seat 1's Curse Gem.
    state = GETGEM.new_initial_state(2)
    hands = {0: ["fire", "thunder", "rainbow"], 1: ["push-barrier", "curse"]}
    narrator = {v: Narrator(view_for("getgem"), Seats(v)) for v in (0, 1)}
    pad = fillers(state)

    def step(action: Action) -> None:
        before = {v: state.observation(v) for v in (0, 1)}
        state.apply_action(action)
        for v in (0, 1):
            narrator[v].saw(before[v], action, state.observation(v))

    for _ in range(4):
        for seat in (0, 1):
            step(Deal(hands[seat].pop(0) if hands[seat] else next(pad)))
    step(Deal(next(pad)))
    step(named(state, Declare, "fire,thunder,rainbow"))
    pushed = False
    while not state.is_terminal() and state.laid(0):
        decision = state.decision()
        if decision.kind == "deal":
            step(Deal(next(pad)))
        elif decision.kind == "take":
            step(GemTake(0, state.hand(0)[0]))
        elif decision.kind == "push":
            step(named(state, Push, "curse"))
        elif decision.kind == "action" and decision.seat == 1 and not pushed:
            pushed = True
            step(named(state, GemPlay, "push-barrier", "steal-push", 0))
        elif decision.kind == "take-back":
            step(state.legal_actions()[0])
        else:
            step(GemPass())
    mine, theirs = narrator[0].news(), narrator[1].news()
    assert not state.is_terminal() and pushed
    assert "Seat 1 pushes Curse Gem to you." in mine  # the receiver knows what it got
    assert "You push Curse Gem to seat 0." in theirs
    assert any(line.startswith("You show your hand: ") for line in mine)
    assert any(line.startswith("Seat 0 shows its hand: ") for line in theirs)
    why = "No victory: no water gem; the Curse Gem voids the Rainbow Gem."
    assert why in mine and why in theirs
    assert "You declare victory, laying Fire Gem, Thunder Gem and Rainbow Gem face up." in mine
    assert any(re.fullmatch(r"Seat 0 takes back \w+ Gem\.", line) for line in theirs)


def test_question_mark_shows_the_game_s_own_help() -> None:
    for game, own, other in (
        ("getgem", "fire, water and thunder", "Dodge"),
        ("rpg-battle", "Dodge and Counter", "Curse Gem"),
    ):
        state = games.load(game).new_initial_state(3)
        view = view_for(game)
        out = console()
        narrator = Narrator(view, Seats(0))
        assert answer_to("?", menu_for(view, state), state, narrator, out) is None
        text = out.export_text()
        assert own in text and other not in text
        assert "l [N]" in text  # the keys, the history's among them


# ----------------------------------------------------------------------- the history key


def test_the_history_key_pages_through_the_whole_game() -> None:
    state = RPG.new_initial_state(2)
    narrator = Narrator(view_for("rpg-battle"), Seats(0))
    narrator.tell([f"Line {i}." for i in range(1, 2 * PAGE + 6)])
    out = console()
    for answer in ("l", "l", "l", "l", "l 2", "l 9"):
        answer_to(answer, menu_for(narrator.view, state), state, narrator, out)
    text = out.export_text()
    pages = re.findall(r"page (\d) of 3", text)
    # After the last page, l says so instead of going round to page 1 (issue 27, finding 11).
    assert pages == ["1", "2", "3", "2"]
    assert "page 2 of 3 (l: next page)" in text and "page 3 of 3 (the last page)" in text
    assert "That was the last page (3); l 1 goes back to the first." in text
    assert f"{2 * PAGE + 5:4}  Line {2 * PAGE + 5}." in text
    assert "There are 3 pages" in text


# ------------------------------------------------------------------------------ grammar


def test_verbs_agree_with_their_subject() -> None:
    cases = {
        "push": "pushes", "show": "shows", "take back": "takes back", "carry": "carries",
        "draw": "draws", "be": "is", "have": "has", "play": "plays", "fix": "fixes",
    }  # fmt: skip
    assert {verb: third_person(verb) for verb in cases} == cases
    seats = Seats(0, ["", "expectimax", "Ann"], by_name=False)
    assert seats.says(0, "push") == "you push"
    assert seats.says(1, "push") == "seat 1 pushes"
    assert seats.says(0, "be out") == "you are out"
    assert seats.on_board(1) == "seat 1 (expectimax)"
    named = Seats(0, ["Bo", "Cy", "Ann"], by_name=True)
    assert named.says(2, "take back") == "Ann (seat 2) takes back"
    assert named.whose(2) == "Ann's" and named.whose(0) == "your"
    ai = Seats(0, ["", "AI 1 (greedy)"], by_name=True)
    assert sentence(f"{ai.label(1)} chose you") == "AI 1 (greedy, seat 1) chose you"
    assert sentence("seat 1's Vex acts") == "Seat 1's Vex acts"


# ----------------------------------------------------------------------- a screenshot

SCREEN = """\
You draft Vex.
Seat 1 drafts Sera.
You draft Kalen.
Seat 1 drafts Gideon.
You draft Anya.
Seat 1 drafts Mystra.
— your turn (round 1) —
You draw Attack III, Heal, Heal, Heal II and Heal II.
Seat 1 draws 5 cards.
Your Vex plays Attack III on seat 1's Sera (12 damage).
Seat 1's Sera counters with Counter: the 12 damage goes back to Vex.
Your Vex takes 12 damage (13 → 1 HP).
                                    Round 1
┏━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━┳━━━━━┳━━━━━━┓
┃ seat                  ┃ character ┃    HP ┃              ┃ STR ┃ MAG ┃ hand ┃
┡━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━╇━━━━━╇━━━━━━┩
│ ▶ you                 │ Vex       │  1/13 │ █░░░░░░░░░░░ │   4 │   4 │    4 │
│                       │ → Kalen   │ 17/17 │ ████████████ │   3 │   3 │      │
│                       │ Anya      │ 23/23 │ ████████████ │   2 │   2 │      │
│   seat 1 (expectimax) │ Sera      │ 30/30 │ ████████████ │   1 │   1 │    4 │
│                       │ Gideon    │ 17/17 │ ████████████ │   4 │   2 │      │
│                       │ Mystra    │ 17/17 │ ████████████ │   2 │   4 │      │
└───────────────────────┴───────────┴───────┴──────────────┴─────┴─────┴──────┘
deck 90   discard 2 (top: Counter)
your hand: Heal, Heal, Heal II, Heal II
"""


def test_the_news_and_the_board_as_the_person_sees_them() -> None:
    """What the screen shows at Kalen's question (80 columns): everything since the game
    began, then the board with the agent's name on its seat."""
    state = RPG.new_initial_state(2)
    narrator = Narrator(view_for("rpg-battle"), Seats(0, ["", "expectimax"]))
    for action in DRAFT + DEALS + COUNTERED:
        before = state.observation(0)
        state.apply_action(action)
        narrator.saw(before, action, state.observation(0))
    out = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    show_news(narrator, out)
    out.print(narrator.view.board(state.observation(0), narrator.seats))
    screen = "\n".join(line.rstrip() for line in out.export_text().splitlines()) + "\n"
    assert screen == SCREEN


def test_a_seat_at_a_table_is_told_the_same_with_players_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The LAN terminal tells its replica's steps (seen before they apply) with the roster's
    names, and a table that stops shows the last board (no result: the game did not end)."""
    terminal = table_cli.Terminal()
    terminal.names[:] = ["Bo", "Ann"]
    state, replica = RPG.new_initial_state(2), RPG.new_initial_state(2).observation(0)
    for action in DRAFT + DEALS + COUNTERED + KNOCKED_OUT:
        if state.is_chance_node():  # a replica applies what it may know, as a table's does
            seen = witnessed(state, action, 0).action
        else:
            replica.learn(told_to(laid_open(state, action), replica, 0))
            seen = action.public()
        terminal.watch(replica, seen)
        replica.apply_action(seen)
        state.apply_action(action)
    assert terminal.narrator is not None
    lines = terminal.narrator.news()
    assert "Ann (seat 1) drafts Sera." in lines and "Ann (seat 1) draws 5 cards." in lines
    assert "Ann's Sera counters with Counter: the 12 damage goes back to Vex." in lines
    assert "Your Vex is knocked out (1 → 0 HP)." in lines
    assert replica.public_digest() == state.public_digest()
    out = console()
    monkeypatch.setattr(table_cli, "out", out)
    terminal.finish()
    text = out.export_text()
    assert "Ann (seat 1)" in text and "your hand" in text and "Game over" not in text


def test_every_step_of_random_games_is_told_to_every_seat_and_a_spectator() -> None:
    """Both games at every seat count (GETGEM's match and characters too): each viewer's
    narrator follows a whole random game from its own observations, and the last line of a
    finished game says who won and why."""
    tables = [("rpg-battle", n, {}) for n in range(2, 9)] + [
        ("getgem", n, options)
        for n in range(2, 6)
        for options in ({}, {"match": True, "characters": True})
    ]
    for name, seats, options in tables:
        state = games.load(name).new_initial_state(seats, **options)
        dealer, agents = LocalDealer(seats), [make_agent("random", s) for s in range(seats)]
        viewers: list[int | None] = [*range(seats), None]
        narrators = {v: Narrator(view_for(name), Seats(v)) for v in viewers}

        for _ in range(3000):
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = dealer.sample(state)
            else:
                seat = state.current_player()
                action = agents[seat].act(state.observation(seat))
            before = {v: seen(state, v) for v in viewers}
            state.apply_action(action)
            for v in viewers:
                narrators[v].saw(before[v], action, seen(state, v))
        if state.is_terminal():
            assert all(n.history[-1].startswith("Game over") for n in narrators.values())


def test_a_card_with_nothing_to_act_on_says_it_does_nothing_in_the_menu() -> None:
    # Rulebook line 30: "you may have them take one action by playing a card from your
    # hand" -- a card with nothing to act on may still be played (rules.md §10), and the
    # menu must not promise an effect it will not have.
    from cli import rpg_battle_view
    from p2pcards import games
    from p2pcards.games.rpg_battle.actions import Play

    state = games.load("rpg-battle").new_initial_state(2)
    dealer = LocalDealer(1)
    while not (
        not state.is_chance_node()
        and any(isinstance(a, Play) and a.target is None and a.seat is None
                and state.card_type(a.card).effect == "absorb" for a in state.legal_actions())
    ):  # fmt: skip
        state.apply_action(
            dealer.sample(state) if state.is_chance_node() else state.legal_actions()[-1]
        )
    idle = next(
        a for a in state.legal_actions()
        if isinstance(a, Play) and a.target is None and state.card_type(a.card).effect == "absorb"
    )  # fmt: skip
    assert "played to no effect" in rpg_battle_view.describe_choice(state, idle)


def test_a_typed_number_int_cannot_read_is_asked_again_not_a_crash() -> None:
    """'²' is a digit to str.isdigit() and no number to int(); a thousand digits are a number
    int() refuses by default. Each gets the menu's line, in the menu and in the log's key."""
    state = RPG.new_initial_state(2)
    narrator = Narrator(view_for("rpg-battle"), Seats(0))
    out = console()
    menu = menu_for(narrator.view, state)
    for typed in ("²", "9" * 5000, "l ²", "l " + "9" * 5000):
        assert answer_to(typed, menu, state, narrator, out) is None
    text = out.export_text()
    assert "Please type a number from 1 to" in text and "There are" in text
