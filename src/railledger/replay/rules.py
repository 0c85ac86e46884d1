"""Game-wide rules of the generic 18xx core, which a title overrides where its rulebook differs.

These are the rules that do not belong to one step: what a certificate costs, when a company
floats and what it gets, how a dividend moves the price, which trains the bank sells, what a
new phase does, when the game ends. Step-bound rules (how many tiles a company lays, what a
station costs) live in the step classes, which a title subclasses instead. Nothing here knows
rounds or steps, so steps can ask the rules without importing a title.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from railledger.replay.data import Phase, TitleData
from railledger.replay.errors import Violation
from railledger.replay.geometry import TileGeometry
from railledger.ingest.model import PlayerId
from railledger.replay.state import IPO, MARKET, Holder, TitleState, Train

if TYPE_CHECKING:
    from railledger.replay.routes import Route
    from railledger.replay.state import GameState


class Rules(TitleData):
    """The title's data and its game-wide rules, with the generic defaults."""

    home_token_at_float = False
    """Whether a company places its home station when it floats (else at its first operating turn)."""
    ipo_at_market_price = False
    """Whether unsold (treasury) certificates sell at the current price rather than at par."""
    sale_drop_per_share = True
    """Whether a sale drops the price one row per share sold (else once per sale)."""
    buy_then_sell = True
    """Whether a player may also sell after buying in a stock turn (never sell, buy, sell)."""
    turn_sell_limit: int | None = None
    """The most percent of one company a player may sell in one stock turn."""
    one_sale_per_company = False
    """Whether a player sells a company at most once per stock turn."""
    dividend_kinds: tuple[str, ...] = ("payout", "withhold")
    one_token_per_hex = False
    """Whether a company may have only one station per hex (else per city)."""
    player_privates_act = False
    """Whether a private a player owns acts (lays track, places stations) for that player's companies."""
    discard_removes = False
    """Whether a discarded train leaves the game (else it goes back to the bank)."""

    def new_state(self) -> TitleState:
        """The title's own per-game state (a typed subclass of TitleState)."""
        return TitleState()

    def certificates_of(self, sym: str) -> tuple[tuple[int, bool], ...]:
        """(percent, president) of a company's certificates, numbered from 0: by default a 20%
        president's certificate and eight 10% shares."""
        return ((20, True),) + ((10, False),) * 8

    def printed_for(self, created: str | None) -> Mapping[str, TileGeometry]:
        """The printed map a game created on that day (ISO date, None: today) was played on."""
        return self.printed

    def setup(self, game: GameState) -> None:
        """Title-specific setup after the generic one (special trains, random draws)."""

    # ---------------------------------------------------------------- order and holders

    def operating_order(self, game: GameState, floated: list[str]) -> list[str]:
        """Floated companies in operating order: descending share price."""
        return sorted(floated, key=game.market.order_key)

    def private_counts(self, sym: str) -> bool:
        """Whether a private company counts against the certificate limit."""
        return True

    def presidency_holders(self, game: GameState) -> list[PlayerId]:
        """Who may hold a presidency, in the order that breaks ties (seat order)."""
        return list(game.order)

    def loses_presidency_ties(self, holder: PlayerId) -> bool:
        """Whether a holder is the last choice among equals for a presidency."""
        return False

    def value_holders(self, game: GameState) -> dict[Holder, Holder]:
        """Holders outside the turn order whose net worth belongs to a player (holder -> player)."""
        return {}

    def ors_in_set(self, game: GameState) -> int:
        """Operating rounds in the set after a stock round, fixed or by the phase then."""
        if isinstance(self.ors_per_set, int):
            return self.ors_per_set
        return self.ors_per_set[game.phase.name]

    def game_over_after_or(self, game: GameState, number_in_set: int) -> bool:
        """After a fixed number of ORs (reached by the time the latest action was taken: an empty
        last round opened by the rounds that action finished ends the game only after the next
        action, as in 18xx.games), or at the end of the set in which the bank broke (ran out
        once: a company's purchase that refills it later in the set does not mend it)."""
        if self.last_or is not None and game.acted_in_or >= self.last_or:
            return True
        return self.bank_breaks and game.bank_broken and number_in_set >= game.ors_this_set

    def on_or_start(self, game: GameState, number_in_set: int) -> None:
        """An operating round starts, before the privates pay."""

    def on_or_end(self, game: GameState) -> None:
        """An operating round ends, before the next round starts."""

    def first_turn(self, game: GameState, sym: str) -> bool:
        """Whether this is the company's first operating turn (some titles give it more)."""
        return not game.corporations[sym].operated

    def after_operating_turn(self, game: GameState, sym: str) -> None:
        """A company's operating turn has ended."""

    # ---------------------------------------------------------------- stock

    def ipo_price(self, game: GameState, sym: str) -> int:
        """Price of a 10% certificate from the initial offering (or treasury)."""
        price = game.share_price(sym) if self.ipo_at_market_price else game.corporations[sym].par_price
        assert price is not None
        return price

    def ipo_payee(self, sym: str) -> str | None:
        """Who is paid for initial-offering certificates: the bank (full) or the company (incremental)."""
        return sym if self.capitalization == "incremental" else None

    def may_sell(self, game: GameState, sym: str, stock_round_number: int) -> bool:
        """Whether shares of ``sym`` may be sold now (18xx.games' sale timing)."""
        if self.sell_after_operated:
            return game.corporations[sym].operated
        return not (self.no_sales_in_first_sr and stock_round_number == 1)

    def floats(self, game: GameState, sym: str) -> bool:
        """Whether a started company has sold enough to float: its percent out of the offering."""
        return 100 - game.percent(IPO, sym) >= self.float_percent

    def on_float(self, game: GameState, sym: str) -> None:
        """A company has just floated: full capitalization pays it ten times its par value."""
        if self.capitalization == "full":
            par = game.corporations[sym].par_price
            assert par is not None
            game.pay(None, sym, 10 * par)
        if self.home_token_at_float:
            self.place_home_token(game, sym)

    def sold_out(self, game: GameState, sym: str) -> bool:
        """Players hold all of it (the price rises at the end of the stock round)."""
        return sum(s.percent for s in game.shares_of[sym] if s.owner in game.players) == 100

    # ---------------------------------------------------------------- dividends

    def dividend_choices(self, corporation: str) -> tuple[str, ...]:
        return self.dividend_kinds

    def dividend_paid(self, corporation: str, kind: str, revenue: int) -> int:
        """How much of ``revenue`` a dividend of ``kind`` distributes (a half pays the larger half
        in whole $10 a share)."""
        return {"payout": revenue, "withhold": 0, "half": revenue - revenue // 20 * 10}[kind]

    def dividend_bonus(self, game: GameState, sym: str) -> int:
        """An amount distributed on top of a payout (e.g. at the top of the market)."""
        return 0

    def shares_paying_company(self, sym: str) -> tuple[str, ...]:
        """Holders whose shares pay their dividends to the company itself."""
        return (MARKET,) if self.capitalization == "full" else (IPO,)

    def dividend_move(self, game: GameState, sym: str, paid: int, revenue: int) -> str:
        """How the share price moves after a company distributed ``paid`` of ``revenue``."""
        return "right" if paid > 0 else "left"

    def after_dividend(self, game: GameState, sym: str, first: bool) -> None:
        """Effects of a company's dividend step (``first``: its first operating turn)."""

    # ---------------------------------------------------------------- stations

    def home_city(self, game: GameState, corporation: str) -> tuple[str, int]:
        """(hex, city) of a company's home: the printed city, or the one it merged into when an
        upgrade joined a hex's cities."""
        spec = self.corporation_spec(corporation)
        cities = len(game.board.tile(spec.home_hex).cities)
        return spec.home_hex, min(spec.home_city, cities - 1)

    def place_home_token(self, game: GameState, corporation: str) -> None:
        """Put a corporation's home station down (at its float or first operating turn)."""
        hex_id, city = self.home_city(game, corporation)
        slots = game.board.tokens_in(hex_id, city)
        if corporation in slots or None not in slots:
            return
        game.board.place_token(hex_id, city, slots.index(None), corporation)
        corp = game.corporations[corporation]
        corp.tokens_placed = [*corp.tokens_placed, f"{hex_id}-{city}"]

    def stations_of(self, game: GameState, corporation: str) -> int:
        """How many stations a corporation has in all (placed or not)."""
        return len(self.corporation_spec(corporation).token_costs)

    def slot_reserved(self, game: GameState, corporation: str, hex_id: str, city: int) -> bool:
        """Whether the last free slots of a city are kept for home stations not yet placed."""
        free = game.board.tokens_in(hex_id, city).count(None)
        waiting = [
            c for c in self.corporations
            if c.sym != corporation and c.home_hex == hex_id and self.home_city(game, c.sym) == (hex_id, city)
            and not game.corporations[c.sym].tokens_placed
        ]
        return bool(waiting) and free <= len(waiting)

    # ---------------------------------------------------------------- trains

    def must_own_train(self, corporation: str) -> bool:
        """Whether a corporation without a train must buy one (when it has a route)."""
        return True

    def rusts_later(self, game: GameState, train: Train) -> bool:
        """Whether a train of a type that rusts now stays in play a little longer."""
        return False

    def on_phase(self, game: GameState, phase: Phase) -> None:
        """A new phase has started (its events)."""

    def counts_for_limit(self, game: GameState, train: Train) -> bool:
        """Whether a train counts against its company's train limit."""
        return True

    def bank_trains(self, game: GameState) -> list[Train]:
        """The trains the bank sells now: the next new train, new trains of types an earlier
        purchase unlocked, and one of each type given back to it (18xx.games' depot).

        Steps and bots ask it several times per action (each a walk of every train), so it is
        remembered for the moment of the game (:class:`~replay.memo.Memo`)."""
        return list(game.memo.recall(game, "bank trains", self.find_bank_trains, game))

    def find_bank_trains(self, game: GameState) -> list[Train]:
        """:meth:`bank_trains`, computed: most trains left are copies of the next one, so a
        type already offered is passed over before its unlocking is looked up."""
        unlocked: set[str] | None = None
        offered: list[Train] = []
        names: set[str] = set()
        for train in game.trains.values():
            if train.owner is not None or train.rusted or train.reserved or train.discarded or train.card in names:
                continue
            if offered:  # not the next train: only a type an earlier purchase unlocked
                after = self.train_type(train.card).available_after
                if unlocked is None:
                    unlocked = {t.card for t in game.trains.values() if t.owner is not None or t.rusted}
                if after is None or after not in unlocked:
                    continue
            offered.append(train)
            names.add(train.card)
        returned: dict[str, Train] = {}
        for train in game.trains.values():
            if train.discarded and train.owner is None and not train.rusted:
                returned.setdefault(train.card, train)
        return offered + list(returned.values())

    def train_price(self, train: Train, variant: str | None) -> int:
        """Face value of a bank train, bought as its own type or as one of its variants (2D as 4D)."""
        card = self.train_type(train.card)
        if not variant or variant == card.name:
            return card.price
        chosen = next((v for v in card.variants if v.name == variant), None)
        if chosen is None:
            raise Violation("train-price", f"a {card.name} train cannot be bought as a {variant!r}")
        return chosen.price

    def dearest_train_price(self) -> int:
        """The highest face value of any train, bought as its own type or as a variant: no bank
        train costs more (0 for a title without trains)."""
        return max((price for card in self.trains for price in (card.price, *(v.price for v in card.variants))), default=0)

    def variants_of(self, train: Train) -> tuple[str, ...]:
        card = self.train_type(train.card)
        return (card.name, *(v.name for v in card.variants))

    def after_train_bought(self, game: GameState, corporation: str, train: Train, from_bank: bool) -> None:
        """The phase a purchase starts (the first of a type), then the trains it rusts: 18xx.games
        rusts on every purchase of the type, which matters for trains that escaped the first."""
        if from_bank:
            for phase in self.phases:
                if phase.on == train.card:
                    game.set_phase(phase.name)
        for train_type in self.trains:
            if train_type.rusts_on == train.card:
                game.rust(train_type.name, None)

    def discard(self, game: GameState, train: Train) -> None:
        """A discarded train goes back to the bank, or leaves the game in titles that say so."""
        train.owner = None
        train.operated = False
        if self.discard_removes:
            train.rusted = True
        else:
            train.discarded = True

    def on_bankruptcy(self, game: GameState, player: Any) -> None:
        """What a bankrupt player gives up before the game ends (by default nothing)."""

    # ---------------------------------------------------------------- revenue

    def route_bonus(self, game: GameState, corporation: str, route: Route) -> int:
        """Extra revenue a route earns beyond its stops (e.g. a company's hex bonus)."""
        return 0

    def revenue_suffix(self, game: GameState, corporation: str, route: Route) -> str:
        """What 18xx.games writes after a route's stops in its ``revenue_str`` (a bonus's name)."""
        return ""
