"""What a position is worth to one player: the strong bot's evaluation (docs/selfplay.md).

The game is won by the highest value at its end (cash, shares at market price, privates), so a
position is scored by how far a player's *expected* end value stands above the best of the
others'. A player's expected value is what they are worth now plus what their holdings will
still bring:

* each company's earning power from the route optimizer (its best run now), paid to holders in
  proportion to their shares for the operating rounds still to come; trains the next bank train
  would rust count for one more run only, and a train the title's schedule takes away (18MS's
  2+, 3+ and 4+) only until then;
* a company started but not floated is expected to earn what the companies running now earn on
  average, nothing before any company runs (it earns nothing today, and is still worth
  starting), weighed by how far it is on its way to floating; so is a floated one whose
  trains find no run yet (its track is still to be laid); a floated company without a train
  earns nothing (its treasury, below, is what it has);
* a share of the company's treasury, which buys the trains that earn later
  (:attr:`Weights.treasury`);
* in a stock round where the title fixes the last operating round (18MS), what a floated
  company lacks for a train that lasts to the end (:class:`Debt`), charged to its president
  and, in part (:attr:`Weights.heir`), to the player the presidency would pass to;
* room under the certificate limit (each free certificate is a purchase still open) and the
  priority deal, both small.

The operating rounds still to come are the title's own count where it fixes the game's last
(18MS), else how many rounds of the present payouts the bank can still pay before it breaks.

:class:`Weights` holds every coefficient; an :data:`Evaluation` is any function of a game and a
player to a number (higher is better for that player), and the strong bot takes one in its
constructor, so that a user can tune or replace it without touching the search.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from railledger.ingest.model import PlayerId
from railledger.replay import Game
from railledger.replay.optimizer import position_of, solve
from railledger.replay.data import TrainType
from railledger.replay.state import IPO, Train

Evaluation = Callable[[Game, PlayerId], float]
"""A position's worth to a player: higher is better for them."""


@dataclass(frozen=True)
class Weights:
    """The coefficients of :class:`Standing`."""

    treasury: float = 0.1
    """What a unit of a company's cash is worth to its holders, per unit of its price in shares."""
    certificate_room: float = 1.0
    """What one certificate still under the limit is worth."""
    priority: float = 10.0
    """What holding the priority deal is worth."""
    longest_horizon: int = 8
    """The most operating rounds counted ahead where the title does not fix the last one."""
    rival: float = 1.0
    """How much the best other player's expected value counts against the player's own."""
    liability: float = 1.0
    """What a unit of a company's :class:`Debt` costs its president."""
    heir: float = 0.5
    """The part of a company's debt charged to the player next in line for its presidency
    (:func:`heir`): a president may sell out and hand over the company with its debt, as random
    bots do in the rounds before a train rush."""


@dataclass(frozen=True)
class Debt:
    """What a floated company lacks for a train that lasts to the game's end, where the title
    fixes the last operating round and the company holds no such train: it must buy one when its
    last goes, and its president pays what the treasury lacks then, selling shares when he must.
    ``withheld`` is the part its runs can still earn before its last train goes (withheld, it
    costs each holder his share of it); ``lacking``, the rest, is the president's alone."""

    withheld: float
    lacking: float

    def cost(self, percent: int) -> float:
        """What the debt costs the president holding ``percent`` of the company."""
        return self.withheld * percent / 100 + self.lacking


