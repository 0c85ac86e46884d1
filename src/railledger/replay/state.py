"""The state of a game in progress: players, companies, certificates, trains, the bank, the phase.

Objects refer to one another by id (a corporation's symbol, a share's id) so that the whole state
is a handful of small dicts of small records. :class:`GameState` also holds the moves every rule
shares: paying, moving certificates, the presidency, floating, phases and rusting. Rounds and
steps change the game only through it; :class:`replay.game.Game` adds the round in progress.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from railledger.ingest.model import Player, PlayerId
from railledger.replay.board import Board
from railledger.replay.journal import APPLYING, Journal
from railledger.replay.memo import Memo
from railledger.replay.network import GraphCache

if TYPE_CHECKING:
    from railledger.replay.data import Phase
    from railledger.replay.titles.base import Title

IPO = "ipo"  # the initial offering (or a company's treasury): shares never owned by a player
MARKET = "market"  # the open market (bank pool)

Holder = PlayerId | str
"""Who holds a certificate or cash: a player id, a corporation symbol, IPO or MARKET."""

_ARRIVAL = attrgetter("acquired", "number")
"""A holder's certificates in the order it got them (ties in charter order)."""


class ChangeLog:
    """What changed since a snapshot was last taken, as far as a snapshot shows it: the players,
    corporations, companies whose fields changed, the corporations whose certificates or share
    price moved, and the owners of trains that changed hands, rusted or were renamed. :mod:`replay.snapshot`
    rebuilds only their views and clears the log."""

    __slots__ = ("players", "corporations", "companies", "shares", "trains", "prices")

    def __init__(self) -> None:
        self.players: set[Holder] = set()
        self.corporations: set[str] = set()
        self.companies: set[str] = set()
        self.shares: set[str] = set()  # corporations whose certificates changed owner (or size)
        self.trains: set[str | None] = set()  # owners that got or lost a train, None the bank
        self.prices: set[str] = set()  # corporations whose share price token moved (the market notes them)

    def clear(self) -> None:
        for changed in (self.players, self.corporations, self.companies, self.shares, self.trains, self.prices):
            changed.clear()


class Tracked:
    """An entity that tells a :class:`ChangeLog` when one of its ``watched`` fields is set, once
    :meth:`GameState.track_changes` gave it one (before that, a set costs one attribute read more).
    ``touch`` runs before and after the set, so a train's old owner and its new one are both noted.

    While an action is applied, every field set is noted with its old value in the game's
    undo journal (:mod:`replay.journal`); an entity made during the action has nothing to note.
    Its lists and sets are replaced, never changed in place, so that a set is all there is."""

    __slots__ = ()
    watched: ClassVar[frozenset[str]] = frozenset()
    restored_by_field: ClassVar[bool] = True  # the journal shares it where a step refers to it
    change_log: ClassVar[ChangeLog | None] = None  # an instance's own, set by track_changes

    def __setattr__(self, name: str, value: object) -> None:
        journal = APPLYING.journal
        if journal is not None:
            own = self.__dict__
            if name in own:
                journal.note_set(self, name, own[name])
        log = self.change_log
        if log is None or name not in self.watched:
            object.__setattr__(self, name, value)
            return
        self.touch(log)
        object.__setattr__(self, name, value)
        self.touch(log)

    def touch(self, log: ChangeLog) -> None:
        raise NotImplementedError


@dataclass
class PlayerState(Tracked):
    watched: ClassVar[frozenset[str]] = frozenset({"cash"})

    id: PlayerId
    name: str
    cash: int = 0

    def touch(self, log: ChangeLog) -> None:
        log.players.add(self.id)


@dataclass
class Share(Tracked):
    """One certificate: ``GMO_0`` is the president's (20%), ``GMO_1``.. are 10% each."""

    watched: ClassVar[frozenset[str]] = frozenset({"owner", "percent", "president", "corporation"})

    id: str
    corporation: str
    percent: int
    president: bool
    owner: Holder = IPO
    acquired: int = 0  # when its owner got it (a game-wide counter): a holder's shares in arrival order
    number: int = 0  # position on the charter: ties in arrival order keep charter order

    def touch(self, log: ChangeLog) -> None:
        log.shares.add(self.corporation)


@dataclass
class Train(Tracked):
    watched: ClassVar[frozenset[str]] = frozenset({"owner", "rusted", "name"})

    id: str  # "2+-0"
    name: str  # the type bought ("4D" for a 2D card bought as 4D)
    owner: str | None = None  # corporation symbol; None while in the bank
    operated: bool = False  # ran in the current operating round
    ever_operated: bool = False  # has run at least once
    rusted: bool = False
    reserved: bool = False  # out of trade: not offered by the bank, not for sale between companies
    discarded: bool = False  # given back to the bank, which sells it again beside the new ones
    card: str = field(init=False, repr=False)
    """The train type printed on the card ("2D" for a 2D bought as 4D), from the id."""

    def __post_init__(self) -> None:
        self.card = self.id.rsplit("-", 1)[0]

    def touch(self, log: ChangeLog) -> None:
        log.trains.add(self.owner)


