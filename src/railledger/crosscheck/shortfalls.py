"""The revenue audit's shortfalls checked by 18xx.games' own engine (``railledger crosscheck
--shortfalls``).

The audit (:mod:`railledger.replay.optimizer.audit`) says a run left money on the table when
railledger's optimizer finds better routes than the declared ones. The declared revenue is already
18xx.games' (the crosscheck's equal cash after every action); the better routes are railledger's
alone. Here each shortfall of an 18xx.games record becomes a :class:`Claim`: at that ``run_routes``
these routes earn this much. ``shortfall_runs.rb`` loads the record in 18xx.games' engine up to
that action and sends the better routes in place of the declared ones, without their revenue, as a
player on the site would; the engine checks every route and values it. The claim holds when the
engine accepts the run and pays each route what railledger says. The declared routes are sent the
same way, so that a claim that does not hold says what the engine makes of both runs today.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from railledger.crosscheck.reference import OPAL_SHIM
from railledger.pipeline.progress import Progress, silent

DRIVER = Path(__file__).parent / "shortfall_runs.rb"
"""The Ruby driver of 18xx.games' engine (``Game.load``, ``process_to_action`` and ``process_action``, as the site calls them)."""


@dataclass(frozen=True)
class Claim:
    """One shortfall of the audit: the better run railledger claims at a record's ``run_routes``."""

    record: Path
    title: str
    action_id: int
    round: str
    company: str
    ran: tuple[dict[str, Any], ...]  # the declared routes: train and connections
    ran_name: str
    ran_revenue: int  # railledger's revenue of the declared run
    better: tuple[dict[str, Any], ...]  # the better routes: train and connections
    better_name: str
    revenues: tuple[int, ...]  # railledger's revenue of each better route

    @property
    def name(self) -> str:
        """How the claim is named in the driver's input and in the verdicts: record and action."""
        return f"{self.record.name} action {self.action_id}"

    @property
    def revenue(self) -> int:
        return sum(self.revenues)

    def requests(self) -> list[dict[str, Any]]:
        """The driver's two cases: the better run, then the declared one, each in place of the record's."""
        common = {"record": str(self.record.resolve()), "action_id": self.action_id, "entity": self.company}
        return [{"case": f"{self.name} better", **common, "routes": list(self.better)},
                {"case": f"{self.name} declared", **common, "routes": list(self.ran)}]


@dataclass(frozen=True)
class Audited:
    """A record's audit as the check sees it: its title, how many runs it has, its claims."""

    record: Path
    title: str
    runs: int
    claims: tuple[Claim, ...]


def audited(record_path: Path) -> Audited | str:
    """The record's audit and the claims of its shortfalls; or why it cannot be checked (a record
    the reference engine cannot be given, or one railledger cannot audit)."""
    from railledger.ingest.errors import RecordError
    from railledger.ingest.sources import read_record
    from railledger.replay.optimizer.audit import audit_record

    if record_path.suffix != ".json":
        return f"{record_path}: not an 18xx.games record (.json), the only kind 18xx.games' engine reads"
    try:
        record = read_record(str(record_path))
        runs = audit_record(record)
    except (RecordError, NotImplementedError, KeyError) as exc:
        return f"{record_path}: {exc}"
    found = []
    for run in runs:
        if not run.shortfall or run.engine is None:
            continue
        if "." in run.action_id:  # an automatic action: the engine takes it only with its parent
            return f"{record_path}: the short run {run.action_id} is an automatic action, which cannot be sent alone"
        found.append(Claim(
            record=record_path, title=record.title, action_id=int(run.action_id), round=run.round, company=run.company,
            ran=tuple({"train": r.get("train"), "connections": r.get("connections")} for r in run.routes),
            ran_name=run.declared_run, ran_revenue=run.engine,
            better=tuple({"train": r.train, "connections": [list(c) for c in r.connections]} for r in run.optimum.routes),
            better_name=run.better_run, revenues=tuple(r.revenue for r in run.optimum.routes),
        ))
    return Audited(record_path, record.title, len(runs), tuple(found))


@dataclass(frozen=True)
class Answer:
    """18xx.games' engine on one run sent in place of the declared one."""

    accepted: bool
    revenues: tuple[int, ...] = ()  # each route's revenue, when accepted
    stops: tuple[str, ...] = ()  # each route as the engine's log names it (``E1-I1``)
    total: int | None = None  # what the run pays
    error: str | None = None  # why it was refused

    def said(self) -> str:
        """The answer in a few words: ``refused: why`` or ``280 (E1-I1 280)``."""
        if not self.accepted:
            return f"refused: {self.error}"
        return f"{self.total} ({'; '.join(f'{s} {r}' for s, r in zip(self.stops, self.revenues))})"


def parse_answers(text: str) -> dict[str, Answer]:
    """The driver's output, one JSON object a line, by case name; a line that is not one of its
    answers raises ValueError naming it."""
    answers = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            found = json.loads(line)
            case, accepted = found["case"], found["accepted"]
            if accepted is True:
                answer = Answer(True, tuple(int(r) for r in found["revenues"]), tuple(str(s) for s in found["stops"]),
                                int(found["total"]))
            elif accepted is False:
                answer = Answer(False, error=str(found["error"]))
            else:
                raise TypeError(f"accepted is {accepted!r}")
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"line {number} of the reference engine's answers: {type(exc).__name__}: {exc}: {line[:200]}") from None
        answers[str(case)] = answer
    return answers