@dataclass
class Standing:
    """The default evaluation: a player's expected end value less the best other player's.

    Runs are remembered per company, train set and phase (the optimizer is the dear part) while
    the board stands still: the search calls :meth:`forget` before each decision, whose
    candidates (stock actions, train purchases) lay no track."""

    weights: Weights = field(default_factory=Weights)
    _runs: dict[tuple[object, ...], int] = field(default_factory=dict, repr=False)

    def __call__(self, game: Game, me: PlayerId) -> float:
        earning = {sym: self.earning(game, sym) for sym in _operating(game)}
        typical = self.typical(game, earning)
        horizon = self.horizon(game, sum(earning.values()))
        income = {sym: self.income(game, sym, power, horizon) for sym, power in earning.items()}
        debts = self.debts(game, earning)
        worth = {pid: self.expected_value(game, pid, income, typical * horizon, debts) for pid in game.order}
        others = [value for pid, value in worth.items() if pid != me]
        return worth[me] - self.weights.rival * max(others, default=0.0)

    def expected_value(self, game: Game, pid: PlayerId, income: dict[str, float], typical: float,
                       debts: Mapping[str, Debt] | None = None) -> float:
        """The player's value now plus what their shares will bring: ``income``, each company's
        runs over the rounds to come, and ``typical``, what a company without a run is expected to
        earn over them; less what the ``debts`` of the companies the player leads, or is next in
        line to lead, will cost them."""
        value = float(game.value_of(pid))
        for sym, corp in game.corporations.items():
            percent = game.percent(pid, sym)
            if not percent or corp.closed:
                continue
            power = income.get(sym, 0.0)
            if corp.par_price is not None and (not corp.floated or (power == 0 and game.corporation_trains(sym))):
                power = typical * self.floated_share(game, sym) ** 2
            value += percent / 100 * (power + self.weights.treasury * corp.cash)
            presides = game.president(sym) == pid
            debt = debts.get(sym) if debts else None
            if debt is not None and (presides or heir(game, sym) == pid):
                value -= self.weights.liability * (1.0 if presides else self.weights.heir) * debt.cost(percent)
        room = game.cert_limit() - game.certificates(pid)
        value += self.weights.certificate_room * max(0, room)
        if game.priority == pid:
            value += self.weights.priority
        return value

    def debts(self, game: Game, earning: dict[str, float]) -> dict[str, Debt]:
        """The companies' debts (:meth:`debt`), weighed in a stock round only: there a player
        takes on a company's debt, buying into it or leading it. In an operating round a
        company's trains and dividend are weighed by what they earn: charging its debt there kept
        companies from buying the trains that run until their 5, which the debt counts only as
        what they would withhold, and made strong tables' games poorer with no seat won."""
        if game.round.kind != "stock":
            return {}
        return {sym: debt for sym, power in earning.items() if (debt := self.debt(game, sym, power)) is not None}

    def debt(self, game: Game, sym: str, earning: float) -> Debt | None:
        """The company's :class:`Debt` with runs of ``earning`` a round; None where the title does
        not fix the last operating round (when trains go is then the pace of purchases, and
        charging for it cost 18Texas seats against greedy bots, docs/selfplay.md), or where the
        company holds a train that lasts or no train lasts."""
        last = game.title.last_or
        if last is None or any(_lasts(game.title.train_type(t.card), last) for t in game.corporation_trains(sym)):
            return None
        prices = [kind.price for kind in game.title.trains if _lasts(kind, last)]
        shortfall = min(prices) - game.cash(sym) if prices else 0
        if shortfall <= 0:
            return None
        kept = max((end - game.or_number for t in game.corporation_trains(sym)
                    if (end := game.title.train_type(t.card).obsolete_after_or) is not None), default=0)
        withheld = min(float(shortfall), earning * max(0, kept))
        return Debt(withheld, shortfall - withheld)

    def typical(self, game: Game, earning: dict[str, float]) -> float:
        """What a company without a run is expected to earn a round: the mean run of the
        companies running, nothing before any runs (then what a company will earn is anyone's
        guess, and the bot weighs the certificates on what they hold now: their treasuries)."""
        running = [power for power in earning.values() if power > 0]
        return sum(running) / len(running) if running else 0.0

    def floated_share(self, game: Game, sym: str) -> float:
        """How far a company is on its way to floating: the share of its float sold (1 once
        floated). Its expected run is weighed by the square of it: a company far from floating
        holds its shareholders' money for rounds before it earns anything."""
        if game.corporations[sym].floated:
            return 1.0
        needed = game.title.float_percent
        return min(1.0, (100 - game.percent(IPO, sym)) / needed) if needed else 1.0

    def horizon(self, game: Game, paid_per_round: float) -> int:
        """Operating rounds still to come: the title's count, else the bank's cash over a round's
        payouts (at least one, at most :attr:`Weights.longest_horizon`; one where the bank never
        breaks and its cash runs below zero, as 1871's: docs/selfplay.md says what counting more
        did there)."""
        last = game.title.last_or
        if last is not None:
            return max(1, last - game.or_number + 1)
        if paid_per_round <= 0:
            return self.weights.longest_horizon
        return max(1, min(self.weights.longest_horizon, int(game.bank / paid_per_round)))

    def earning(self, game: Game, sym: str) -> float:
        """A company's run per round: its best run now, less what the trains the next bank train
        rusts add to it, counted once in the horizon's rounds (see :meth:`__call__`)."""
        trains = game.corporation_trains(sym)
        if not trains:
            return 0.0
        lasting = tuple(t.id for t in lasting_trains(game, sym))
        now = self.run(game, sym, tuple(t.id for t in trains))
        if len(lasting) == len(trains):
            return float(now)
        later = self.run(game, sym, lasting) if lasting else 0
        return (now + later) / 2

    def income(self, game: Game, sym: str, earning: float, horizon: int) -> float:
        """What the company's runs bring over the ``horizon`` rounds to come: ``earning`` each
        round, but where the title takes trains away after a given operating round (18MS's 2+,
        3+ and 4+), each round's run is made with the trains still kept then. The rounds counted
        start after the present one: a company buying a train has already run in it."""
        trains = game.corporation_trains(sym)
        ends = {t.id: game.title.train_type(t.card).obsolete_after_or for t in trains}
        if all(end is None for end in ends.values()):
            return earning * horizon
        total = 0.0
        for later in range(game.or_number + 1, game.or_number + 1 + horizon):
            kept = tuple(tid for tid, end in ends.items() if end is None or later <= end)
            total += self.run(game, sym, kept) if kept else 0
        return total

    def run(self, game: Game, sym: str, train_ids: tuple[str, ...]) -> int:
        """The company's best run with only these of its trains, remembered."""
        key = (sym, train_ids, game.phase_index)
        found = self._runs.get(key)
        if found is None:
            position = position_of(game, sym)
            kept = tuple(t for t in position.trains if t.id in train_ids)
            found = self._runs[key] = solve(dataclasses.replace(position, trains=kept)).revenue
        return found

    def forget(self) -> None:
        """Drop the remembered runs: the board may have changed since."""
        self._runs.clear()