@dataclass
class CorporationState(Tracked):
    watched: ClassVar[frozenset[str]] = frozenset({"cash", "floated", "closed", "operator", "tokens_placed"})

    sym: str
    name: str
    cash: int = 0
    par_price: int | None = None
    floated: bool = False
    operated: bool = False  # has had at least one operating turn
    tokens_placed: list[str] = field(default_factory=list)  # "<hex>-<city>"; replaced, never changed in place
    abilities: set[str] = field(default_factory=set)  # title-specific ("new_orleans_bonus"); replaced, never changed in place
    closed: bool = False  # merged away or bankrupt (titles where companies can close)
    operator: PlayerId | None = None  # who runs a company that has no president's certificate

    def touch(self, log: ChangeLog) -> None:
        log.corporations.add(self.sym)


@dataclass
class CompanyState(Tracked):
    """A private company."""

    watched: ClassVar[frozenset[str]] = frozenset({"owner", "closed", "value"})

    sym: str
    name: str
    value: int
    revenue: int
    owner: Holder | None = None  # player id, corporation symbol, or None (bank)
    closed: bool = False
    uses: int = 0  # how many times its ability was used

    def touch(self, log: ChangeLog) -> None:
        log.companies.add(self.sym)


@dataclass(frozen=True, slots=True)
class Event:
    """Something worth a timeline: a par, a float, a presidency change, a train bought or rusted,
    a phase change, a private closed, the game's end. ``index`` is the action during (or just
    before) which it happened."""

    index: int
    kind: str  # private, par, float, president, train, rust, phase, private_closed, bankruptcy, game_end
    subject: str  # company, train id, phase name, or reason
    amount: int | None = None  # price, treasury, salvage
    detail: str | None = None  # who: player id, buyer, seller/source


class Change:
    """One :meth:`GameState.changing` block. A class rather than a generator: a replay opens
    several blocks per action, and a generator's context manager costs three times as much."""

    __slots__ = ("game", "outer")

    def __init__(self, game: GameState) -> None:
        self.game = game
        self.outer = False

    def __enter__(self) -> None:
        if not self.game.applying:
            self.game.journal.forget()  # a change outside an action: the journal cannot undo it
        self.outer = self.game.mutating
        self.game.mutating = True
        self.game.moment += 1

    def __exit__(self, *_: object) -> None:
        self.game.moment += 1
        self.game.mutating = self.outer


class TitleState:
    """What a title keeps per game beyond the generic state (a subclass per title, typed)."""

    @classmethod
    def of(cls: type[TitleStateT], game: GameState) -> TitleStateT:
        """The game's title state, as this title's own class."""
        extra = game.extra
        assert isinstance(extra, cls)
        return extra


TitleStateT = TypeVar("TitleStateT", bound=TitleState)


