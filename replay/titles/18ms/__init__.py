"""18MS: The Railroads Come to Mississippi. Rule overrides of the generic 18xx core.

Data lives in the JSON files beside this module; decisions where the rulebook and the recorded
games disagree are in notes.md ("Engine decisions").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ingest.model import Action
from replay.errors import Violation
from replay.hexgrid import shared_edge
from replay.rounds import DraftRound, OperatingRound
from replay.state import Train
from replay.title import Title

if TYPE_CHECKING:
    from replay.game import Game
    from replay.routes import Route
    from replay.state import CompanyState

NEW_ORLEANS = "I1"
CHATTANOOGA = "B12"
CHATTANOOGA_APPROACH = "B10"
FIRST_OR_COMPANIES = ("AGS", "BS")  # P1 and P2: buyable in OR 1
TILE_LAY_COMPANIES = {"AGS": 1, "BS": 2}  # extra free yellow lays
TOKEN_DISCOUNT_COMPANY = "M&M"
TRAIN_DISCOUNT_COMPANY = "M&O"
TRAIN_DISCOUNT = 100
TRAIN_DISCOUNT_TYPES = ("3+", "4+")
EXCHANGE_COMPANY = "MC"
EXCHANGE_TRAIN = "2+-4"
PRESIDENT_ASSIST_FEE = 50
LOAN_FEE = 50


class EighteenMS(Title):
    name = "18MS"
    slug = "18ms"

    def setup(self, game: Game) -> None:
        # The Mississippi Central's special 2+ stays out of the bank until exchanged (section 16).
        game.trains[EXCHANGE_TRAIN] = Train(EXCHANGE_TRAIN, "2+", reserved=True)

    def first_round(self, game: Game) -> DraftRound:
        return DraftRound(game, reverse=True)

    # -- round of play chart (8, 11.9, 12)

    def before_operating_round(self, game: Game, round_: OperatingRound) -> None:
        if game.or_number == 2 and game.phase.name == "2":
            game.set_phase("3")  # phase 3 starts at the beginning of OR 2
        if round_.number_in_set == 1:
            for player in game.players.values():
                if player.cash < 0:  # a loan not repaid by the end of the stock round
                    player.cash -= math.ceil(-player.cash / 2)

    def after_operating_round(self, game: Game, round_: OperatingRound) -> None:
        for train_type in self.trains:
            if train_type.obsolete_after_or == game.or_number:
                game.rust(train_type.name, train_type.salvage)

    # -- track (11.4, 16)

    def tile_lays(self, game: Game, round_: OperatingRound) -> int:
        return 2 if round_.turn.first else 1

    def check_lay_rules(self, game: Game, round_: OperatingRound, action: Action, turned: Any) -> None:
        laid = round_.turn.laid
        if action.entity.kind == "corporation" and laid and laid[0][2] and turned.color != "yellow":
            raise Violation("tile-first-turn", "the second tile of a first turn may not be an upgrade after an upgrade")

    def check_company_lay(self, game: Game, round_: OperatingRound, action: Action) -> bool:
        sym = str(action.entity.id)
        allowed = TILE_LAY_COMPANIES.get(sym)
        if allowed is None:
            raise Violation("company-ability", f"{sym} has no ability to lay track")
        company = game.companies[sym]
        if company.uses >= allowed:
            raise Violation("company-ability", f"{company.name} has already laid its {allowed} extra tile(s)")
        first_used = game.flags.setdefault("extra_lays_or", {}).setdefault(sym, game.or_number)
        if first_used != game.or_number:
            raise Violation("company-ability", f"{company.name}'s extra tiles are laid in one operating round (16)")
        name = str(action.fields.get("tile", "")).rsplit("-", 1)[0]
        tile = self.tiles.tiles.get(name)
        if tile is not None and tile.color != "yellow":
            raise Violation("company-ability", f"{company.name} lays yellow tiles only")
        return False  # an extra lay, free

    def company_lays_open(self, game: Game, round_: OperatingRound) -> bool:
        for sym, allowed in TILE_LAY_COMPANIES.items():
            company = game.companies[sym]
            first_used = game.flags.get("extra_lays_or", {}).get(sym, game.or_number)
            if company.owner == round_.corp and not company.closed and company.uses < allowed and first_used == game.or_number:
                return True
        return False

    def after_tile_laid(self, game: Game, corporation: str, hex_id: str) -> None:
        if hex_id != CHATTANOOGA_APPROACH or game.flags.get("chattanooga"):
            return
        if shared_edge(CHATTANOOGA_APPROACH, CHATTANOOGA) in game.board.tile(hex_id).edges:
            game.flags["chattanooga"] = corporation
            game.pay(None, corporation, 50)

    # -- stations (11.5, 16)

    def token_cost(self, game: Game, corporation: str, action: Action, cost: int) -> int:
        if action.entity.kind != "company":
            return cost
        company = game.companies.get(str(action.entity.id))
        if action.entity.id != TOKEN_DISCOUNT_COMPANY or company is None or company.uses:
            raise Violation("company-ability", f"{action.entity.id} cannot place a station")
        company.uses += 1
        return cost // 2

    def after_token_placed(self, game: Game, corporation: str, hex_id: str) -> None:
        if hex_id == NEW_ORLEANS and not game.flags.get("new_orleans"):
            game.flags["new_orleans"] = corporation
            game.pay(None, corporation, 100)
            # Recorded games decide (notes.md): the +$10 comes with the first station in New
            # Orleans even after the first 6-train; that train only removes a bonus already held.
            game.corporations[corporation].abilities.add("new_orleans_bonus")

    def route_bonus(self, game: Game, corporation: str, route: Route) -> int:
        has_bonus = "new_orleans_bonus" in game.corporations[corporation].abilities
        return 10 if has_bonus and any(h == NEW_ORLEANS for h, _ in route.stops) else 0

    # -- trains (11.8, 11.9, 16)

    def buy_from_bank(self, game: Game, round_: OperatingRound, action: Action, train: Train, price: int) -> None:
        if action.entity.kind == "company":
            self._buy_with_discount(game, round_, action, train, price)
            return
        super().buy_from_bank(game, round_, action, train, price)

    def _buy_with_discount(self, game: Game, round_: OperatingRound, action: Action, train: Train, price: int) -> None:
        company = game.companies[str(action.entity.id)]
        card = train.id.rsplit("-", 1)[0]
        if company.sym != TRAIN_DISCOUNT_COMPANY or card not in TRAIN_DISCOUNT_TYPES:
            raise Violation("company-ability", f"{company.name} gives no discount on a {card} train")
        due = self.train_type(card).price - TRAIN_DISCOUNT
        if price != due:
            raise Violation("train-price", f"a {card} train with the {company.name} discount costs ${due}, not ${price}")
        corp = round_.corp
        assert corp is not None
        if game.cash(corp) < price:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${price}")
        if card not in self.available_from_bank(game):
            raise Violation("train-order", f"{card} trains are not for sale yet")
        game.pay(corp, None, price)
        train.name = card
        game.deliver_train(train, corp, price, f"bank with {company.sym}")
        game.close_company(company.sym)
        self.after_train_bought(game, corp, card)

    def fund_purchase(self, game: Game, round_: OperatingRound, price: int, train_name: str) -> None:
        """Presidential contribution for a permanent train (11.8.2), forced purchase with loans (11.8.3-4)."""
        corp = round_.corp
        assert corp is not None
        cash = game.cash(corp)
        if price <= cash:
            return
        president = game.president(corp)
        assert president is not None
        trains = game.corporation_trains(corp)
        if trains:
            if self.train_type(train_name).permanent and cash * 2 >= price:
                assist = price - cash
                if game.cash(president) < assist + PRESIDENT_ASSIST_FEE:
                    raise Violation("president-assist", f"{game.player_name(president)} cannot pay ${assist} plus the ${PRESIDENT_ASSIST_FEE} fee")
                game.pay(president, None, assist + PRESIDENT_ASSIST_FEE)
                game.pay(None, corp, assist)
                return
            raise Violation("cash", f"{corp} has ${cash}, less than ${price}")
        shortfall = price - cash
        player_cash = max(game.cash(president), 0)
        if player_cash >= shortfall:
            game.pay(president, corp, shortfall)
            return
        if _could_sell(game, president, corp):
            raise Violation("forced-purchase", f"{game.player_name(president)} must sell shares before borrowing from the bank")
        cheapest = min(self.train_type(name).price for name in self.available_from_bank(game))
        if cheapest <= cash + player_cash and price > cheapest:
            raise Violation("forced-purchase", f"a ${cheapest} train is affordable, so no loan for a ${price} one")
        # A loan: the president pays what they have, borrows the rest plus a flat fee.
        debt = shortfall - player_cash
        game.pay(president, corp, player_cash)
        game.players[president].cash -= debt + LOAN_FEE
        game.corporations[corp].cash += debt

    def check_train_transfer(self, game: Game, round_: OperatingRound, train: Train) -> None:
        train_type = self.train_type(train.id.rsplit("-", 1)[0])
        if train.operated and train_type.obsolete_after_or == game.or_number:
            raise Violation("train-obsolete", f"train {train.id} ran this round and becomes obsolete at its end")

    def after_train_bought(self, game: Game, corporation: str, train_name: str) -> None:
        if "D" in train_name:
            game.set_phase("D")

    def on_phase(self, game: Game, phase: Any) -> None:
        if phase.name == "6":  # the first 6-train (8)
            for company in game.companies.values():
                game.close_company(company.sym)
            for corp in game.corporations.values():
                corp.abilities.discard("new_orleans_bonus")

    # -- private companies (11.3, 16)

    def company_price_range(self, game: Game, round_: OperatingRound, company: CompanyState) -> tuple[int, int]:
        corp = round_.corp
        assert corp is not None
        if game.or_number == 1 and company.sym not in FIRST_OR_COMPANIES:
            raise Violation("company-buy-phase", f"only {' and '.join(FIRST_OR_COMPANIES)} may be bought in OR 1")
        if company.sym == EXCHANGE_COMPANY:
            if game.or_number > 4:
                raise Violation("company-buy-phase", f"{company.name} may not be sold to a company after OR 4")
            if len(game.corporation_trains(corp)) >= game.phase.train_limit:
                raise Violation("train-limit", f"{corp} has no room for the {company.name}'s 2+ train")
        return math.ceil(company.value / 2), company.value * 3 // 2

    def after_company_bought(self, game: Game, round_: OperatingRound, company: CompanyState) -> None:
        if company.sym == EXCHANGE_COMPANY:
            train = game.trains[EXCHANGE_TRAIN]
            train.reserved = False
            game.deliver_train(train, round_.corp, 0, f"exchange for {company.sym}")
            game.close_company(company.sym)


def _could_sell(game: Game, player: object, operating: str) -> bool:
    """Whether the president still has a certificate the forced-purchase rules let them sell."""
    for share in game.shares.values():
        if share.owner != player or share.president:
            continue
        sym = share.corporation
        if game.percent("market", sym) + share.percent > game.title.market_pool_max:
            continue
        if sym == operating:
            others = max((game.percent(p, sym) for p in game.order if p != player), default=0)
            if game.percent(player, sym) - share.percent < others:
                continue  # would hand over the presidency of the operating company
        return True
    return False


TITLE_CLASS = EighteenMS