@dataclass(frozen=True)
class ShortfallVerdict:
    """What 18xx.games' engine made of one claim: the better run and the declared run in its place."""

    claim: Claim
    better: Answer
    ran: Answer

    @property
    def confirmed(self) -> bool:
        """The engine accepts the better routes and pays each what railledger claims."""
        return self.better.accepted and self.better.revenues == self.claim.revenues and self.better.total == self.claim.revenue

    @property
    def other_rules(self) -> bool:
        """The engine today accepts the declared run but does not pay it what the record was paid
        (railledger's engine follows the record): the record was played under rules 18xx.games
        has changed since, so today's engine cannot judge the claim."""
        return not self.confirmed and self.ran.accepted and self.ran.total != self.claim.ran_revenue

    @property
    def ok(self) -> bool:
        """Confirmed, or beyond what today's engine can judge (:attr:`other_rules`)."""
        return self.confirmed or self.other_rules

    def why(self) -> str:
        """The claim against the engine's answers, for a claim it does not confirm."""
        claim = self.claim
        return (f"{claim.name} ({claim.round} {claim.company}): railledger's better run {claim.better_name} "
                f"(total {claim.revenue}), 18xx.games: {self.better.said()}; declared run {claim.ran_name} "
                f"(total {claim.ran_revenue}), 18xx.games: {self.ran.said()}")


def judge(claims_: Sequence[Claim], answers: dict[str, Answer], failure: str) -> Iterator[ShortfallVerdict]:
    """Each claim's verdict from the driver's answers; a case it left unanswered is refused with
    ``failure`` (what the driver said when it stopped)."""
    missing = Answer(False, error=f"no answer from the reference engine ({failure})")
    for claim in claims_:
        yield ShortfallVerdict(claim, answers.get(f"{claim.name} better", missing),
                               answers.get(f"{claim.name} declared", missing))


def ask(engine: Path, claims_: Sequence[Claim]) -> list[ShortfallVerdict]:
    """Send the claims to 18xx.games' engine (one ruby process: loading it takes seconds) and judge them."""
    cases = [case for claim in claims_ for case in claim.requests()]
    done = subprocess.run(["ruby", f"-r{OPAL_SHIM.resolve()}", str(DRIVER), str(engine)],
                          input=json.dumps({"cases": cases}), capture_output=True, text=True, check=False)
    try:
        answers = parse_answers(done.stdout)
    except ValueError as exc:
        answers, failure = {}, str(exc)
    else:
        failure = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
    return list(judge(claims_, answers, failure))


def spread(claims_: Iterable[Claim], jobs: int) -> list[list[Claim]]:
    """The claims in at most ``jobs`` groups, a record's claims kept together (the driver reads each
    record once), the groups about the same size."""
    by_record: dict[Path, list[Claim]] = {}
    for claim in claims_:
        by_record.setdefault(claim.record, []).append(claim)
    groups: list[list[Claim]] = [[] for _ in range(max(1, jobs))]
    for mine in sorted(by_record.values(), key=len, reverse=True):
        min(groups, key=len).extend(mine)
    return [group for group in groups if group]


@dataclass(frozen=True)
class ShortfallCheck:
    """The whole check: every record audited, every claim's verdict, and the records that could not be checked."""

    audits: tuple[Audited, ...]
    verdicts: tuple[ShortfallVerdict, ...]
    unchecked: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.unchecked and all(verdict.ok for verdict in self.verdicts)


def records_in(paths: Iterable[Path]) -> list[Path]:
    """The files given, and the ``.json`` files of the folders given, each once, in order."""
    found: dict[Path, None] = {}
    for path in paths:
        for file in sorted(path.rglob("*.json")) if path.is_dir() else [path]:
            found.setdefault(file, None)
    return list(found)


def check(engine: Path, records: Sequence[Path], jobs: int, progress: Progress = silent) -> ShortfallCheck:
    """Audit every record (``jobs`` processes), then send every claim to 18xx.games' engine
    (``jobs`` ruby processes) and judge it."""
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    auditing, audits, unchecked = "auditing the runs", [], []
    progress(auditing, 0, len(records))
    with ProcessPoolExecutor(jobs) as workers:
        for done, found in enumerate(workers.map(audited, records), 1):
            progress(auditing, done, len(records))
            if isinstance(found, str):
                unchecked.append(found)
            else:
                audits.append(found)
    groups = spread((claim for audit in audits for claim in audit.claims), jobs)
    asking, verdicts = "asking 18xx.games' engine", []
    progress(asking, 0, sum(map(len, groups)))
    with ThreadPoolExecutor(jobs) as pool:
        for answered in pool.map(lambda group: ask(engine, group), groups):
            verdicts.extend(answered)
            progress(asking, len(verdicts), sum(map(len, groups)))
    return ShortfallCheck(tuple(audits), tuple(verdicts), tuple(unchecked))
