"""18Texas on the generic 18xx core.

The Jay Gould company is drawn at setup with 18xx.games' seeded generator; an open auction sells
the privates; companies hold half their stock (incremental capitalization), float on their
fourth certificate, pay half dividends, issue and redeem shares; trains rust when a new type is
first bought; the game ends with the set of ORs in which the bank breaks. Data lives in the JSON
files beside this module, its own steps in steps.py; decisions are in notes.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from railledger.replay.data import Phase
from railledger.replay.flow import Round
from railledger.replay.geometry import TileGeometry
from railledger.replay.rounds.privates import PrivatesRound
from railledger.replay.seeded import SeededDraws
from railledger.replay.state import GameState, TitleState
from railledger.replay.steps.dividends import Dividend
from railledger.replay.steps.issue import IssueRedeem
from railledger.replay.steps.routes import RunRoutes
from railledger.replay.steps.tokens import Token
from railledger.replay.steps.trains import Bankrupt, DiscardTrain
from railledger.replay.variant import Variant
from railledger.replay.titles.base import StepKind, Title

from .steps import JayGouldAuction, JayGouldPar, TeleportToken, TexasBuyTrain, TexasCompanyTrack, TexasTrack


@dataclass
class TexasState(TitleState):
    jay_gould: str = ""  # the public company drawn for the Jay Gould private
    teleported: str | None = None  # a private that just laid its teleport tile: a station may follow


class EighteenTexas(Title):
    name = "18Texas"
    revision = 2  # 2: a teleport station only in the turn of the teleport
    package = "g18texas"
    home_token_at_float = True
    ipo_at_market_price = True
    buy_then_sell = False
    player_privates_act = True
    one_token_per_hex = True  # 12.3: no two stations of a company in one hex (Dallas/Fort Worth)
    dividend_kinds: tuple[str, ...] = ("payout", "half", "withhold")
    discard_removes = True  # REF DISCARDED_TRAINS :remove

    def __init__(self, variant: Variant | None = None) -> None:
        super().__init__(variant)
        jay_gould = self.companies_file["jay_gould"]
        # the private that brings the drawn company's president's certificate (companies.json)
        (self.jay_gould_private,) = [c.sym for c in self.companies if (a := c.ability("shares")) and str(a.get("share_id", "")).endswith("_0")]
        self.map_change: str = jay_gould.get("map_change", "2024-11-15")
        self.token_fees = {c["sym"]: c.get("token_fee", 0) for c in self.companies_file["corporations"]}
        self.hex_blockers: dict[str, tuple[str, ...]] = {}
        """Hex -> the privates whose ``blocks_hexes`` names it, in charter order: found once,
        since every tile lay listed is checked against them."""
        for company in self.companies:
            for ability in company.abilities:
                if ability.type == "blocks_hexes":
                    for hex_id in ability.get("hexes", ()):
                        self.hex_blockers[hex_id] = (*self.hex_blockers.get(hex_id, ()), company.sym)
        self.printed_before = dict(self.printed)
        for hex_id, spec in self.map.items():
            if "before_2024_11_15" in spec:
                self.printed_before[hex_id] = TileGeometry.from_json(hex_id, {**spec, **spec["before_2024_11_15"]})

    def new_state(self) -> TexasState:
        return TexasState()

    def state(self, game: GameState) -> TexasState:
        return TexasState.of(game)

    def printed_for(self, created: str | None) -> Mapping[str, TileGeometry]:
        """18xx.games changed three hexes on 2024-11-15; earlier games keep the old ones (notes.md)."""
        if created is not None and created < self.map_change:
            return self.printed_before
        return self.printed

    def setup(self, game: GameState) -> None:
        for spec in self.companies:
            if spec.min_players > len(game.order):
                game.companies[spec.sym].closed = True  # not in this game (7)
        corporations = [c.sym for c in self.corporations]
        draws = SeededDraws(game.seed, game.game_id)
        self.state(game).jay_gould = corporations[draws.next() % len(corporations)]

    # -- rounds

    def first_round(self, game: GameState) -> Round:
        return PrivatesRound(game, "Auction", (JayGouldPar, JayGouldAuction))

    def operating_steps(self) -> tuple[StepKind, ...]:
        return (Bankrupt, TexasCompanyTrack, TeleportToken, TexasTrack, Token, RunRoutes, Dividend, DiscardTrain,
                TexasBuyTrain, IssueRedeem)

    # -- floating (11.2)

    def on_float(self, game: GameState, sym: str) -> None:
        game.market.move_up(sym)
        game.pay(sym, None, self.token_fees[sym])
        self.place_home_token(game, sym)

    # -- dividends (12.5)

    def dividend_move(self, game: GameState, sym: str, paid: int, revenue: int) -> str:
        if paid == 0:
            return "left"
        price = game.share_price(sym)
        assert price is not None
        return "right" if paid >= price else "none"

    # -- phases (9)

    def on_phase(self, game: GameState, phase: Phase) -> None:
        super().on_phase(game, phase)
        if phase.name == "5":
            for company in game.companies.values():
                game.close_company(company.sym)


TITLE_CLASS = EighteenTexas
