"""``railledger legal``: what could be done at a position of a record.

The record is replayed up to the action the record numbers N (the game before it); the command
lists every legal action there in words, grouped by kind, the one the record made marked, or
as 18xx.games-style JSON action objects.
"""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from railledger.cli.options import DEFAULT_DB, DEFAULT_WAIT, DbOption, WaitOption, fail, game_record

if TYPE_CHECKING:  # the engine loads when the command runs, not for railledger --help
    from railledger.ingest.model import Action, Record
    from railledger.replay import Game


END = "end"
"""``--at end``: the position after the record's last action."""


def legal(
    record_path: Annotated[str, typer.Argument(metavar="RECORD|GAME", help="A record file (.json or .rln), - for stdin, "
                                               "or an archived game's key or source id.")],
    at: Annotated[str, typer.Option("--at", metavar="ACTION", help="The action, as the record numbers it (22, or 22.1 for an "
                                    "automatic one): the game before it; or 'end', after the last action.")],
    as_json: Annotated[bool, typer.Option("--json", help="A JSON list of 18xx.games-style action objects.")] = False,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """List the legal actions at a position of a record.

    Every action the rules allow there, of every entity that may act, in words and grouped by
    kind (a run is offered as the step: any routes may be declared; a price or amount free
    within bounds is given as its range), each move once, the one the record made there marked.
    With --json: every legal action as an 18xx.games action object (a run without routes; a
    purchase from another company or a bid at its least, with its price range).

    A name that is not a file is looked up in the archive (--db), as show does.

    Example: railledger legal ../shared/fixtures/18MS/14375.json --at 22
    """
    import json

    from railledger.cli.output import consoles, say
    from railledger.replay.sentences import group_offers, place

    record, _ = game_record(record_path, db, wait)
    game, made = _game_at(record, at)
    offered = list(game.legal_actions())
    if as_json:
        sys.stdout.write(json.dumps([as_export(a) for a in offered]) + "\n")
        return
    out = consoles(soft_wrap=True)[0]
    where = f"after its last action ({game.round.label})" if made is None else f"before action {place(made.label, game.round.label)}"
    groups = group_offers(game, offered, made)
    moves = sum(len(group.offers) for group in groups)
    counted = f"{len(offered)} legal action{'s' if len(offered) != 1 else ''}"
    if moves != len(offered):  # two certificates of a kind, two rotations laying the same track
        counted += f", {moves} distinct move{'s' if moves != 1 else ''}"
    say(out, f"{record.key} {where}: {counted}")
    for group in groups:
        say(out, f"  {group.title}:")
        for offer in group.offers:
            say(out, f"    {offer.text}" + (f"  <- the record's action {made.label}" if offer.made and made else ""))


def as_export(action: "Action") -> dict[str, Any]:
    """An action as 18xx.games writes one (without an id: it is not in a record yet)."""
    return {"type": action.type, "entity": action.entity.id, "entity_type": action.entity.kind, **action.fields}


def _game_at(record: "Record", at: str) -> tuple["Game", "Action | None"]:
    """The game before the action labelled ``at`` (or after the last one), and that action."""
    from railledger.replay import Game, IllegalAction

    labels = [action.label for action in record.actions]
    if at != END and at not in labels:
        span = f"numbered {labels[0]} to {labels[-1]}" if labels else "none"
        raise fail(f"{record.key}: has no action {at} (its actions: {span}; --at end is after the last)")
    try:
        game = Game.from_record(record)
    except (KeyError, NotImplementedError) as exc:
        raise fail(f"{record.key}: {exc}") from None
    for action in record.actions:
        if action.label == at:
            return game, action
        try:
            game.process(action)
        except IllegalAction as illegal:
            raise fail(f"{record.key}: {illegal.args[0].split(':')[0]} is illegal ({illegal.rule_id}: {illegal.message}); "
                       "no position after it") from None
    return game, None
