"""Placing stations: one a turn, in a city the company reaches, with a free slot it may take.

The token step is open while the company has a station left, can pay the next one, and reaches
a city where it may place it (not its own city, nor a city whose last free slots wait for other
companies' home stations). 18xx.games fills the first free slot; a record's ``slot`` (the circle
clicked) must be a free one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from railledger.ingest.model import Action, Entity
from railledger.replay.abilities import check_acts_for, held_for, usable_by
from railledger.replay.data import Ability
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, make_action, reads
from railledger.replay.names import entity_name
from railledger.replay.steps.base import OperatingStep
from railledger.replay.network import can_token, network_of
from railledger.replay.state import CompanyState



@dataclass(frozen=True)
class Placement:
    """A checked station: where it goes and what it costs."""

    hex_id: str
    city: int
    slot: int
    cost: int


class Tokening(OperatingStep):
    """What the token step and private token abilities share."""



    def next_cost(self) -> int | None:
        """The price of the company's next station, or None when it has none left."""
        game, corp = self.game, self.corporation
        placed = len(game.corporations[corp].tokens_placed)
        if placed >= game.title.stations_of(game, corp):
            return None
        costs = game.title.corporation_spec(corp).token_costs
        return costs[min(placed, len(costs) - 1)]

    def city_problem(self, hex_id: str, city: int, needs_route: bool = True) -> Violation | None:
        """Why the company may not place a station in this city, or None."""
        game, corp = self.game, self.corporation
        slots = game.board.tokens_in(hex_id, city)
        if corp in slots or (game.title.one_token_per_hex and self.tokened_in_hex(hex_id)):
            return Violation("token-twice", f"{corp} already has a station in {hex_id}")
        if needs_route and (hex_id, f"c{city}") not in network_of(game, corp).nodes:
            return Violation("token-reach", f"{corp} has no route to {hex_id}")
        if None not in slots:
            return Violation("token-slot", f"every station in {hex_id} is taken")
        if game.title.slot_reserved(game, corp, hex_id, city):
            return Violation("token-reserved", f"the last free station in {hex_id} is reserved for a home station")
        return None

    def tokened_in_hex(self, hex_id: str) -> bool:
        board = self.game.board
        return any(self.corporation in board.tokens_in(hex_id, i) for i in range(len(board.tile(hex_id).cities)))

    def check_city(self, action: Action, cost: int, needs_route: bool = True) -> Placement:
        game, corp = self.game, self.corporation
        hex_id, city = game.board.city(str(action.fields.get("city")))
        problem = self.city_problem(hex_id, city, needs_route)
        if problem is not None:
            raise problem
        slots = game.board.tokens_in(hex_id, city)
        slot = slots.index(None)  # 18xx.games fills the first free slot whichever one was clicked
        declared = action.fields.get("slot")
        if declared is not None and not (0 <= declared < len(slots) and slots[declared] is None):
            raise Violation("token-slot", f"slot {declared} of {hex_id} is not a free station slot")
        tokener = action.fields.get("tokener")
        if tokener is not None and tokener != corp:
            raise Violation("token-owner", f"the station is {corp}'s, not {tokener}'s")
        if action.fields.get("token_type") not in (None, "normal"):
            raise Violation("field-unsupported", f"{game.title.name} has no {action.fields['token_type']} stations")
        declared_cost = action.fields.get("cost")
        if declared_cost is not None and declared_cost != cost:
            raise Violation("token-cost", f"the station costs ${cost}, not the declared ${declared_cost}")
        if game.cash(corp) < cost:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than the ${cost} station cost")
        return Placement(hex_id, city, slot, cost)

    def place(self, placement: Placement) -> None:
        game, corp = self.game, self.corporation
        game.pay(corp, None, placement.cost)
        game.board.place_token(placement.hex_id, placement.city, placement.slot, corp)
        placing = game.corporations[corp]
        placing.tokens_placed = [*placing.tokens_placed, f"{placement.hex_id}-{placement.city}"]
        game.graph.clear()
        self.round.turn.tokened = True
        self.after_placement(placement)

    def after_placement(self, placement: Placement) -> None:
        """Bonuses for placing a station somewhere."""

    def open_cities(self, needs_route: bool = True) -> Iterator[tuple[str, int]]:
        """Cities the company may place its next station in."""
        game = self.game
        for hex_id, node in sorted(network_of(game, self.corporation).nodes):
            if node.startswith("c") and self.city_problem(hex_id, int(node[1:]), needs_route) is None:
                yield hex_id, int(node[1:])

    def city_id(self, hex_id: str, city: int) -> str:
        return f"{self.game.board.hexes[hex_id].tile_id}-{city}"


