"""18MS: The Railroads Come to Mississippi, on the generic 18xx core.

A draft of the privates; full capitalization; a fixed round of play (phase 3 at the start of
OR 2, the 2+/3+/4+ rusting after ORs 4, 6 and 8, the game over after OR 10); two tile lays on a
company's first turn; the Chattanooga and New Orleans bonuses; presidential help and loans for
trains. Data lives in the JSON files beside this module, the title's own steps in steps.py;
decisions where the rulebook and the recorded games disagree are in notes.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from railledger.replay.data import Phase
from railledger.replay.flow import Round
from railledger.replay.rounds.privates import PrivatesRound
from railledger.replay.routes import Route
from railledger.replay.state import GameState, TitleState, Train
from railledger.replay.steps.dividends import Dividend
from railledger.replay.steps.draft import Draft
from railledger.replay.steps.trains import CompanyTrain, DiscardTrain
from railledger.replay.variant import Variant
from railledger.replay.titles.base import StepKind, Title

from .steps import (
    BuyCompanyFirst,
    BuyCompanyLast,
    MsBuyTrain,
    MsCompanyToken,
    MsCompanyTrack,
    MsRunRoutes,
    MsToken,
    MsTrack,
)

NEW_ORLEANS_BONUS = "new_orleans_bonus"


@dataclass
class MsState(TitleState):
    """What 18MS keeps per game."""

    recently_floated: set[str] = field(default_factory=set)  # floated since the last OR: two lays
    chattanooga: str | None = None  # the company that got the Chattanooga bonus
    new_orleans: str | None = None  # the company that got the New Orleans bonus


class EighteenMS(Title):
    name = "18MS"
    package = "g18ms"
    revision = 4  # 2: the M&M's station earns no New Orleans bonus; 3: no loan for a company holding no cash;
    # 4: a president in debt borrows for every forced purchase above both purses (notes.md item 16)

    def __init__(self, variant: Variant | None = None) -> None:
        super().__init__(variant)
        bonuses = self.map
        self.new_orleans_hex = next(h for h, spec in bonuses.items() if spec.get("bonus", {}).get("type") == "first_token")
        chattanooga = next(h for h, spec in bonuses.items() if spec.get("bonus", {}).get("type") == "first_connection")
        self.chattanooga_hex = chattanooga
        self.chattanooga_approach: str = bonuses[chattanooga]["bonus"]["trigger_hex"]
        self.chattanooga_bonus: int = bonuses[chattanooga]["bonus"]["amount"]
        self.new_orleans_bonus: int = bonuses[self.new_orleans_hex]["bonus"]["amount"]
        self.new_orleans_route_bonus: int = bonuses[self.new_orleans_hex]["bonus"]["route_bonus"]
        (self.train_private, exchange), = [(c.sym, a) for c in self.companies if (a := c.ability("exchange_for_train"))]
        self.exchange_train: str = exchange.get("train_id")  # the Mississippi Central's special 2+ (16)

    def new_state(self) -> MsState:
        return MsState()

    def state(self, game: GameState) -> MsState:
        return MsState.of(game)

    def setup(self, game: GameState) -> None:
        # The Mississippi Central's special 2+ stays out of the bank until exchanged (16).
        card = self.exchange_train.rsplit("-", 1)[0]
        game.trains[self.exchange_train] = Train(self.exchange_train, card, reserved=True)

    # -- rounds (8, 9, 11)

    def first_round(self, game: GameState) -> Round:
        return PrivatesRound(game, "Draft", (Draft,))

    def operating_steps(self) -> tuple[StepKind, ...]:
        return (MsCompanyTrack, MsCompanyToken, BuyCompanyFirst, MsTrack, MsToken, MsRunRoutes, Dividend,
                DiscardTrain, CompanyTrain, MsBuyTrain, BuyCompanyLast)

    def on_or_start(self, game: GameState, number_in_set: int) -> None:
        if game.or_number == 2:
            game.set_phase("3")  # phase 3 starts at the beginning of OR 2
        if number_in_set == 1:
            for player in game.players.values():
                if player.cash < 0:  # a loan not repaid by the end of the stock round (11.8.4)
                    player.cash -= math.ceil(-player.cash / 2)
        for company in game.companies.values():
            spec = self.company_spec(company.sym)
            for ability in spec.abilities:
                if ability.get("same_or_only") and company.uses:
                    company.uses = max(company.uses, int(ability.get("count", 0)))  # BS: one OR only

    def on_or_end(self, game: GameState) -> None:
        self.state(game).recently_floated.clear()
        for train_type in self.trains:
            if train_type.obsolete_after_or == game.or_number:
                game.rust(train_type.name, train_type.salvage)

    def first_turn(self, game: GameState, sym: str) -> bool:
        return sym in self.state(game).recently_floated

    def on_float(self, game: GameState, sym: str) -> None:
        super().on_float(game, sym)
        self.state(game).recently_floated.add(sym)

    # -- phases and trains (8, 11.8)

    def after_train_bought(self, game: GameState, corporation: str, train: Train, from_bank: bool) -> None:
        super().after_train_bought(game, corporation, train, from_bank)
        if "D" in train.name:
            game.set_phase("D")

    def on_phase(self, game: GameState, phase: Phase) -> None:
        if phase.name == "6":  # the first 6-train (8)
            for company in game.companies.values():
                game.close_company(company.sym)
            for corp in game.corporations.values():
                if NEW_ORLEANS_BONUS in corp.abilities:
                    corp.abilities = corp.abilities - {NEW_ORLEANS_BONUS}

    # -- revenue (11.5.1)

    def route_bonus(self, game: GameState, corporation: str, route: Route) -> int:
        held = NEW_ORLEANS_BONUS in game.corporations[corporation].abilities
        return self.new_orleans_route_bonus if held and any(h == self.new_orleans_hex for h, _ in route.stops) else 0

    def revenue_suffix(self, game: GameState, corporation: str, route: Route) -> str:
        return " + New Orleans" if self.route_bonus(game, corporation, route) else ""


TITLE_CLASS = EighteenMS
