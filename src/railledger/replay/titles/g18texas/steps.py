"""18Texas's own steps: the Jay Gould par after the auction, two yellow tiles or one upgrade,
private blocks and abilities (the I&GN's lays, the teleports and their stations), trains bought
without the president's help from other companies (RB 10, 12, 16)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from railledger.ingest.model import Action, Entity
from railledger.replay.abilities import check_acts_for, held_for, in_time
from railledger.replay.data import Ability
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, Step, make_action, reads
from railledger.replay.geometry import TileGeometry
from railledger.replay.market import Cell
from railledger.replay.names import city_name, entity_name, money, player_name, private_name
from railledger.replay.state import CompanyState, GameState
from railledger.replay.steps.draft import BidAuction
from railledger.replay.steps.shares import parse_share_price
from railledger.replay.steps.tokens import Tokening
from railledger.replay.steps.track import CompanyTrack, Lay, TileLay, Track
from railledger.replay.steps.trains import BuyTrain

if TYPE_CHECKING:
    from . import EighteenTexas

TWO_YELLOW_OR_ONE_UPGRADE = (TileLay(), TileLay(lay="unless upgraded", upgrade=False, rule="tile-two-yellow"))


def title_of(game: GameState) -> EighteenTexas:
    return game.title  # type: ignore[return-value]


def share_abilities(game: GameState) -> list[tuple[CompanyState, Ability]]:
    """Privates that come with a certificate of the Jay Gould company, in the order they do."""
    return [(game.companies[spec.sym], a) for spec in game.title.companies for a in spec.abilities
            if a.type == "shares" and not game.companies[spec.sym].closed]


class JayGouldAuction(BidAuction):
    def after_auction(self) -> None:
        """The I&GN and NOPR bring their 10% of the Jay Gould company to their winners (7)."""
        game = self.game
        sym = title_of(game).state(game).jay_gould
        for company, ability in share_abilities(game):
            share_id = str(ability.get("share_id", "")).replace("<JG sym>", sym)
            share = game.shares.get(share_id)
            if company.sym != title_of(game).jay_gould_private and share is not None and company.owner is not None:
                game.move_share(share.id, company.owner)


class JayGouldPar(Step):
    """The Jay Gould winner sets the drawn company's par on a pink square (10); its treasury gets
    the par for every certificate the privates brought (18xx.games' after-par)."""

    name = "Jay Gould par"
    can_pass = False
    answered_kind = "player"

    def company(self) -> str:
        return title_of(self.game).state(self.game).jay_gould

    def actor(self) -> Entity | None:
        owner = self.game.companies[title_of(self.game).jay_gould_private].owner
        if owner is None or self.game.corporations[self.company()].par_price is not None:
            return None
        return Entity("player", owner)

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"par"}) if entity == self.actor() else frozenset()

    def skip(self) -> None:
        """Not passed: it wakes when the Jay Gould private has been won."""

    def why_not(self, action: Action) -> Violation | None:
        return Violation("jay-gould-par", f"the Jay Gould owner must first set the par of {self.company()}")

    def cells(self) -> list[Cell]:
        return self.game.market.par_cells()

    def legal(self) -> Iterator[Action]:
        actor = self.actor()
        if actor is not None:
            for cell in self.cells():
                yield make_action("par", actor, corporation=self.company(), share_price=f"{cell.price},{cell.row},{cell.column}")

    def say(self, action: Action) -> str | None:
        price = str(action.fields.get("share_price", "")).split(",")[0]
        if action.type != "par" or not price.isdigit():
            return None
        game = self.game
        return (f"{player_name(game, action.entity.id)} pars {action.fields.get('corporation')} at {money(int(price))} "
                f"as owner of {private_name(game, title_of(game).jay_gould_private)}, taking its president's "
                "certificate free")

    @reads("corporation", "share_price")
    def do_par(self, action: Action) -> Effects:
        game = self.game
        sym = self.company()
        if action.entity != self.actor() or action.fields.get("corporation") != sym:
            raise Violation("jay-gould-par", f"only the Jay Gould company {sym} is parred now, by the Jay Gould owner")
        price, row, column = parse_share_price(action.fields.get("share_price"))
        cell = game.market.cell(row, column)
        if cell is None or cell not in self.cells() or cell.price != price:
            raise Violation("par-value", f"${price} is not a pink par square")
        yield
        owner = action.entity.id
        game.corporations[sym].par_price = price
        game.market.place(sym, cell)
        game.move_share(f"{sym}_0", owner)
        given = sum(game.percent(c.owner, sym) // 10 for c, _ in share_abilities(game) if c.owner is not None
                    and c.sym != title_of(game).jay_gould_private) + game.shares_of[sym][0].percent // 10
        game.pay(None, sym, price * given)
        game.note("par", sym, price, owner)


