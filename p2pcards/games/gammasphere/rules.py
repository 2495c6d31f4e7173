"""The numbers of Gammasphere TCG Prototype 3 (our reading of its rulebook, and our choices
where it is open: rules.md beside this file)."""

from __future__ import annotations

START_GAS = 3000  # line 23
INCOME = 300  # line 23, line 28: gained each turn
REFINERY_INCOME = 300  # line 28: "plus 300 more for each Refinery you have in play"
REFINERY = "refinery"  # the card the rulebook names for it
POWER = 9000  # line 24
HAND_SIZE = 7  # line 25
HAND_LIMIT = 10  # line 25: checked at the end of a turn
DECK_SIZE = 40  # rules.md: the text gives no size
MAX_COPIES = 4  # line 9 (entities), line 21 (events); Pylons unlimited (line 20)
LOWEST_LEVEL, HIGHEST_LEVEL = 1, 10  # line 14
