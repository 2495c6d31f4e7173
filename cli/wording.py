"""Words every game's view uses for seats: 'you' for the person's own seat."""


def seat_label(seat: int, you: int | None) -> str:
    """'you' for the person's seat, 'seat N' otherwise."""
    return "you" if seat == you else f"seat {seat}"


def says(seat: int, you: int | None, verb: str) -> str:
    """'you draft' or 'seat 1 drafts': subject and verb agreeing."""
    return f"you {verb}" if seat == you else f"seat {seat} {verb}s"
