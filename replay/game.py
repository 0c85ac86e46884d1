"""The game: state plus the round in progress, processing one canonical action at a time.

Modelled on python-chess's Board: ``Game.start(...)`` sets a title up, ``process(action)``
applies a legal action or raises :class:`~replay.errors.IllegalAction` naming the rule it
breaks, ``legal(action)`` asks without changing anything, ``snapshot()`` is a cheap immutable
view and ``result()`` gives the players' values.
"""

from __future__ import annotations

import copy
from typing import Any, Iterable

from ingest.model import Action, Player, PlayerId
from replay.board import Board
from replay.errors import IllegalAction, Violation
from replay.shape import check_shape
from replay.snapshot import Snapshot, take_snapshot
from replay.state import IPO, MARKET, CompanyState, CorporationState, Event, PlayerState, Share, Train
from replay.title import Phase, Title, title_named


class Game:
    """One game of a title, from setup to its end."""

    def __init__(self, title: Title, players: Iterable[Player], seed: int | None = None,
                 optional_rules: Iterable[str] = (), game_id: str | None = None, created: str | None = None) -> None:
        self.title = title
        self.seed = seed
        self.game_id = game_id
        self.created = created
        self.optional_rules = tuple(optional_rules)
        roster = list(players)
        cash = title.starting_cash[len(roster)]
        self.players: dict[PlayerId, PlayerState] = {p.id: PlayerState(p.id, p.name, cash) for p in roster}
        self.order: list[PlayerId] = [p.id for p in roster]
        self.bank = (title.bank_cash or 0) - cash * len(roster)  # an unlimited bank just goes negative
        self.corporations: dict[str, CorporationState] = {
            c.sym: CorporationState(c.sym, c.name) for c in title.corporations
        }
        self.companies: dict[str, CompanyState] = {
            c.sym: CompanyState(c.sym, c.name, c.value, c.revenue) for c in title.companies
        }
        self.shares: dict[str, Share] = {}
        self.share_moves = 0  # counts certificate moves: the order in which holders got them
        for corp in title.corporations:
            for i, (percent, president) in enumerate(title.certificates_of(corp.sym)):
                self.shares[f"{corp.sym}_{i}"] = Share(f"{corp.sym}_{i}", corp.sym, percent, president)
        self.shares_of: dict[str, list[Share]] = {
            sym: [s for s in self.shares.values() if s.corporation == sym] for sym in self.corporations
        }  # the same Share objects, by company: percentages are asked for all the time
        self.trains: dict[str, Train] = {}
        for train_type in title.trains:
            for i in range(train_type.count):
                self.trains[f"{train_type.name}-{i}"] = Train(f"{train_type.name}-{i}", train_type.name)
        self.market = title.new_market()
        self.board = Board(title, title.printed_for(created))
        self.phase_index = 0
        self.or_number = 0  # operating rounds started so far
        self.ors_this_set = title.ors_in_set(self)  # decided when a stock round ends
        self.sr_number = 0
        self.priority: PlayerId = self.order[0]
        self.finished = False
        self.index = 0  # canonical index of the next action
        self.flags: dict[str, Any] = {}  # title-specific state (bonuses taken, special trains)
        self.events: list[Event] = []
        self.acted_in = ""  # label of the round the last action was taken in
        title.setup(self)
        self.round: Any = title.first_round(self)

    @classmethod
    def start(cls, title: str, players: Iterable[Player], seed: int | None = None,
              optional_rules: Iterable[str] = (), game_id: str | None = None, created: str | None = None) -> Game:
        """Set up a new game of the title with this 18xx.games name.

        Titles with random setup draw from ``seed``, or from the digits of ``game_id`` when the
        record has no seed, exactly as 18xx.games does; ``created`` (ISO day) picks the version of
        the title's map the game was played on.
        """
        return cls(title_named(title), players, seed, optional_rules, game_id, created)

    # ------------------------------------------------------------------ processing

    def process(self, action: Action) -> None:
        """Apply a legal action, or raise IllegalAction (the index still advances)."""
        index = self.index
        self.index += 1
        try:
            if self.finished:
                raise Violation("game-over", "the game is over; no action can follow")
            if action.type.startswith("program_"):
                return  # automation bookkeeping of the server: no game effect
            check_shape(action)
            if action.type == "end_game":
                self.end_game()
                return
            while not self.round.accepts(action):
                self.round = self.round.next_round()
                if self.finished:
                    raise Violation("game-over", "the game is over; no action can follow")
            self.acted_in = self.round.label
            self.round.apply(action)
            # A round known to be over (all passed, every private sold) hands over at once, as in
            # 18xx.games: the next round's opening effects (private revenues) belong to this action.
            while self.round.finished and not self.finished:
                self.round = self.round.next_round()
        except Violation as violation:
            raise IllegalAction(index, action.label, self.title.rule(violation.key), violation.message) from None

    def legal(self, action: Action) -> bool:
        """Whether ``action`` would be accepted now; the game is not changed."""
        try:
            copy.deepcopy(self).process(action)
        except IllegalAction:
            return False
        return True

    def end_of_record(self) -> None:
        """Close the round in progress when the record ends: its last turn has no successor to end
        it. An operating round is concluded (its end effects, perhaps the game's end); no further
        round starts, so the state is the one the record reached."""
        if not self.finished and self.round.close_at_end():
            self.round = self.round.next_round()

    def end_game(self, reason: str = "ended by the players") -> None:
        self.finished = True
        self.note("game_end", reason)

    def note(self, kind: str, subject: str, amount: int | None = None, detail: object = None) -> None:
        """Record an event of the current action for timelines and statistics."""
        self.events.append(Event(max(self.index - 1, 0), kind, subject, amount, None if detail is None else str(detail)))

    def set_phase(self, name: str) -> None:
        """Move on to a later phase (never back), with that phase's events."""
        names = [p.name for p in self.title.phases]
        if names.index(name) > self.phase_index:
            self.phase_index = names.index(name)
            self.note("phase", name)
            self.title.on_phase(self, self.phase)

    def close_company(self, sym: str) -> None:
        company = self.companies[sym]
        if not company.closed:
            company.closed = True
            self.note("private_closed", sym, detail=company.owner)

    def deliver_train(self, train: Train, corporation: str, price: int, source: str) -> None:
        """A corporation takes a train it has paid for, from the bank or another corporation."""
        train.owner = corporation
        self.note("train", train.id, price, f"{corporation} from {source}")

    def snapshot(self) -> Snapshot:
        return take_snapshot(self)

    def result(self) -> dict[PlayerId, int]:
        """Each player's value: cash (negative with a loan) plus shares at market value plus privates."""
        return {pid: view.value for pid, view in take_snapshot(self).players}

    # ------------------------------------------------------------------ queries

    @property
    def phase(self) -> Phase:
        return self.title.phases[self.phase_index]

    def player_name(self, pid: PlayerId) -> str:
        return self.players[pid].name

    def share_price(self, sym: str) -> int | None:
        cell = self.market.position.get(sym)
        return cell.price if cell else None

    def percent(self, owner: PlayerId | str, sym: str) -> int:
        return sum(s.percent for s in self.shares_of[sym] if s.owner == owner)

    def president(self, sym: str) -> PlayerId | None:
        share = self.shares.get(f"{sym}_0")
        if share is None or not share.president:
            return self.corporations[sym].operator
        owner = share.owner
        return None if owner in (IPO, MARKET) else owner

    def certificates(self, pid: PlayerId) -> int:
        """Certificates counting against the limit: shares outside the yellow zone, and privates."""
        count = sum(
            1 for s in self.shares.values()
            if s.owner == pid and not self.in_yellow_zone(s.corporation)
        )
        return count + sum(
            1 for c in self.companies.values() if c.owner == pid and not c.closed and self.title.private_counts(c.sym)
        )

    def in_yellow_zone(self, sym: str) -> bool:
        cell = self.market.position.get(sym)
        return cell is not None and cell.zone == "yellow"

    def cert_limit(self) -> int:
        return self.title.cert_limits[len(self.order)]

    def corporation_trains(self, sym: str) -> list[Train]:
        return [t for t in self.trains.values() if t.owner == sym and not t.rusted]

    def floated_in_order(self) -> list[str]:
        floated = [sym for sym, c in self.corporations.items() if c.floated and not c.closed]
        return self.title.operating_order(self, floated)

    def next_player(self, pid: PlayerId) -> PlayerId:
        return self.order[(self.order.index(pid) + 1) % len(self.order)]

    # ------------------------------------------------------------------ money and shares

    def pay(self, payer: PlayerId | str | None, payee: PlayerId | str | None, amount: int) -> None:
        """Move cash; ``None`` is the bank. Corporations are named by symbol, players by id."""
        if payer is None:
            self.bank -= amount
        else:
            self._account(payer).cash -= amount
        if payee is None:
            self.bank += amount
        else:
            self._account(payee).cash += amount

    def _account(self, who: PlayerId | str) -> PlayerState | CorporationState:
        if isinstance(who, str) and who in self.corporations:
            return self.corporations[who]
        return self.players[who]

    def cash(self, who: PlayerId | str) -> int:
        return self._account(who).cash

    def move_share(self, share_id: str, owner: PlayerId | str) -> None:
        share = self.shares[share_id]
        share.owner = owner
        self.share_moves += 1
        share.acquired = self.share_moves

    def check_presidency(self, sym: str, outgoing_first: PlayerId | None = None) -> None:
        """Hand the presidency to the player holding most, if someone now holds more than the president.

        Ties (possible after a sale) go to the first tied player after the outgoing president.
        The new president gives two of their 10% certificates for the president's certificate.
        """
        president = self.president(sym)
        if president is None:
            return
        held = {pid: self.percent(pid, sym) for pid in self.order}
        if held[president] >= max(held.values()):
            return
        start = president if outgoing_first is None else outgoing_first
        self.hand_over_presidency(sym, self.largest_holder_after(start, sym), to_market=0)

    def largest_holder_after(self, player: PlayerId, sym: str) -> PlayerId:
        """The other player holding most of a company; ties go to the first after ``player``."""
        start = self.order.index(player)
        rotation = self.order[start + 1:] + self.order[:start]
        best = max(self.percent(pid, sym) for pid in rotation)
        return next(pid for pid in rotation if self.percent(pid, sym) == best)

    def hand_over_presidency(self, sym: str, new: PlayerId, to_market: int) -> None:
        """``new`` takes the president's certificate and gives two of their 10% certificates for it:
        ``to_market`` of them go to the open market (the outgoing president sold them), the rest
        to the outgoing president."""
        old = self.president(sym)
        given = sorted(
            (s for s in self.shares_of[sym] if s.owner == new and not s.president), key=lambda s: s.acquired
        )[:2]  # the first two the new president got, as 18xx.games hands them over
        for number, share in enumerate(given):
            self.move_share(share.id, MARKET if number < to_market else old)  # type: ignore[arg-type]
        self.move_share(f"{sym}_0", new)
        self.note("president", sym, detail=new)

    def float_if_ready(self, sym: str) -> None:
        corp = self.corporations[sym]
        if corp.floated or corp.par_price is None:
            return
        if self.title.floats(self, sym):
            corp.floated = True
            self.title.on_float(self, sym)
            self.note("float", sym, corp.cash)

    def rust(self, card: str, salvage: int | None) -> None:
        """Remove every train of a type from play; owning corporations get the salvage value."""
        for train in self.trains.values():
            if not train.rusted and train.id.rsplit("-", 1)[0] == card and not self.title.rusts_later(self, train):
                self.rust_train(train, salvage)

    def rust_train(self, train: Train, salvage: int | None = None) -> None:
        """Remove one train from play; its owning corporation gets the salvage value."""
        if train.owner in self.corporations and salvage:
            self.pay(None, train.owner, salvage)
        if train.owner is not None:
            self.note("rust", train.id, salvage, train.owner)
        train.rusted = True
        train.owner = None
