"""The mutable state of a game in progress: players, companies, shares, trains, the bank.

Objects refer to one another by id (a corporation's symbol, a share's id) so that a whole state
is a handful of small dicts: cheap to copy for ``Game.legal`` and to snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ingest.model import PlayerId

IPO = "ipo"  # the initial offering: shares never owned by a player
MARKET = "market"  # the open market (bank pool)
BANK = "bank"


@dataclass
class PlayerState:
    id: PlayerId
    name: str
    cash: int = 0


@dataclass
class Share:
    """One certificate: ``GMO_0`` is the president's (20%), ``GMO_1``.. are 10% each."""

    id: str
    corporation: str
    percent: int
    president: bool
    owner: PlayerId | str = IPO  # a player id, IPO or MARKET
    acquired: int = 0  # when its owner got it (a game-wide counter): "the first share" of a holder


@dataclass
class Train:
    id: str  # "2+-0"
    name: str  # the type bought ("4D" for a 2D card bought as 4D)
    owner: str | None = None  # corporation symbol; None while in the bank
    operated: bool = False  # ran in the current operating round
    rusted: bool = False
    reserved: bool = False  # kept out of the bank (e.g. a train only a private can bring)


@dataclass
class CorporationState:
    sym: str
    name: str
    cash: int = 0
    par_price: int | None = None
    floated: bool = False
    operated: bool = False  # has had at least one operating turn
    tokens_placed: list[str] = field(default_factory=list)  # city ids
    abilities: set[str] = field(default_factory=set)  # title-specific abilities, e.g. "new_orleans_bonus"
    closed: bool = False  # merged away or bankrupt (titles where companies can close)
    operator: PlayerId | None = None  # who runs a company that has no president's certificate


@dataclass
class CompanyState:
    """A private company."""

    sym: str
    name: str
    value: int
    revenue: int
    owner: PlayerId | str | None = None  # player id, corporation symbol, or None (bank)
    closed: bool = False
    uses: int = 0  # how many times its ability was used


@dataclass(frozen=True, slots=True)
class Event:
    """Something worth a timeline: a par, a float, a presidency change, a train bought or rusted,
    a phase change, a private closed, the game's end. ``index`` is the action during (or just
    before) which it happened."""

    index: int
    kind: str  # private (bought from the bank), par, float, president, train, rust, phase, private_closed, bankruptcy, game_end
    subject: str  # company, train id, phase name, or reason
    amount: int | None = None  # price, treasury, salvage
    detail: str | None = None  # who: player id, buyer, seller/source
