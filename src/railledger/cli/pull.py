"""``railledger pull``: games fetched from 18xx.games and ingested (railledger.pipeline.pulling).

Its own module so that the command lives apart from ``cli/app.py``, which only registers it. The
options that say how to treat the site are shared with ``railledger event check --pull``.
"""

import functools
import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from railledger.cli.options import DEFAULT_DB, DEFAULT_WAIT, DbOption, WaitOption, WorkersOption, fail, titled, waiting

if TYPE_CHECKING:  # httpx and the pipeline load when a command runs, not for railledger --help
    from railledger.pipeline.fetching import Fetcher
    from railledger.pipeline.pulling import Pull, PullOptions

DEFAULT_KEEP = Path("pulled")
SITE_OPTIONS = (
    inspect.Parameter("keep", inspect.Parameter.KEYWORD_ONLY, default=DEFAULT_KEEP, annotation=Annotated[
        Path, typer.Option("--keep", help="Folder each fetched game is kept in, byte for byte, as <id>.json.")]),
    inspect.Parameter("delay", inspect.Parameter.KEYWORD_ONLY, default=1.0, annotation=Annotated[
        float, typer.Option("--delay", min=0, help="Seconds between two requests.")]),
    inspect.Parameter("timeout", inspect.Parameter.KEYWORD_ONLY, default=30.0, annotation=Annotated[
        float, typer.Option("--timeout", min=0.1, help="Seconds one answer may take, whole.")]),
    inspect.Parameter("retries", inspect.Parameter.KEYWORD_ONLY, default=4, annotation=Annotated[
        int, typer.Option("--retries", min=0, help="Further tries after a 429, a 5xx or no answer, each waiting twice "
                                                   "as long as the last.")]),
    inspect.Parameter("base_url", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
        Optional[str], typer.Option("--base-url", metavar="URL", help="Another server answering 18xx.games' API "
                                                                      "(default: 18xx.games itself).")]),
    inspect.Parameter("workers", inspect.Parameter.KEYWORD_ONLY, default=os.cpu_count() or 1, annotation=WorkersOption),
)
"""The options of every command that fetches from the site (pull, event check --pull, event seat
--pull), declared once: :func:`site_options` adds them to a command."""


@dataclass(frozen=True)
class SiteOptions:
    """How a command treats the site: where it keeps answers, and :class:`Manners` as given."""

    keep: Path
    delay: float
    timeout: float
    retries: int
    base_url: str | None
    workers: int
    """Processes that replay what is fetched (railledger ingest's --workers)."""
    asked: bool = True
    """Whether to fetch at all (an event command fetches only with --pull)."""

    def fetcher(self) -> "Fetcher":
        """A polite client of the site (or of ``base_url``); a bad address is one line and exit 1."""
        from railledger.pipeline import site
        from railledger.pipeline.fetching import Fetcher, Manners

        try:
            base = site.check_base_url(self.base_url or site.BASE_URL)
        except ValueError as exc:
            raise fail(str(exc)) from None
        return Fetcher(base, Manners(delay=self.delay, timeout=self.timeout, retries=self.retries))

    def pull(self, db: Path, refresh: bool, wait: float) -> "PullOptions":
        from railledger.pipeline.pulling import PullOptions

        return PullOptions(db, self.keep, refresh, self.workers, wait, waiting)


ASKED = inspect.Parameter("asked", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=Annotated[
    bool, typer.Option("--pull", help="First fetch from 18xx.games the event's games the archive does not hold finished "
                                      "(railledger pull's manners); without it, only the archive is read.")])
"""--pull: an event command fetches only when asked."""


def site_options(command: Callable[..., None], ask: bool = False) -> Callable[..., None]:
    """``command`` with the options of :data:`SITE_OPTIONS` added to its signature (which typer
    reads), and with ``ask`` :data:`ASKED` before them, handed to it as one :class:`SiteOptions`
    in its ``site`` parameter."""
    added = (ASKED, *SITE_OPTIONS) if ask else SITE_OPTIONS
    names = [option.name for option in added]
    signature = inspect.signature(command)
    own = [parameter for name, parameter in signature.parameters.items() if name != "site"]

    @functools.wraps(command)
    def with_site(**given: Any) -> None:
        command(site=SiteOptions(**{name: given.pop(name) for name in names}), **given)

    with_site.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
    return with_site


RefreshOption = Annotated[bool, typer.Option("--refresh", help="Fetch again the games held unfinished (a finished game "
                                                               "is never fetched again).")]


