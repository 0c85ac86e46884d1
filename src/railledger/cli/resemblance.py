"""How ``railledger ladder --people`` prints bots' games beside people's (:mod:`analytics.shape`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine loads when a command runs, not for --help
    from railledger.analytics.shape import Comparison, Spread


def comparison_lines(comparison: Comparison, left_out: int) -> list[str]:
    """One line per measure (bots' and people's min / median / max, with how many games had it),
    then how the games ended, then the target's verdict."""
    from railledger.analytics.shape import TARGETED, widened

    lines = [f"beside people's games: {comparison.people_games} valid finished game"
             f"{'' if comparison.people_games == 1 else 's'} of {comparison.title}"
             + (f" ({left_out} more left out: not valid and finished)" if left_out else "")
             + "; min / median / max (games)",
             f"{'measure':<20} {'bots':<32} {'people':<32} target range"]
    for measure in comparison.measures:
        target = ""
        if measure.name in TARGETED and measure.people is not None:
            low, high = widened(measure.people)
            verdict = comparison.target(measure.name)
            target = f"{low:,.0f}-{high:,.0f}: " + ("median within" if verdict else "median outside")
        lines.append(f"{measure.name:<20} {_spread(measure.bots):<32} {_spread(measure.people):<32} {target}")
    lines.append("ended by: bots " + _ends(comparison.bot_ends) + "; people " + _ends(comparison.people_ends))
    verdict = comparison.holds
    lines.append("target (bots' median winner value and median operating rounds within the people's range widened "
                 "by a quarter of its width each side): "
                 + ("no people's games to compare with" if verdict is None else "holds" if verdict else "does not hold"))
    return lines


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    """The comparison as plain data for ``--json``."""
    def spread(value: Spread | None) -> dict[str, float] | None:
        return None if value is None else {"games": value.games, "min": value.low, "median": value.middle, "max": value.high}

    return {"games": comparison.people_games, "bot_games": comparison.bot_games, "holds": comparison.holds,
            "measures": [{"measure": m.name, "bots": spread(m.bots), "people": spread(m.people)} for m in comparison.measures],
            "ended_by": {"bots": comparison.bot_ends, "people": comparison.people_ends}}


def _spread(value: Spread | None) -> str:
    return "-" if value is None else str(value)


def _ends(counts: dict[str, int]) -> str:
    return ", ".join(f"{reason} ({n})" for reason, n in counts.items()) or "-"
