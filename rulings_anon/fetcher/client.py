"""A polite HTTP client for the court portals.

The portals are public services run on tax money and ask bulk users to be gentle, so every
request goes through :class:`PoliteClient`, which

* identifies itself with a descriptive ``User-Agent``;
* reads ``robots.txt`` once and refuses URLs it disallows (and waits its ``Crawl-delay``);
* keeps at least ``delay`` seconds between the starts of two requests (default: one per second);
* retries timeouts, dropped connections, 5xx and 429 answers with exponential back-off,
  waiting at least as long as a ``Retry-After`` header asks;
* keeps cookies in one ``requests.Session`` (the Bavarian search is session based).
"""

from __future__ import annotations

import email.utils
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit
from urllib.robotparser import RobotFileParser

import requests

from rulings_anon.errors import InputError
from rulings_anon.escapes import printable
from rulings_anon.version import __version__

USER_AGENT = (
    f"rulings-anon/{__version__} (research tool collecting published, anonymized court "
    f"decisions; honours robots.txt; python-requests/{requests.__version__})"
)
RETRY_STATUSES = frozenset((429, 500, 502, 503, 504))
# Transport failures worth another try: the server may just be busy or restarting.
RETRY_ERRORS = (
    requests.Timeout,
    requests.ConnectionError,
    requests.exceptions.ChunkedEncodingError,
    requests.exceptions.ContentDecodingError,
)


class FetchError(InputError):
    """A request that did not give a usable answer; the message names the URL."""


class Unavailable(FetchError):
    """This one URL cannot be had (4xx, or robots.txt disallows it); others may still work."""


class GaveUp(FetchError):
    """The server kept failing after every retry: stop, and resume later."""


@dataclass(frozen=True)
class Politeness:
    """How gently to treat a server; times in seconds."""

    delay: float = 1.0  # between the starts of two requests
    retries: int = 5  # further attempts after a failed one
    backoff: float = 2.0  # first wait before a retry; doubles with each further one
    max_wait: float = 300.0  # cap of a single wait (also for a Retry-After header)
    timeout: float = 60.0  # per request: connect and between two received bytes


def _log_to_stderr(message: str) -> None:
    print(printable(message, one_line=True), file=sys.stderr, flush=True)


def retry_after(response: requests.Response) -> float:
    """Seconds a ``Retry-After`` header asks to wait (a number or an HTTP date); 0 if none."""
    value = (response.headers.get("Retry-After") or "").strip()
    if not value:
        return 0.0
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return 0.0
    return max(0.0, when.timestamp() - time.time())


# The most bytes one answer may hold: a ruling's ZIP or a result page is well below 1 MB. A server
# sending more (by mistake or on purpose) ends that download, not the memory of the machine.
MAX_RESPONSE_BYTES = 64 << 20


def read_bounded(response: requests.Response, url: str, limit: int | None = None) -> None:
    """Read the body of a streamed ``response`` into ``response.content``, stopping with a
    :class:`FetchError` once it passes ``limit`` bytes (default :data:`MAX_RESPONSE_BYTES`), declared
    or received (after any gzip content encoding is undone)."""
    limit = MAX_RESPONSE_BYTES if limit is None else limit
    declared = response.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > limit:
        response.close()
        raise FetchError(f"the answer declares {int(declared):,} bytes (at most {limit:,} are read)", url)
    chunks, total = [], 0
    for chunk in response.iter_content(1 << 16):
        total += len(chunk)
        if total > limit:
            response.close()
            raise FetchError(f"the answer holds more than {limit:,} bytes: download stopped", url)
        chunks.append(chunk)
    response._content = b"".join(chunks)


class PoliteClient:
    """HTTP access to one site (``base_url``) under a :class:`Politeness` policy."""

    def __init__(
        self,
        base_url: str,
        policy: Politeness = Politeness(),
        user_agent: str = USER_AGENT,
        log: Callable[[str], None] = _log_to_stderr,
    ):
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise InputError(f"--base-url must be an http(s) URL, got {base_url!r}")
        self.base_url = base_url.rstrip("/") + "/"
        self.policy = policy
        self.user_agent = user_agent
        self.log = log
        self.session = requests.Session()
        self.session.headers["User-Agent"] = user_agent
        self.requests_sent = 0
        self._last_start: float | None = None
        self._robots: RobotFileParser | None = None
        self._interval = policy.delay

    def url(self, path: str) -> str:
        """The absolute URL of a path on this site."""
        return urljoin(self.base_url, path.lstrip("/"))

    def get(self, path: str, **kwargs) -> requests.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs) -> requests.Response:
        return self.request("POST", path, **kwargs)

    def request(self, method: str, path: str, **kwargs) -> requests.Response:
        """Send a request that robots.txt allows; a 4xx answer raises :class:`Unavailable`."""
        url = self.url(path)
        if not self.robots().can_fetch(self.user_agent, url):
            raise Unavailable("robots.txt of the site disallows this URL", url)
        response = self._send(method, url, **kwargs)
        if response.status_code >= 400:
            raise Unavailable(f"HTTP {response.status_code} {response.reason}", url)
        return response

    def robots(self) -> RobotFileParser:
        """The site's robots.txt rules, fetched on first use (a missing file allows all)."""
        if self._robots is None:
            url = self.url("/robots.txt")
            parser = RobotFileParser(url)
            response = self._send("GET", url)
            if response.status_code in (401, 403):
                parser.disallow_all = True
            elif response.status_code >= 400:
                parser.allow_all = True
            else:
                parser.parse(response.text.splitlines())
            delay = parser.crawl_delay(self.user_agent)
            if delay:
                self._interval = max(self._interval, float(delay))
            self._robots = parser
        return self._robots

    def _wait_turn(self) -> None:
        now = time.monotonic()
        if self._last_start is not None:
            wait = self._last_start + self._interval - now
            if wait > 0:
                time.sleep(wait)
        self._last_start = time.monotonic()

    def _send(self, method: str, url: str, **kwargs) -> requests.Response:
        """One request with rate limit and retries; the whole body is read before returning."""
        policy = self.policy
        attempt = 0
        while True:
            self._wait_turn()
            self.requests_sent += 1
            wait = policy.backoff * 2**attempt
            try:
                response = self.session.request(method, url, timeout=policy.timeout, stream=True, **kwargs)
                if response.status_code not in RETRY_STATUSES:
                    read_bounded(response, url)
            except RETRY_ERRORS as exc:
                problem = f"{type(exc).__name__}: {exc}"
            except requests.RequestException as exc:
                raise FetchError(f"request failed ({exc})", url) from None
            else:
                if response.status_code not in RETRY_STATUSES:
                    return response
                problem = f"HTTP {response.status_code} {response.reason}"
                wait = max(wait, retry_after(response))
                response.close()
            if attempt == policy.retries:
                raise GaveUp(f"no answer after {attempt + 1} attempts, last: {problem}", url)
            wait = min(wait, policy.max_wait)
            self.log(f"{url}: {problem}; retrying in {wait:.1f} s ({attempt + 1}/{policy.retries})")
            time.sleep(wait)
            attempt += 1
