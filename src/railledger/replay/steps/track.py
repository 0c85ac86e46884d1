"""Laying track: the operating company's tile lays, and privates that lay track for it.

A title gives the company a sequence of tile lays per turn (18xx.games' ``TILE_LAYS``): each may
allow a new yellow tile, an upgrade, or either unless the turn already upgraded, at a cost. The
step stays open while a lay is left and affordable, whether or not a legal tile exists: the
player passes it. A tile must be in the manifest and the phase's colours, keep the old tile's
track and stops, not run off the map, connect to the company's network, and its terrain cost be
paid.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from railledger.ingest.model import Action, Entity
from railledger.replay.abilities import check_acts_for, held_for, in_time
from railledger.replay.data import Ability
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, make_action, reads
from railledger.replay.names import entity_name
from railledger.replay.steps.base import OperatingStep
from railledger.replay.geometry import NEXT_COLOUR, TileGeometry, legal_rotations
from railledger.replay.network import network_of, network_seen
from railledger.replay.state import CompanyState
from railledger.replay.steps.companies import BuyCompany

if TYPE_CHECKING:
    from railledger.replay.rounds.operating import OperatingTurn



@dataclass(frozen=True)
class TileLay:
    """One tile lay of a turn: whether it may be a new yellow tile and/or an upgrade
    (``"unless upgraded"``: only if the turn has not upgraded yet), and what it costs."""

    lay: bool | str = True
    upgrade: bool | str = True
    cost: int = 0
    rule: str = "tile-count"  # the rule key a lay this one does not allow breaks

    def allows(self, upgrade: bool, turn: OperatingTurn) -> bool:
        permission = self.upgrade if upgrade else self.lay
        return permission is True or (permission == "unless upgraded" and not turn.upgraded)


ONE_LAY = (TileLay(),)
"""The generic turn: one tile lay, a new tile or an upgrade."""


@dataclass(frozen=True)
class Lay:
    """A checked tile lay: what goes down and what it costs."""

    hex_id: str
    tile_id: str
    rotation: int
    geometry: TileGeometry
    upgrade: bool
    cost: int  # lay cost plus terrain


class TrackLaying(OperatingStep):
    """What a track step and a private's track ability share: checking a lay and putting it down."""

    def check_tile(self, action: Action, lay_cost: int, needs_route: bool = True, as_if: str | None = None) -> Lay:
        """Every rule of a tile lay but whose lay it is; returns the lay with its cost."""
        game, corp = self.game, self.corporation
        hex_id, tile_id, rotation = str(action.fields["hex"]), str(action.fields["tile"]), action.fields["rotation"]
        if not isinstance(rotation, int) or not 0 <= rotation < 6:
            raise Violation("tile-upgrade", f"rotation {rotation!r} is not 0 to 5")
        geometry = game.board.check_lay(hex_id, tile_id, rotation, self.colours(), as_if)
        upgrade = self.is_upgrade(hex_id)
        self.check_rules(action, hex_id, geometry, upgrade)
        if needs_route and not network_of(game, corp).touches(hex_id, geometry.edges):
            raise Violation("tile-connect", f"tile {tile_id.rsplit('-', 1)[0]} on {hex_id} does not connect to {corp}'s network")
        cost = lay_cost + game.board.terrain_cost_of(hex_id)
        if cost and game.cash(corp) < cost:
            raise Violation("terrain-cost", f"{corp} has ${game.cash(corp)}, less than the ${cost} this lay costs on {hex_id}")
        return Lay(hex_id, tile_id, rotation, geometry, upgrade, cost)

    def lays_join_network(self, entity: Entity) -> bool:
        """Whether the step's check refuses every lay of ``entity`` that does not join the
        company's network (``check_tile`` with ``needs_route``), so that listing may skip those
        unchecked."""
        return False

    def colours(self) -> tuple[str, ...]:
        return self.game.phase.tiles

    def is_upgrade(self, hex_id: str) -> bool:
        """18xx.games counts any lay on a hex that is not blank (white) as an upgrade."""
        return self.game.board.tile(hex_id).color != "white"

    def check_rules(self, action: Action, hex_id: str, geometry: TileGeometry, upgrade: bool) -> None:
        """Title restrictions on where and what a company lays (blocked hexes, special tiles)."""

    def put_down(self, lay: Lay) -> None:
        game = self.game
        game.board.lay(lay.hex_id, lay.tile_id, lay.rotation, lay.geometry)
        game.graph.clear()
        if lay.cost:
            game.pay(self.corporation, None, lay.cost)
        self.after_lay(lay)

    def after_lay(self, lay: Lay) -> None:
        """Effects of a lay beyond the tile itself (a bonus for reaching somewhere)."""

    def lay_candidates(self, entity: Entity, hexes: Iterator[str] | None = None,
                       tiles: tuple[str, ...] | None = None, as_if: str | None = None) -> Iterator[Action]:
        """Every (hex, tile, rotation) worth checking: hexes touching the network (or those
        given), tiles of the phase's colours left in the supply, rotations keeping the old track.
        Each is then checked by the step itself, so what is yielded is legal; a rotation whose
        track would leave the hex's open sides, or (:meth:`lays_join_network`) miss the
        network's, is skipped unchecked, since the check refuses it (most lays listed are)."""
        game = self.game
        board = game.board
        if hexes is None:
            hexes = iter(sorted(self.reachable_hexes()))
        colours = self.colours()
        free: dict[str, list[tuple[TileGeometry, str]]] = {}  # colour -> its tiles left, found when a hex first takes it
        network = network_seen(game, self.corporation) if self.lays_join_network(entity) else None
        for hex_id in hexes:
            if hex_id not in board.hexes or not self.lays_open_on(hex_id):
                continue
            old = board.tile(hex_id)
            if as_if is not None and old.color == "white":
                old = replace(old, color=as_if)
            following = NEXT_COLOUR.get(old.color)  # no other colour replaces it (preserves)
            if following not in colours:
                continue
            if following not in free:
                free[following] = self.free_tiles(following, tiles)
            label = board.label_for(hex_id, following) or old.label  # as the check finds it for a tile of that colour
            open_edges = board.open_edges(hex_id)
            joining = None if network is None else frozenset(e for e in range(6) if (hex_id, e) in network.sides)
            for new, tile_id in free[following]:
                for rotation in legal_rotations(old, new, label):
                    if not self.worth_checking(new.rotated(rotation).edges, open_edges, joining):
                        continue
                    action = make_action("lay_tile", entity, hex=hex_id, tile=tile_id, rotation=rotation)
                    try:
                        self.check(action)
                    except Violation:
                        continue
                    yield action

    def free_tiles(self, colour: str, tiles: tuple[str, ...] | None) -> list[tuple[TileGeometry, str]]:
        """The tiles of ``colour`` left in the supply (of ``tiles`` in their order, else all by
        name), each with the copy a lay would use (the lowest free one, as 18xx.games')."""
        board, catalogue = self.game.board, self.game.title.tiles
        found = []
        for name in tiles or catalogue.by_colour.get(colour, ()):
            new = catalogue.tiles.get(name)
            if new is None or new.color != colour or board.supply.get(name, 0) <= 0:
                continue
            tile_id = board.free_copy(name)
            if tile_id is not None:
                found.append((new, tile_id))
        return found

    def lays_open_on(self, hex_id: str) -> bool:
        """Whether the step could take any lay on this board hex now (listing skips a hex
        where it could not, unchecked)."""
        return True

    @staticmethod
    def worth_checking(edges: frozenset[int], open_edges: frozenset[int], joining: frozenset[int] | None) -> bool:
        """Whether a lay with track out of ``edges`` could pass the check: none leaves the
        hex's ``open_edges`` and, where the lay must join the network, one is a side of it in
        ``joining``."""
        return edges <= open_edges and (joining is None or not edges.isdisjoint(joining))

    def reachable_hexes(self) -> set[str]:
        """Hexes a lay could join the company's network in."""
        network = network_of(self.game, self.corporation)
        hexes = {h for h, _ in network.nodes} | {h for h, _ in network.sides}
        for hex_id, edge in network.sides:
            other = self.game.board.neighbour(hex_id, edge)
            if other is not None:
                hexes.add(other)
        return hexes


