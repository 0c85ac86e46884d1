"""A polite HTTP client for a public site run by volunteers: one request at a time, a pause
between requests, a bounded wait for each answer, and retries that back off.

Built on httpx (connection reuse, timeouts, HTTP details done right); what is added here is the
manners (:class:`Manners`) and the refusals a pull needs: an answer larger than the largest
record railledger reads, or one that does not arrive in time, is not waited for; a redirect is
not followed (an address that moved is said, so that no answer comes from a server nobody named).
"""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from types import TracebackType

import httpx

from railledger.ingest import DEFAULT_MAX_SIZE


@dataclass(frozen=True)
class Manners:
    """How a pull treats the site.

    ``delay``: seconds between the end of one request and the start of the next. ``timeout``:
    seconds an answer may take, whole (connecting, waiting, reading every byte). ``retries``:
    further tries after a failure that may pass (429, a 5xx answer, no or a cut-short answer),
    the first ``backoff`` seconds later, each next one twice as long, or after the ``Retry-After``
    the site asks for, up to ``longest_wait`` (a longer one stops the pull: the site asks to
    come back later). ``max_size``: the largest answer read, in bytes.
    """

    delay: float = 1.0
    timeout: float = 30.0
    retries: int = 4
    backoff: float = 2.0
    longest_wait: float = 120.0
    max_size: int = DEFAULT_MAX_SIZE


GRACE = 1.0
"""Seconds a request is given past its timeout before it is left behind (its own timeouts end it)."""

SITE_DOWN = frozenset({502, 503, 504})
"""Answers that say the site itself is down (not that one game failed): after the retries they stop a pull."""


class FetchError(Exception):
    """One request failed for good; ``str()`` is one line saying why."""


class NotFound(FetchError):
    """The site answered 404: there is nothing at that address."""


class SiteUnavailable(FetchError):
    """The site cannot be used now (it limits our requests past the retries and waits, or it
    cannot be reached): the rest of a pull is not tried."""