def next_bank_train(game: Game) -> str | None:
    """The type of the train the bank sells next (None once it sells none)."""
    bank = game.title.bank_trains(game)
    return bank[0].card if bank else None


def lasting_trains(game: Game, sym: str) -> list[Train]:
    """The company's trains that the purchase of :func:`next_bank_train` would not rust."""
    following = next_bank_train(game)
    return [t for t in game.corporation_trains(sym)
            if following is None or game.title.train_type(t.card).rusts_on != following]


def heir(game: Game, sym: str) -> PlayerId | None:
    """The player the presidency passes to if the president sells out: the one holding most of the
    company after him, at least a president's certificate's worth; None on a tie."""
    president = game.president(sym)
    shares = game.shares_of[sym]
    needed = shares[0].percent if shares and shares[0].president else 0
    held = sorted(((game.percent(pid, sym), pid) for pid in game.order if pid != president), reverse=True)
    if not held or held[0][0] < max(needed, 1) or (len(held) > 1 and held[1][0] == held[0][0]):
        return None
    return held[0][1]


def _lasts(kind: TrainType, last_or: int) -> bool:
    """A train type nothing takes away before the game's last operating round."""
    if kind.rusts_on is not None:
        return False
    if kind.obsolete_after_or is not None:
        return kind.obsolete_after_or >= last_or
    return kind.permanent


def _operating(game: Game) -> list[str]:
    return [sym for sym, corp in game.corporations.items() if corp.floated and not corp.closed]

