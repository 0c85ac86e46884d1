"""What an action does, as opposed to how a record spells it: for comparing actions with
``Game.legal_actions()``.

The generator offers one action per distinct move: one certificate per company, source and size
(any other certificate of the same kind is the same move), one copy of a tile, each distinct
turned geometry once, a train or private bought from a company with its price range, a bid or a
cash choice at its least with its range. :func:`move_key` says which move an action is, so a
recorded action can be found among the offered ones.
"""

from __future__ import annotations

from typing import Any

from railledger.ingest.model import Action
from railledger.replay.errors import Violation
from railledger.replay.state import GameState


def move_key(game: GameState, action: Action) -> tuple[Any, ...]:
    """The move ``action`` makes in ``game`` (before it is applied)."""
    fields = action.fields
    head: tuple[Any, ...] = (action.type, action.entity.kind, action.entity.id)
    kind = action.type
    if kind in ("buy_shares", "sell_shares"):
        shares = [game.shares[i] for i in fields.get("shares") or [] if i in game.shares]
        described = tuple(sorted((s.corporation, str(s.owner), s.percent, s.president) for s in shares))
        return (*head, described, fields.get("percent"), fields.get("purchase_for"))
    if kind == "lay_tile":
        hex_id, tile = str(fields.get("hex")), str(fields.get("tile"))
        geometry = game.title.tiles.tiles.get(tile.rsplit("-", 1)[0])
        rotation = fields.get("rotation")
        turned = geometry.rotated(rotation).paths if geometry is not None and isinstance(rotation, int) else rotation
        return (*head, hex_id, tile.rsplit("-", 1)[0], turned)
    if kind == "place_token":
        city = str(fields.get("city"))
        try:
            return (*head, game.board.city(city))
        except Violation:  # a city that is not on the map is a move of its own
            return (*head, city)
    if kind == "buy_train":
        train = game.trains.get(str(fields.get("train")))
        if train is None:
            return (*head, fields.get("train"))
        if train.owner is None:
            return (*head, train.card, "bank", fields.get("variant") or train.card, fields.get("price"))
        return (*head, train.id, train.owner, fields.get("variant") or train.name)
    if kind in ("buy_company", "bid"):
        return (*head, fields.get("company"))
    if kind == "choose" and isinstance(fields.get("choice"), int):
        return (*head, "amount")
    return (*head, tuple(sorted((k, repr(v)) for k, v in fields.items() if not k.endswith("_range"))))