def user_agent() -> str:
    """Who is asking, as a site's operators see it in their logs."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        own = version("railledger")
    except PackageNotFoundError:
        own = "unknown"
    return f"railledger/{own} (18xx game archive; one request at a time) httpx/{httpx.__version__}"


class _Retry(Exception):
    """A failure that may pass: try again after ``wait`` seconds (None: the backoff's)."""

    def __init__(self, reason: str, wait: float | None = None, limited: bool = False, unreachable: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait
        self.limited = limited
        self.unreachable = unreachable


class Fetcher:
    """GET requests to one site with :class:`Manners`; use it in a ``with`` block.

    ``transport``, ``sleep`` and ``clock`` are for tests (an httpx mock transport, a sleep that
    only counts)."""

    def __init__(self, base_url: str, manners: Manners = Manners(), *, transport: httpx.BaseTransport | None = None,
                 sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic) -> None:
        self.base_url = base_url
        self.manners = manners
        self._sleep = sleep
        self._clock = clock
        self._last: float | None = None
        self._transport = transport
        self._client = self._new_client()

    def _new_client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base_url, timeout=httpx.Timeout(self.manners.timeout), follow_redirects=False,
                            transport=self._transport, headers={"User-Agent": user_agent(), "Accept": "application/json"})

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the client's connections."""
        self._client.close()

    def get(self, path: str, params: Mapping[str, str] | None = None) -> bytes:
        """The body of a 200 answer to ``path``, as sent. Raises :class:`NotFound` for 404,
        :class:`SiteUnavailable` when the site limits or cannot be reached past the retries, and
        :class:`FetchError` for any other failure."""
        url = self.base_url + path
        tries = self.manners.retries + 1
        for attempt in range(tries):
            try:
                return self._once(path, params)
            except _Retry as failure:
                last = failure
                if failure.wait is not None and failure.wait > self.manners.longest_wait:
                    raise SiteUnavailable(f"{url}: {failure.reason}, and asks to wait {failure.wait:g} s, longer than "
                                          f"{self.manners.longest_wait:g} s: try again later") from None
                if attempt + 1 < tries:
                    self._sleep(failure.wait if failure.wait is not None else self.manners.backoff * 2 ** attempt)
        said = f"{url}: {last.reason} ({tries} tr{'y' if tries == 1 else 'ies'})"
        if last.limited or last.unreachable:
            raise SiteUnavailable(said)
        raise FetchError(said)

    def _pace(self) -> None:
        """Wait until ``delay`` seconds have passed since the last request ended."""
        if self._last is not None:
            left = self._last + self.manners.delay - self._clock()
            if left > 0:
                self._sleep(left)

    def _once(self, path: str, params: Mapping[str, str] | None) -> bytes:
        self._pace()
        try:
            return self._within_timeout(path, params)
        except httpx.TimeoutException:
            raise _Retry(f"no whole answer within {self.manners.timeout:g} s (--timeout)") from None
        except httpx.ConnectError as exc:
            raise _Retry(f"cannot connect: {exc}", unreachable=True) from None
        except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
            raise _Retry(f"the answer was cut short: {exc}") from None
        except httpx.HTTPError as exc:  # a body that does not decode (gzip), any other failure of the exchange
            raise _Retry(f"the request failed: {type(exc).__name__}: {exc}") from None
        finally:
            self._last = self._clock()

    def _within_timeout(self, path: str, params: Mapping[str, str] | None) -> bytes:
        """One request, given up after ``timeout`` seconds whatever the server does.

        httpx's timeouts bound each wait for a byte, not the whole answer: a server sending its
        headers a byte at a time would hold a request for ever. So the request runs in a thread
        of its own; when it is not done in time it is left to its own read timeout, on a client
        of its own that is then dropped, and this fetcher goes on with a new one."""
        outcome: list[bytes | BaseException] = []
        client = self._client

        def run() -> None:
            try:
                outcome.append(self._request(client, path, params))
            except BaseException as exc:  # handed to the caller below
                outcome.append(exc)

        worker = threading.Thread(target=run, name="railledger-fetch", daemon=True)
        worker.start()
        worker.join(self.manners.timeout + GRACE)
        if not outcome:
            self._client = self._new_client()
            threading.Thread(target=client.close, name="railledger-fetch-close", daemon=True).start()
            raise httpx.ReadTimeout("the whole answer took too long")
        if isinstance(outcome[0], BaseException):
            raise outcome[0]
        return outcome[0]

    def _request(self, client: httpx.Client, path: str, params: Mapping[str, str] | None) -> bytes:
        deadline = self._clock() + self.manners.timeout
        with client.stream("GET", path, params=params) as response:
            status = response.status_code
            if status == 404:
                raise NotFound(f"{response.url}: not found (HTTP 404)")
            if status == 429 or 500 <= status <= 599:
                raise _Retry(f"answered HTTP {status} {response.reason_phrase}".rstrip(),
                             wait=retry_after(response.headers.get("Retry-After")), limited=status == 429,
                             unreachable=status in SITE_DOWN)
            if 300 <= status <= 399:
                moved = response.headers.get("Location", "nowhere said")
                raise FetchError(f"{response.url}: answered HTTP {status}, moved to {moved}; railledger follows no "
                                 "redirect: give the address it names (--base-url)")
            if status != 200:
                raise FetchError(f"{response.url}: answered HTTP {status} {response.reason_phrase}".rstrip())
            return self._body(response, deadline)

    def _body(self, response: httpx.Response, deadline: float) -> bytes:
        """The whole body, refused past ``max_size`` bytes or past the request's deadline (a
        server sending a byte at a time would otherwise never time out)."""
        limit = self.manners.max_size
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > limit:
            raise FetchError(f"{response.url}: the answer is {int(declared):,} bytes, more than the {limit:,} a record may have")
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > limit:
                raise FetchError(f"{response.url}: the answer is more than the {limit:,} bytes a record may have")
            if self._clock() > deadline:
                raise httpx.ReadTimeout("too slow", request=response.request)
            chunks.append(chunk)
        return b"".join(chunks)


def retry_after(value: str | None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (a number, or an HTTP date), None without one."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())