def check_private_blocks(game: GameState, action: Action, hex_id: str) -> None:
    """Hexes a private blocks while it is open (``blocks_hexes``), except for its own lays (a
    function both track steps call, the company's own lays and its privates', as a step class
    has one base)."""
    for sym in title_of(game).hex_blockers.get(hex_id, ()):
        company = game.companies[sym]
        if not company.closed and company.owner is not None and action.entity.id != sym:
            raise Violation("private-block", f"{hex_id} is reserved while {company.name} is open")


class TexasTrack(Track):
    def tile_lays(self) -> tuple[TileLay, ...]:
        return TWO_YELLOW_OR_ONE_UPGRADE

    def check_rules(self, action: Action, hex_id: str, geometry: TileGeometry, upgrade: bool) -> None:
        check_private_blocks(self.game, action, hex_id)
        home = self.game.title.corporation_spec(self.corporation).home_hex
        if hex_id != home and not self.game.board.tile(home).paths:
            raise Violation("tile-home-first", f"{self.corporation} must lay its first tile in its home hex {home}")


class TexasCompanyTrack(CompanyTrack):
    """The I&GN's two extra lays on its hexes, and the teleports of the GRRRC and NOPR, which lay
    the 511 where they name without a route, as the company's tile lay (16)."""

    def check_rules(self, action: Action, hex_id: str, geometry: TileGeometry, upgrade: bool) -> None:
        check_private_blocks(self.game, action, hex_id)

    def abilities(self, entity: Entity) -> list[tuple[CompanyState, Ability]]:
        if entity.kind != "company" or self.round.corporation is None:
            return []
        step = self.round.step_kind()
        found = []
        for kind in ("tile_lay", "teleport"):
            for company, ability in held_for(self.game, self.corporation, kind):
                if company.sym == entity.id and in_time(self.game, self.corporation, company, ability, step) \
                        and self.ability_open(company, ability):
                    found.append((company, ability))
        return found

    def legal(self) -> Iterator[Action]:
        corp = self.round.corporation
        if corp is None:
            return
        acting = {company.sym for company, _ in held_for(self.game, corp)}  # the others have no ability for it
        for company in self.game.companies.values():
            if company.sym not in acting:
                continue
            entity = Entity("company", company.sym)
            for _, ability in self.abilities(entity):
                hexes = ability.get("hexes") or None
                as_if = "yellow" if ability.type == "teleport" and ability.get("from") else None
                yield from self.lay_candidates(entity, iter(sorted(hexes)) if hexes else None,
                                               tuple(ability.get("tiles") or ()) or None, as_if)

    @reads("hex", "tile", "rotation")
    def do_lay_tile(self, action: Action) -> Effects:
        check_acts_for(self.game, self.round.corporation, action.entity)
        found = self.abilities(action.entity)
        if not found or found[0][1].type != "teleport":
            yield from super().do_lay_tile(action)
            return
        company, ability = found[0]
        hex_id = action.fields.get("hex")
        name = str(action.fields.get("tile", "")).rsplit("-", 1)[0]
        if hex_id not in ability.get("hexes", ()) or name not in ability.get("tiles", ()):
            raise Violation("private-teleport", f"{company.name} lays the {'/'.join(ability.get('tiles', ()))} on {'/'.join(ability.get('hexes', ()))} once")
        as_if = "yellow" if self.game.board.tile(str(hex_id)).color == "white" and ability.get("from") else None
        lay = self.check_tile(action, 0, needs_route=False, as_if=as_if)
        # the teleport is the company's tile lay (16); a green tile on a blank hex is an upgrade, as counted below
        self.check_company_lay(lay, upgrade=lay.upgrade or lay.geometry.color != "yellow")
        yield
        company.uses += 1
        self.put_down(lay)
        turn = self.round.turn
        turn.lays += 1
        turn.upgraded = turn.upgraded or lay.geometry.color != "yellow"
        turn.laid.append((lay.hex_id, lay.geometry.color, lay.geometry.color != "yellow"))
        title_of(self.game).state(self.game).teleported = company.sym

    def used(self, company: CompanyState, ability: Ability, lay: Lay) -> None:
        """The I&GN's lays are extra: they do not use the company's own."""


