"""18xx.games' seeded random generator, which titles with a random setup draw from.

It is a linear congruential generator, ``state = (1103515245 * state + 12345) mod 2^31``,
seeded with the record's ``settings.seed``, or, for records without one, with the first run of
digits in the game's id. Titles use only the facts of what it draws (which company, which pile),
so a record's setup is the one its players saw.
"""

from __future__ import annotations

import re

MULTIPLIER, INCREMENT, MODULUS = 1_103_515_245, 12_345, 2**31


class SeededDraws:
    def __init__(self, seed: int | None, game_id: str | None) -> None:
        if seed is None:
            digits = re.search(r"\d+", game_id or "")
            seed = int(digits.group()) if digits else 0
        self.state = seed % MODULUS

    def next(self) -> int:
        self.state = (MULTIPLIER * self.state + INCREMENT) % MODULUS
        return self.state

    def shuffled(self, items: list[str]) -> list[str]:
        """The items ordered by one draw each, as 18xx.games shuffles (sort by the draw)."""
        keyed = [(self.next(), item) for item in items]
        return [item for _, item in sorted(keyed)]
