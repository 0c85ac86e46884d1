"""A game's verdict: what an organizer can say of a record once the rules engine has replayed it.

One of:

* ``valid``: replays with no flag to its recorded result, and the game was played to its end;
* ``illegal``: an action breaks a rule (the first one is named: its id and round, the action in words, the rule);
* ``result mismatch``: replays with no flag, but the final values differ from the recorded ones;
* ``unfinished``: no recorded result, not finished, or ended by hand (saying which);
* ``no engine``: railledger has no rules engine for the title;
* ``not replayed``: the title has an engine but the record was stored without a replay
  (``railledger ingest --no-replay``).

The order of the checks is the order of what matters most: a broken rule makes every value after
it doubtful, a result that differs from the rules' is worth knowing even in a game ended by hand,
and only a game with neither is judged on whether it was finished. Statistics count ``valid``
games only (unfinished games have every player still near the starting cash, all "winning").

A verdict may carry notes after its detail (``; note: ...``): what an organizer should know of a
record that no rule of the game breaks, and that may leave it valid: an optional rule the engine
does not apply, an undo that took nothing back or pointed at a chat message or a later action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from railledger.ingest.identity import clash_notes, seat_labels
from railledger.ingest.model import Action, Record, SourceText
from railledger.ingest.undo import undo_remarks
from railledger.replay.titles import SUPPORTED, title_named

if TYPE_CHECKING:
    from railledger.replay.replayer import Replay

VALID = "valid"
ILLEGAL = "illegal"
MISMATCH = "result mismatch"
UNFINISHED = "unfinished"
NO_ENGINE = "no engine"
NOT_REPLAYED = "not replayed"
KINDS = (VALID, ILLEGAL, MISMATCH, UNFINISHED, NO_ENGINE, NOT_REPLAYED)
"""Every verdict, in the order summaries list them."""
INVALID = (ILLEGAL, MISMATCH)
"""Verdicts that make ``railledger ingest`` exit non-zero (unless ``--allow-invalid``)."""


@dataclass(frozen=True)
class Verdict:
    """A verdict and the one line it rests on (``detail``)."""

    kind: str
    detail: str

    @property
    def invalid(self) -> bool:
        return self.kind in INVALID

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def judge(record: Record, replay: Replay | None, source: SourceText | None = None) -> Verdict:
    """The verdict of ``record`` given what its replay found (None: it was not replayed), with the
    notes (:func:`notes`) of the record and of the text it was read from (``source``)."""
    verdict = _verdict(record, replay)
    noted = notes(record, source)
    return Verdict(verdict.kind, "; ".join([verdict.detail, *(f"note: {note}" for note in noted)])) if noted else verdict


def notes(record: Record, source: SourceText | None = None) -> tuple[str, ...]:
    """What an organizer should know of a record that breaks no rule: players whose names compare
    equal (:func:`ingest.identity.clash_notes`: how each is shown instead), each optional rule the
    title's engine does not apply (the game was replayed without it), and each undo or redo of
    its text that changed nothing (:attr:`ingest.undo.Undo.remark`)."""
    unapplied: tuple[str, ...] = ()
    if record.title in SUPPORTED:
        applied = title_named(record.title).optional_rules
        unapplied = tuple(f"optional rule {rule!r} is not one railledger's {record.title} engine applies; "
                          "the game was replayed without it" for rule in record.optional_rules if rule not in applied)
    return clash_notes(record) + unapplied + undo_remarks(source)


def _verdict(record: Record, replay: Replay | None) -> Verdict:
    if record.title not in SUPPORTED:
        return Verdict(NO_ENGINE, f"railledger has no rules engine for {record.title}")
    if replay is None:
        return Verdict(NOT_REPLAYED, "stored without a replay (ingest --no-replay); ingest it again to judge it")
    if replay.flags:
        return Verdict(ILLEGAL, _illegal(record, replay))
    recorded = record.result
    if recorded and dict(recorded) != replay.result:
        shown = seat_labels(record)
        values = "; ".join(
            f"{shown[player.id]} recorded {recorded.get(player.id, '-')}, replayed {replay.result.get(player.id, '-')}"
            for player in record.players
        )
        return Verdict(MISMATCH, values)
    reasons = unfinished_reasons(record)
    if reasons:
        return Verdict(UNFINISHED, "; ".join(reasons))
    return Verdict(VALID, "replays with no flag to its recorded result")


def unfinished_reasons(record: Record) -> list[str]:
    """Why a record is not a finished game, if it is not: no result, its status, a manual end."""
    reasons = []
    if not record.result:
        reasons.append("no recorded result")
    if record.status != "finished":
        reasons.append("not finished (no status)" if record.status is None else f"not finished (status {record.status})")
    ended = manual_end(record)
    if ended is not None:
        reasons.append(f"ended by hand by {acting_name(record, ended)} at action {ended.label}")
    return reasons


def manual_end(record: Record) -> Action | None:
    """The ``end_game`` action by which players ended the game by hand, if any."""
    return next((action for action in record.actions if action.type == "end_game"), None)


def acting_name(record: Record, action: Action) -> str:
    """Who an action names as acting: a player by the name shown for them, any other entity by its id."""
    if action.entity.kind == "player":
        return seat_labels(record).get(action.entity.id, str(action.entity.id))
    return str(action.entity.id)


def _illegal(record: Record, replay: Replay) -> str:
    first = replay.flags[0]  # flags come in action order, so the first is a root cause
    text = f"{first.where}: {first.sentence} (rule {first.rule}: {first.message})"
    if replay.stopped_at is not None:
        return text + " (the replay stopped there)"
    if len(replay.flags) > 1:
        roots = sum(1 for flag in replay.flags if flag.root)
        text += f" ({len(replay.flags)} flags, {roots} root cause{'s' if roots != 1 else ''})"
    return text
