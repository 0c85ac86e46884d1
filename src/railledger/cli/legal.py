"""``railledger legal``: what could be done at a position of a record.

The record is replayed up to its canonical position N (the game before action N); the command
lists every legal action there, in notation or as 18xx.games-style JSON action objects.
"""

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from railledger.cli.options import fail

if TYPE_CHECKING:  # the engine loads when the command runs, not for railledger --help
    from railledger.ingest.model import Action, Record
    from railledger.replay import Game


def legal(
    record_path: Annotated[str, typer.Argument(metavar="RECORD", help="A record file (.json or .rln), or - for stdin.")],
    at: Annotated[int, typer.Option("--at", help="Canonical position: the game before action N (0 = at setup).", min=0)],
    as_json: Annotated[bool, typer.Option("--json", help="A JSON list of 18xx.games-style action objects.")] = False,
) -> None:
    """List the legal actions at a position of a record.

    Every action the rules allow there, of every entity that may act (a run is offered as an
    empty run: any routes may be declared; a purchase from another company or a bid carries its
    price range).

    Example: railledger legal ../shared/fixtures/18MS/14375.json --at 40 --json
    """
    import json

    from railledger.cli.output import consoles, say
    from railledger.ingest import notation

    record = _one_record(record_path)
    game = _game_at(record, at)
    offered = list(game.legal_actions())
    if as_json:
        sys.stdout.write(json.dumps([as_export(a) for a in offered]) + "\n")
        return
    seats = {player.id: seat for seat, player in enumerate(record.players, start=1)}
    out = consoles(soft_wrap=True)[0]
    say(out, f"{record.key} at #{at} ({game.round.label}): {len(offered)} legal action{'s' if len(offered) != 1 else ''}")
    for action in offered:
        say(out, "  " + notation.write_action(action, seats).split(" ", 1)[1])


def as_export(action: "Action") -> dict[str, Any]:
    """An action as 18xx.games writes one (without an id: it is not in a record yet)."""
    return {"type": action.type, "entity": action.entity.id, "entity_type": action.entity.kind, **action.fields}


def _one_record(path: str) -> "Record":
    from railledger.ingest.sources import DEFAULT_MAX_SIZE, load

    loaded = list(load(path, DEFAULT_MAX_SIZE))
    if len(loaded) != 1:
        raise fail(f"{path}: holds {len(loaded)} records; give one")
    if loaded[0].record is None:
        raise fail(str(loaded[0].error or f"{path}: not a record"))
    return loaded[0].record


def _game_at(record: "Record", at: int) -> "Game":
    from railledger.replay import Game, IllegalAction

    if at > len(record.actions):
        raise fail(f"{record.key}: has {len(record.actions)} actions; position {at} is past its end")
    try:
        game = Game.from_record(record)
    except (KeyError, NotImplementedError) as exc:
        raise fail(f"{record.key}: {exc}") from None
    for action in record.actions[:at]:
        try:
            game.process(action)
        except IllegalAction as illegal:
            raise fail(f"{record.key}: action {illegal.action_id} (#{illegal.index}) is illegal "
                       f"({illegal.rule_id}: {illegal.message}); no position after it") from None
    return game