class TeleportToken(Tokening):
    """After a teleport, the company may place a station in the teleport hex for free (16)."""

    name = "teleport station"
    answered_kind = "company"

    def teleporter(self) -> CompanyState | None:
        sym = title_of(self.game).state(self.game).teleported
        return None if sym is None else self.game.companies[sym]

    def hexes(self) -> tuple[str, ...]:
        company = self.teleporter()
        if company is None:
            return ()
        ability = self.game.title.company_spec(company.sym).ability("teleport")
        return tuple(ability.get("hexes", ())) if ability is not None else ()

    def actor(self) -> Entity | None:
        company = self.teleporter()
        return Entity("company", company.sym) if company is not None and self.next_cost() is not None else None

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"place_token", "pass"}) if entity == self.actor() else frozenset()

    def skip(self) -> None:
        """Not passed: it wakes after a teleport."""

    def setup(self) -> None:
        """A teleport's station belongs to the turn it was laid in: one laid after this step's
        place in the turn (a private's lay during the run) offers no station in the next turn
        (18xx.games refused a bots' game that placed or passed it then)."""
        title_of(self.game).state(self.game).teleported = None

    def legal(self) -> Iterator[Action]:
        actor = self.actor()
        if actor is None:
            return
        for hex_id, city in self.open_cities(needs_route=False):
            if hex_id in self.hexes():
                yield make_action("place_token", actor, city=self.city_id(hex_id, city),
                                  slot=self.game.board.tokens_in(hex_id, city).index(None), tokener=self.corporation)
        yield make_action("pass", actor)

    def open_cities(self, needs_route: bool = True) -> Iterator[tuple[str, int]]:
        board = self.game.board
        for hex_id in self.hexes():
            for city in range(len(board.tile(hex_id).cities)):
                if self.city_problem(hex_id, city, needs_route=False) is None:
                    yield hex_id, city

    def say(self, action: Action) -> str | None:
        teleporter = entity_name(self.game, action.entity)
        if action.type == "pass":
            return f"{self.corporation} passes on placing the token {teleporter} teleported"
        if action.type != "place_token":
            return None
        return (f"{self.corporation} places the token {teleporter} teleported on "
                f"{city_name(self.game, action.fields.get('city'))}, for free")

    @reads("city", "slot", "cost", "tokener", "token_type")
    def do_place_token(self, action: Action) -> Effects:
        if action.entity != self.actor():
            raise Violation("private-teleport", f"{entity_name(self.game, action.entity)} has no teleport token to place")
        hex_id, _ = self.game.board.city(str(action.fields.get("city")))
        if hex_id not in self.hexes():
            raise Violation("private-teleport", f"the teleport station goes on {'/'.join(self.hexes())}")
        placement = self.check_city(action, 0, needs_route=False)
        yield
        self.place(placement)
        title_of(self.game).state(self.game).teleported = None

    def do_pass(self, action: Action) -> Effects:
        if action.entity != self.actor():
            raise Violation("private-teleport", f"{entity_name(self.game, action.entity)} has no teleport token to place")
        yield
        title_of(self.game).state(self.game).teleported = None


class TexasBuyTrain(BuyTrain):
    president_helps_with_others = False  # REF EBUY_FROM_OTHERS :never
