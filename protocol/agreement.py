"""Several seats' saves of one table, read together: do they tell one history?

Each save is checked alone first (`savefile.load`, `savefile.rebuild`). Read together,
two saves of one table must hold the same message wherever both hold a seat's message
under one number, and, when both name an outcome, the same one (a save that cannot know
it says "undecided", which contradicts none). Where they part, the signatures say who
made them part: a seat that signed two different messages under
one number told seats different things; saves that end differently name the seats whose
signed messages one holds and the other never received (a leave with a return after it
that one side did not hear, a give-up on a seat that came back).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from protocol.table_peer import TableOutcome
from protocol.transcript import Envelope
from protocol.wire import WireError


@dataclass(frozen=True, slots=True)
class SeatSave:
    """One save, checked and replayed: its name, the seat that saved it, every message it
    holds, and the outcome its evidence gives (None: unfinished)."""

    name: str
    seat: int
    table_id: bytes
    envelopes: Sequence[Envelope]
    outcome: TableOutcome | None


@dataclass(frozen=True, slots=True)
class Disagreement:
    """Where two saves of one table part: the seats whose signatures are on both sides."""

    kind: Literal["equivocation", "outcome"]
    files: tuple[str, str]
    signers: tuple[int, ...]
    text: str


class DifferentTables(ValueError):
    """The saves are not of one table: there is nothing to compare."""


def outcome_words(outcome: TableOutcome | None) -> str:
    """An outcome in a few words: how it ended and who won."""
    if outcome is None:
        return "unfinished"
    if outcome.ended == "undecided":
        return "undecided (it cannot know how the others ended the table)"
    winners = [s for s, r in enumerate(outcome.returns) if r > 0]
    won = ", ".join(f"seat {s}" for s in winners) or "nobody"
    return f"{outcome.ended}, winner {won}"


def _chains(save: SeatSave, seats: int) -> list[list[Envelope]]:
    chains: list[list[Envelope]] = [[] for _ in range(seats)]
    for envelope in save.envelopes:  # each seat's in number order: the receiver saw to it
        if 0 <= envelope.seat < seats:
            chains[envelope.seat].append(envelope)
    return chains


def _kind(envelope: Envelope) -> str:
    try:
        message = envelope.message
    except WireError:
        return "?"
    kind = str(message["kind"])
    if kind == "abort":
        return f"abort ({message.get('cause')} of seat {message.get('seat')})"
    return kind


def compare(saves: Sequence[SeatSave], seats: int) -> list[Disagreement]:
    """Every way in which the saves part (empty: they tell one history). DifferentTables
    when they are not of one table."""
    if len({save.table_id for save in saves}) > 1:
        raise DifferentTables("these saves are of different tables")
    chains = [_chains(save, seats) for save in saves]
    found: list[Disagreement] = []
    for i, first in enumerate(saves):
        for j in range(i + 1, len(saves)):
            second = saves[j]
            files = (first.name, second.name)
            for seat in range(seats):
                ours, theirs = chains[i][seat], chains[j][seat]
                for seq, (a, b) in enumerate(zip(ours, theirs, strict=False)):
                    if a != b:
                        found.append(
                            Disagreement(
                                "equivocation", files, (seat,),
                                f"seat {seat} signed two different messages numbered {seq}: "
                                f"{_kind(a)} in {first.name}, {_kind(b)} in {second.name}",
                            )
                        )  # fmt: skip
                        break
            # A save that cannot know the outcome says so ("undecided"): it contradicts none.
            a_out, b_out = first.outcome, second.outcome
            if a_out is None or b_out is None or "undecided" in (a_out.ended, b_out.ended):
                continue
            if (a_out.ended, a_out.returns) == (b_out.ended, b_out.returns):
                continue
            found.append(_parted(files, chains[i], chains[j], a_out, b_out, seats))
    return found


def _parted(
    files: tuple[str, str],
    ours: list[list[Envelope]],
    theirs: list[list[Envelope]],
    a_out: TableOutcome,
    b_out: TableOutcome,
    seats: int,
) -> Disagreement:
    """Two saves with different outcomes: which seats' signed messages one holds and the
    other lacks (the signers on both sides of the split)."""
    lines = [f"{files[0]} says {outcome_words(a_out)}; {files[1]} says {outcome_words(b_out)}."]
    differing: set[int] = set()
    returned: set[int] = set()  # its leave is the last word one save holds of it
    for seat in range(seats):
        a, b = ours[seat], theirs[seat]
        if len(a) == len(b):
            continue
        longer, shorter, where = (a, b, files[0]) if len(a) > len(b) else (b, a, files[1])
        extra = longer[len(shorter) :]
        kinds = sorted({_kind(e) for e in extra})
        last = f"its message {len(shorter) - 1} ({_kind(shorter[-1])})" if shorter else "nothing"
        lines.append(
            f"seat {seat} signed messages {len(shorter)}-{len(longer) - 1} "
            f"({', '.join(kinds[:4])}) that only {where} holds; the other holds up to {last}."
        )
        differing.add(seat)
        if shorter and _kind(shorter[-1]) == "leave":
            returned.add(seat)
    # A seat whose leave one side rests on and whose later messages the other holds
    # signed both sides; otherwise every seat whose messages one side lacks had a hand in it.
    signers = returned or differing
    return Disagreement("outcome", files, tuple(sorted(signers)), " ".join(lines))


__all__ = ["DifferentTables", "Disagreement", "SeatSave", "compare", "outcome_words"]