@site_options
def pull(
    games: Annotated[Optional[list[str]], typer.Argument(
        metavar="[GAME_ID]...", help="Game ids, or links to games on 18xx.games.", show_default=False)] = None,
    file: Annotated[Optional[Path], typer.Option("--file", help="A file of game ids or links, one a line (# comments).")] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="With --finished: the title whose finished games to pull.")] = None,
    finished: Annotated[bool, typer.Option("--finished", help="Pull the newest finished games of --title.")] = False,
    pages: Annotated[int, typer.Option("--pages", min=1, help="With --finished: pages of the site's list, 13 games a "
                                                            "page, newest first (at most 11 without a login).")] = 1,
    refresh: RefreshOption = False,
    allow_invalid: Annotated[
        bool, typer.Option("--allow-invalid", help="Exit 0 even when a game is illegal or its result differs from its replay.")
    ] = False,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
    *,
    site: SiteOptions,
) -> None:
    """Fetch games from 18xx.games' public API, keep each answer, and ingest them with their verdicts.

    Games are named by id (or link), listed in a --file, or found on the site's list of finished
    games of a --title (--pages pages of 13, newest first: pulled again every week, it collects
    the real games of a title). Each answer is kept byte for byte as KEEP/<id>.json before it is
    ingested as any record file is: 18xx.games deletes a game's actions when it archives it, so
    this may be the only copy that lasts.

    Polite by default: one request at a time, --delay seconds apart, retries that back off on 429
    and 5xx answers (a longer Retry-After than two minutes stops the pull), --timeout per answer.
    A pull resumes: a game already stored finished is not fetched again, one held unfinished only
    with --refresh. Exits 1 when a game could not be pulled, is not finished, or is illegal or
    mismatched (unless --allow-invalid).

    Example: railledger pull 14375 https://18xx.games/game/67889

    Example: railledger pull --title 18MS --finished --pages 3
    """
    from railledger.cli.output import consoles, progress_bars, say
    from railledger.pipeline.fetching import FetchError
    from railledger.pipeline.pulling import finished_game_ids, pull_games
    from railledger.records import ArchiveError

    err = consoles()[1]
    asked = game_ids(games or [], file)
    if finished:
        if title is None:
            raise fail("--finished needs --title: railledger pull --title 18MS --finished")
        title = titled(title)
        pages = _pages(pages)
    elif title is not None:
        raise fail("--title needs --finished: railledger pull --title 18MS --finished")
    if not asked and not finished:
        raise fail("nothing to pull: give game ids, --file FILE, or --title T --finished")
    with site.fetcher() as client, progress_bars() as progress:
        if finished:
            assert title is not None
            try:
                listed = finished_game_ids(client, title, pages, progress)
            except FetchError as exc:
                raise fail(str(exc)) from None
            say(err, f"{len(listed)} finished {title} game{'' if len(listed) == 1 else 's'} listed by {client.base_url} "
                     f"(up to {pages} page{'' if pages == 1 else 's'})")
            asked = [*asked, *listed]
        try:
            done = pull_games(asked, client, site.pull(db, refresh, wait), progress)
        except ArchiveError as exc:
            raise fail(str(exc)) from None
    if not report_pull(done, db, allow_invalid):
        raise typer.Exit(code=1)


def _pages(pages: int) -> int:
    from railledger.cli.output import consoles, say
    from railledger.pipeline import site

    if pages > site.ANONYMOUS_PAGES:
        say(consoles()[1], f"note: 18xx.games lists {site.ANONYMOUS_PAGES} pages to a visitor without a login; "
                           f"pulling those, not {pages}")
        return site.ANONYMOUS_PAGES
    return pages


def game_ids(given: list[str], file: Path | None) -> list[int]:
    """The games named on the command line and in ``file``, in order; a bad one is one line naming
    it (and the file's line) and exit 1."""
    from railledger.pipeline.site import game_id_of

    named = [("argument", text) for text in given]
    if file is not None:
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise fail(f"{file}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
        named += [(f"{file}:{number}", line.split("#", 1)[0].strip()) for number, line in enumerate(lines, start=1)]
    ids = []
    for where, text in named:
        if not text and where != "argument":
            continue
        found = game_id_of(text)
        if found is None:
            raise fail(f"{where}: {text!r} is not a game id or a link to a game on 18xx.games")
        ids.append(found)
    return ids


def report_pull(done: "Pull", db: Path, allow_invalid: bool) -> bool:
    """Print what a pull did (the ingest's summary first, then a line per note, unfinished game
    and failure); whether it went well."""
    from railledger.cli.ingesting import report_ingest
    from railledger.cli.output import consoles, say

    out, err = consoles()
    ingested = report_ingest(done.ingest, db, allow_invalid) if done.ingest is not None else True
    for line in done.notes:
        say(err, f"note: {line}")
    for line in done.unfinished:
        say(err, f"unfinished: {line}")
    for line in done.failures:
        say(err, f"failed: {line}")
    if done.stopped is not None:
        say(err, f"stopped: {done.stopped}; run the same pull again later: what is kept is not fetched again")
    say(out, f"{done.fetched} fetched, {len(done.kept)} kept game{'' if len(done.kept) == 1 else 's'} ingested, "
             f"{len(done.failures)} failed")
    return ingested and not done.failures and not done.unfinished and done.stopped is None