class Track(TrackLaying):
    """The operating company's own tile lays."""

    name = "track"
    timing = "track"

    def lays_join_network(self, entity: Entity) -> bool:
        return True

    def tile_lays(self) -> tuple[TileLay, ...]:
        """The lays the company has this turn (a title may give more, e.g. on a first turn)."""
        return ONE_LAY

    def next_lay(self) -> TileLay | None:
        lays = self.tile_lays()
        turn = self.round.turn
        return lays[turn.lays] if turn.lays < len(lays) else None

    def lays_open_on(self, hex_id: str) -> bool:
        """A lay is left and may be one on this hex: a new tile on a blank hex, an upgrade on
        another (:meth:`do_lay_tile` refuses every lay on it otherwise; an 1871 or Texas
        second lay is yellow only)."""
        lay = self.next_lay()
        return lay is not None and lay.allows(self.is_upgrade(hex_id), self.round.turn)

    def can_lay(self) -> bool:
        """Open while a lay is left and affordable, a private could still lay track in it, or a
        private that lays track is for sale to the company (18xx.games' ``can_lay_tile?``)."""
        if self.private_lay_open() or self.track_private_for_sale():
            return True
        lay = self.next_lay()
        if lay is None or self.game.cash(self.corporation) < lay.cost:
            return False
        turn = self.round.turn
        return lay.allows(False, turn) or lay.allows(True, turn)

    def private_lay_open(self) -> bool:
        """A private of the company (or of its president) could still lay extra track now."""
        corp = self.corporation
        for company, ability in held_for(self.game, corp, "tile_lay"):
            timing = ability.get("timing", ())
            own = company.owner == corp and "track" in timing
            presidents = company.owner != corp and "owning_player_track" in timing
            if (own or presidents) and not ability.get("counts_as_company_tile_lay") and self.ability_phase_ok(ability):
                return True
        return False

    def ability_phase_ok(self, ability: Ability) -> bool:
        phases = ability.get("phases")
        return phases is None or self.game.phase.name in phases

    def track_private_for_sale(self) -> bool:
        """A private with a track ability the company could buy now (and then use)."""
        for step in self.round.steps:
            if isinstance(step, BuyCompany) and step.blocks and step.phase_allows():
                cash = self.game.cash(self.corporation)
                for company in step.for_sale():
                    spec = self.game.title.company_spec(company.sym)
                    lays = [a for a in spec.abilities if a.type == "tile_lay" and "track" in a.get("timing", ())]
                    if lays and step.price_range(company)[0] <= cash:
                        return True
        return False

    def offers(self, entity: Entity) -> frozenset[str]:
        if entity != self.round.current or not self.can_lay():
            return frozenset()
        return frozenset({"lay_tile", "pass"})

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is None or not self.offers_now(current):
            return
        yield from self.lay_candidates(current)
        yield make_action("pass", current)

    @reads("hex", "tile", "rotation")
    def do_lay_tile(self, action: Action) -> Effects:
        if action.entity != self.round.current:
            raise Violation("operating-order", f"{entity_name(self.game, action.entity)} is not operating")
        lay = self.next_lay()
        if lay is None:
            raise Violation("tile-count", f"{self.corporation} has no tile lay left this turn")
        if lay.cost and self.game.cash(self.corporation) < lay.cost:
            raise Violation(lay.rule, f"{self.corporation} has ${self.game.cash(self.corporation)}, less than the ${lay.cost} this lay costs")
        checked = self.check_tile(action, 0)
        if not lay.allows(checked.upgrade, self.round.turn):
            what = "an upgrade" if checked.upgrade else "a new yellow tile"
            after = " after an upgrade" if self.round.turn.upgraded else ""
            raise Violation(lay.rule, f"{self.corporation}'s next tile lay may not be {what}{after}")
        total = checked.cost + lay.cost
        if self.game.cash(self.corporation) < total:
            raise Violation("terrain-cost", f"{self.corporation} has ${self.game.cash(self.corporation)}, less than the ${total} this lay costs")
        yield
        self.put_down(Lay(checked.hex_id, checked.tile_id, checked.rotation, checked.geometry, checked.upgrade, total))
        self.count_lay(checked)
        if not self.can_lay():
            self.passed = True

    def count_lay(self, lay: Lay) -> None:
        turn = self.round.turn
        turn.lays += 1
        turn.upgraded = turn.upgraded or lay.upgrade
        turn.laid.append((lay.hex_id, lay.geometry.color, lay.upgrade))


