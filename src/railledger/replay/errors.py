"""Why an action is illegal: the rule it breaks and a message a player understands."""

from __future__ import annotations

from dataclasses import dataclass


class Violation(Exception):
    """Raised inside the engine with a title-independent rule key (``cert-limit``).

    :class:`~replay.game.Game` turns it into an :class:`IllegalAction` that names the title's
    rulebook section, so the generic core never needs to know section numbers.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Rule:
    """A rule of a title: stable id (``18MS/10.4-cert-limit``), rulebook section, short text."""

    id: str
    section: str
    text: str


class IllegalAction(Exception):
    """An action the rules forbid, with where it is in the record and which rule it breaks."""

    def __init__(self, index: int, action_id: str, rule: Rule, message: str, round_label: str = "") -> None:
        where = f"action {action_id} ({round_label})" if round_label else f"action {action_id}"
        super().__init__(f"{where}: {rule.id}: {message}")
        self.index = index  # position in the canonical list, from 0 (the record numbers it action_id)
        self.action_id = action_id
        self.rule = rule
        self.message = message
        self.round_label = round_label  # the round the action came in ("OR 1.1")

    @property
    def rule_id(self) -> str:
        return self.rule.id

    @property
    def section(self) -> str:
        return self.rule.section