class GameState:
    """Everything of a game but the round in progress."""

    def __init__(self, title: Title, players: Iterable[Player], seed: int | None = None,
                 optional_rules: Iterable[str] = (), game_id: str | None = None, created: str | None = None) -> None:
        self.title = title  # a game's rounds as well as its rules: Game asks it for the next round
        self.seed = seed
        self.game_id = game_id
        self.created = created
        self.optional_rules = tuple(optional_rules)
        roster = list(players)
        cash = title.starting_cash[len(roster)]
        self.players: dict[PlayerId, PlayerState] = {p.id: PlayerState(p.id, p.name, cash) for p in roster}
        self.order: list[PlayerId] = [p.id for p in roster]
        self.bank = (title.bank_cash or 0) - cash * len(roster)  # an unlimited bank just goes negative
        self.bank_broken = False  # the bank once paid more than it held; stays so when paid back (REF Bank#break!)
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
                self.shares[f"{corp.sym}_{i}"] = Share(f"{corp.sym}_{i}", corp.sym, percent, president, number=i)
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
        self.acted_in_or = 0  # or_number when the latest action was applied (Game.settle_rounds)
        self.ors_this_set = 1
        self.sr_number = 0
        self.priority: PlayerId = self.order[0]
        self.finished = False
        self.end_reason: str | None = None
        self.index = 0  # canonical index of the next action
        self.events: list[Event] = []
        self.extra: TitleState = title.new_state()
        self.applying = False  # an action is being applied (see network.GraphCache)
        self.moment = 0  # counts the game's changes: a step's remembered answers hold for one
        self.mutating = False  # inside :meth:`changing`: answers are not kept
        self.memo = Memo()  # counts asked often of one state (certificates, trains over the limit)
        self.graph = GraphCache()
        self.journal = Journal()  # what each applied action changed, for Game.pop

    def track_changes(self) -> ChangeLog:
        """A new log that every player, corporation, company, certificate and train of the game
        notes its changes in from now on (replacing any earlier log)."""
        log = ChangeLog()
        for entities in (self.players, self.corporations, self.companies, self.shares, self.trains):
            for entity in entities.values():
                object.__setattr__(entity, "change_log", log)
        self.market.moved = log.prices
        return log

    def changing(self) -> Change:
        """The state changes inside this block: what steps remembered of it no longer holds,
        and nothing asked meanwhile is kept. Blocks nest (a round opened while another ends);
        only the outermost one ends the change.

        Every change to the game happens inside such a block, and what is asked between two
        blocks is asked of one state: a round handing the turn on asks which step waits after
        each change it makes, and the next ``is_legal`` asks the same again, so the answers are
        kept from one change to the next (:class:`~replay.memo.Memo`)."""
        return Change(self)

    # ------------------------------------------------------------------ events and phases

    def note(self, kind: str, subject: str, amount: int | None = None, detail: object = None) -> None:
        """Record an event of the current action for timelines and statistics."""
        self.events.append(Event(max(self.index - 1, 0), kind, subject, amount, None if detail is None else str(detail)))

    def end_game(self, reason: str) -> None:
        if not self.finished:
            self.finished = True
            self.end_reason = reason
            self.note("game_end", reason)

    @property
    def phase(self) -> Phase:
        return self.title.phases[self.phase_index]

    def set_phase(self, name: str) -> None:
        """Move on to a later phase (never back), with that phase's events."""
        index = self.title.phase_index(name)
        if index > self.phase_index:
            self.phase_index = index
            self.note("phase", name)
            self.title.on_phase(self, self.phase)

    def close_company(self, sym: str) -> None:
        company = self.companies[sym]
        if not company.closed:
            company.closed = True
            self.note("private_closed", sym, detail=company.owner)

    # ------------------------------------------------------------------ money

    def pay(self, payer: Holder | None, payee: Holder | None, amount: int) -> None:
        """Move cash; ``None`` is the bank. Corporations are named by symbol, players by id."""
        if payer is None:
            self.bank -= amount
            self.bank_broken = self.bank_broken or self.bank < 0
        else:
            self.account(payer).cash -= amount
        if payee is None:
            self.bank += amount
        else:
            self.account(payee).cash += amount

    def account(self, who: Holder) -> PlayerState | CorporationState:
        if isinstance(who, str) and who in self.corporations:
            return self.corporations[who]
        return self.players[who]

    def cash(self, who: Holder) -> int:
        return self.account(who).cash

    def player_name(self, pid: PlayerId) -> str:
        player = self.players.get(pid)
        return player.name if player is not None else str(pid)

    # ------------------------------------------------------------------ certificates

    def move_share(self, share_id: str, owner: Holder) -> None:
        share = self.shares[share_id]
        share.owner = owner
        self.share_moves += 1
        share.acquired = self.share_moves

    def held(self, owner: Holder, sym: str) -> list[Share]:
        """A holder's certificates of a company in the order the holder got them."""
        shares = [s for s in self.shares_of[sym] if s.owner == owner]
        if len(shares) > 1:
            shares.sort(key=_ARRIVAL)
        return shares

    def percent(self, owner: Holder, sym: str) -> int:
        return sum([s.percent for s in self.shares_of[sym] if s.owner == owner])  # a list: cheaper than a generator here

    def president(self, sym: str) -> PlayerId | None:
        shares = self.shares_of[sym]
        share = shares[0] if shares else None
        if share is None or not share.president:
            return self.corporations[sym].operator
        owner = share.owner
        return None if owner in (IPO, MARKET) else owner

    def share_price(self, sym: str) -> int | None:
        cell = self.market.position.get(sym)
        return cell.price if cell else None

    def in_yellow_zone(self, sym: str) -> bool:
        cell = self.market.position.get(sym)
        return cell is not None and cell.zone == "yellow"

    def certificates(self, pid: PlayerId) -> int:
        """Certificates counting against the limit: shares outside the yellow zone, and privates."""
        return self.memo.recall(self, ("certificates", pid), self.count_certificates, pid)

    def count_certificates(self, pid: PlayerId) -> int:
        # a list of owners counted in C: the stock turn asks for every player it weighs
        count = [s.owner for s in self.shares.values()].count(pid)
        for sym, cell in self.market.position.items():
            if cell.zone == "yellow":
                count -= [s.owner for s in self.shares_of[sym]].count(pid)
        return count + sum(
            1 for c in self.companies.values() if c.owner == pid and not c.closed and self.title.private_counts(c.sym)
        )

    def cert_limit(self) -> int:
        return self.title.cert_limits[len(self.order)]

    def presidency_holders(self) -> list[PlayerId]:
        """Who may hold a presidency, in the order that breaks ties."""
        return self.title.presidency_holders(self)

    # ------------------------------------------------------------------ companies and trains

    def corporation_trains(self, sym: str) -> list[Train]:
        return [t for t in self.trains.values() if t.owner == sym and not t.rusted]

    def trains_for_limit(self, sym: str) -> int:
        """The company's trains that count against its train limit."""
        return sum(1 for t in self.corporation_trains(sym) if self.title.counts_for_limit(self, t))

    def over_train_limit(self) -> tuple[str, ...]:
        """Companies holding more trains than the phase's limit, in company order."""
        return self.memo.recall(self, "over train limit", self.count_over_train_limit)

    def count_over_train_limit(self) -> tuple[str, ...]:
        """Every train held is counted first, and the title asked which count against the
        limit only for a company holding more than it: a title's exemption only lowers a count,
        and the question is asked after every change of an operating round."""
        owners = [t.owner for t in self.trains.values() if t.owner is not None and not t.rusted]
        limit = self.phase.train_limit
        if len(owners) <= limit:
            return ()  # not even one company could hold more than the limit
        return tuple(sym for sym in self.corporations if owners.count(sym) > limit and self.trains_for_limit(sym) > limit)

    def floated_in_order(self) -> list[str]:
        floated = [sym for sym, c in self.corporations.items() if c.floated and not c.closed]
        return self.title.operating_order(self, floated)

    def next_player(self, pid: PlayerId) -> PlayerId:
        return self.order[(self.order.index(pid) + 1) % len(self.order)]

    def float_if_ready(self, sym: str) -> None:
        corp = self.corporations[sym]
        if corp.floated or corp.par_price is None:
            return
        if self.title.floats(self, sym):
            corp.floated = True
            self.title.on_float(self, sym)
            self.note("float", sym, corp.cash)

    def deliver_train(self, train: Train, corporation: str, price: int, source: str) -> None:
        """A corporation takes a train it has paid for, from the bank or another corporation."""
        train.owner = corporation
        self.note("train", train.id, price, f"{corporation} from {source}")

    def rust(self, card: str, salvage: int | None) -> None:
        """Remove every train of a type from play; owning corporations get the salvage value."""
        for train in self.trains.values():
            if not train.rusted and train.card == card and not self.title.rusts_later(self, train):
                self.rust_train(train, salvage)

    def rust_train(self, train: Train, salvage: int | None = None) -> None:
        """Remove one train from play; its owning corporation gets the salvage value."""
        if train.owner in self.corporations and salvage:
            self.pay(None, train.owner, salvage)
        if train.owner is not None:
            self.note("rust", train.id, salvage, train.owner)
        train.rusted = True
        train.owner = None

    def value_of(self, pid: PlayerId) -> int:
        """A player's worth: cash, shares at market price, open privates (titles add holders)."""
        worth = self.cash(pid)
        for share in self.shares.values():
            if share.owner == pid:
                worth += (self.share_price(share.corporation) or 0) * share.percent // 10
        return worth + sum(c.value for c in self.companies.values() if c.owner == pid and not c.closed)

    def fingerprint(self) -> tuple[Any, ...]:
        """Every value of the generic state, for tests that an illegal action changed nothing."""
        board = tuple(
            (h, p.tile_id, p.rotation, tuple(sorted((i, tuple(s)) for i, s in p.tokens.items())))
            for h, p in sorted(self.board.hexes.items())
        )
        return (
            tuple((p.id, p.cash) for p in self.players.values()),
            tuple(sorted((c.sym, c.cash, c.par_price, c.floated, c.operated, tuple(c.tokens_placed),
                          tuple(sorted(c.abilities)), c.closed, c.operator) for c in self.corporations.values())),
            tuple(sorted((c.sym, c.owner, c.closed, c.uses, c.value) for c in self.companies.values())),
            tuple(sorted((s.id, s.owner, s.acquired, s.percent) for s in self.shares.values())),
            tuple(sorted((t.id, t.name, t.owner, t.operated, t.ever_operated, t.rusted, t.reserved, t.discarded) for t in self.trains.values())),
            tuple(sorted((k, c.row, c.column) for k, c in self.market.position.items())),
            tuple(sorted((k, tuple(v)) for k, v in self.market.stacks.items())),
            board, tuple(sorted(self.board.supply.items())), self.graph.state(),
            self.bank, self.phase_index, self.or_number, self.sr_number, self.ors_this_set, self.priority,
            tuple(self.order), self.finished, len(self.events), repr(vars(self.extra)),
        )