class CompanyTrack(TrackLaying):
    """A private laying track for the operating company with its ``tile_lay`` ability: extra
    lays (free, of given colours or tiles, on given hexes, connected or not), or lays that count
    as the company's own. It does not hold the turn up."""

    name = "private track"
    can_pass = False
    blocks = False
    answered_kind = "company"

    def abilities(self, entity: Entity) -> list[tuple[CompanyState, Ability]]:
        if entity.kind != "company" or self.round.corporation is None:
            return []
        step = self.round.step_kind()
        return [(company, ability) for company, ability in held_for(self.game, self.corporation, "tile_lay")
                if company.sym == entity.id and in_time(self.game, self.corporation, company, ability, step)
                and self.ability_open(company, ability)]

    def ability_open(self, company: CompanyState, ability: Ability) -> bool:
        """Title limits beyond uses left (e.g. phases in which the ability works)."""
        phases = ability.get("phases")
        return phases is None or self.game.phase.name in phases

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"lay_tile"}) if self.abilities(entity) else frozenset()

    def lays_join_network(self, entity: Entity) -> bool:
        """A private whose ability must connect: the check reads the first ability it offers
        (:meth:`do_lay_tile`), so the listing does (most of 18MS's private lays listed missed
        the network)."""
        found = self.abilities(entity)
        return bool(found) and bool(found[0][1].get("must_connect", False))

    def legal(self) -> Iterator[Action]:
        for entity, ability in self.offering_privates("tile_lay"):
            hexes = ability.get("hexes") or None
            yield from self.lay_candidates(entity, iter(sorted(hexes)) if hexes else None, tuple(ability.get("tiles") or ()) or None)

    @reads("hex", "tile", "rotation")
    def do_lay_tile(self, action: Action) -> Effects:
        check_acts_for(self.game, self.round.corporation, action.entity)
        found = self.abilities(action.entity)
        if not found:
            raise Violation("company-ability", f"{entity_name(self.game, action.entity)} has no ability to lay track now")
        company, ability = found[0]
        name = str(action.fields.get("tile", "")).rsplit("-", 1)[0]
        hexes = ability.get("hexes") or ()
        if hexes and action.fields.get("hex") not in hexes:
            raise Violation("company-ability", f"{company.name} lays track only on {', '.join(hexes)}")
        tiles = ability.get("tiles") or ()
        geometry = self.game.title.tiles.tiles.get(name)
        if tiles and name not in tiles:
            raise Violation("company-ability", f"{company.name} lays only tile {' or '.join(tiles)}")
        colours = ability.get("tile_colors")
        if colours and (geometry is None or geometry.color not in colours):
            raise Violation("company-ability", f"{company.name} lays {' or '.join(colours)} tiles only")
        lay = self.check_tile(action, 0, needs_route=bool(ability.get("must_connect", False)))
        if ability.get("counts_as_company_tile_lay"):
            self.check_company_lay(lay)
        if ability.get("free"):
            lay = Lay(lay.hex_id, lay.tile_id, lay.rotation, lay.geometry, lay.upgrade, 0)
        yield
        company.uses += 1
        self.put_down(lay)
        self.used(company, ability, lay)

    def check_company_lay(self, lay: Lay, upgrade: bool | None = None) -> None:
        """A lay that counts as the company's own must be one its next tile lay allows: none left,
        or an upgrade (``upgrade``, by default the lay's own) where only a yellow tile may
        follow, is refused (REF: "Cannot lay an upgrade now")."""
        upgrade = lay.upgrade if upgrade is None else upgrade
        track = next((s for s in self.round.steps if isinstance(s, Track)), None)
        if track is None:
            return
        allowed = track.next_lay()
        if allowed is None:
            raise Violation("tile-count", f"{self.corporation} has no tile lay left this turn")
        if not allowed.allows(upgrade, self.round.turn):
            what = "an upgrade" if upgrade else "a new yellow tile"
            raise Violation(allowed.rule, f"{self.corporation}'s next tile lay may not be {what}")

    def used(self, company: CompanyState, ability: Ability, lay: Lay) -> None:
        """After the lay: a lay that counts as the company's own uses its tile lay."""
        if ability.get("counts_as_company_tile_lay"):
            self.round.turn.lays += 1
            self.round.turn.laid.append((lay.hex_id, lay.geometry.color, lay.upgrade))