class Token(Tokening):
    """The operating company's station of the turn."""

    name = "token"
    timing = "token"

    def cost(self) -> int | None:
        return self.next_cost()

    def can_place(self) -> bool:
        """Open while a station is left, the company can pay for it (18xx.games counts a
        private's discount it holds, though only the private itself can use it), and it
        reaches a city it may place it in."""
        cost = self.cost()
        if self.round.turn.tokened or cost is None:
            return False
        discounts = [float(a.get("discount_fraction", 0)) for _, a in held_for(self.game, self.corporation, "token_discount")]
        cheapest = min([cost, *(int(cost * (1 - d)) for d in discounts)])
        if self.game.cash(self.corporation) < cheapest:
            return False
        return can_token(self.game, self.corporation, lambda node: self.city_problem(node[0], int(node[1][1:]), needs_route=False) is None)

    def offers(self, entity: Entity) -> frozenset[str]:
        if entity != self.round.current or not self.can_place():
            return frozenset()
        return frozenset({"place_token", "pass"})

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is None or not self.offers_now(current):
            return
        cost = self.cost()
        affordable = cost is not None and self.game.cash(self.corporation) >= cost  # else only a private's discount
        for hex_id, city in self.open_cities() if affordable else ():
            yield make_action("place_token", current, city=self.city_id(hex_id, city),
                              slot=self.game.board.tokens_in(hex_id, city).index(None))
        yield make_action("pass", current)

    @reads("city", "slot", "cost", "tokener", "token_type")
    def do_place_token(self, action: Action) -> Effects:
        if action.entity != self.round.current:
            raise Violation("operating-order", f"{entity_name(self.game, action.entity)} is not operating")
        if self.round.turn.tokened:
            raise Violation("token-one", f"{self.corporation} already placed a station this turn")
        cost = self.cost()
        if cost is None:
            raise Violation("token-none-left", f"{self.corporation} has no station token left")
        placement = self.check_city(action, cost)
        yield
        self.place(placement)
        self.passed = True


class CompanyToken(Tokening):
    """A private placing the operating company's station of the turn at a discount
    (``token_discount``: the fraction off), while the company's token step is under way."""

    name = "private station"
    can_pass = False
    blocks = False
    answered_kind = "company"

    def ability(self, entity: Entity) -> tuple[CompanyState, Ability] | None:
        return usable_by(self.game, self.round.corporation, entity, "token_discount", "token", self.round.step_kind())

    def cost(self, ability: Ability) -> int | None:
        cost = self.next_cost()
        if cost is None:
            return None
        return int(cost * (1 - float(ability.get("discount_fraction", 0))))

    def offers(self, entity: Entity) -> frozenset[str]:
        found = self.ability(entity)
        if found is None or self.round.turn.tokened:
            return frozenset()
        cost = self.cost(found[1])
        if cost is None or self.game.cash(self.corporation) < cost:
            return frozenset()
        return frozenset({"place_token"})

    def legal(self) -> Iterator[Action]:
        for entity, _ in self.offering_privates("token_discount"):
            for hex_id, city in self.open_cities():
                yield make_action("place_token", entity, city=self.city_id(hex_id, city),
                                  slot=self.game.board.tokens_in(hex_id, city).index(None), tokener=self.corporation)

    @reads("city", "slot", "cost", "tokener", "token_type")
    def do_place_token(self, action: Action) -> Effects:
        check_acts_for(self.game, self.round.corporation, action.entity)
        found = self.ability(action.entity)
        if found is None:
            raise Violation("company-ability", f"{entity_name(self.game, action.entity)} cannot place a token now")
        if self.round.turn.tokened:
            raise Violation("token-one", f"{self.corporation} already placed a station this turn")
        company, ability = found
        cost = self.cost(ability)
        if cost is None:
            raise Violation("token-none-left", f"{self.corporation} has no station token left")
        placement = self.check_city(action, cost)
        yield
        company.uses += 1
        self.place(placement)
