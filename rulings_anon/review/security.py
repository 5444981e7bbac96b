"""Who may talk to the review server, and which requests may change its state.

* Host: on 127.0.0.1 only requests addressed to this server's own host and port are served (a
  web page elsewhere cannot reach it by a name it controls: DNS rebinding).
* Token: a server listening beyond 127.0.0.1 serves nobody without its token (in the address it
  prints, then kept in a cookie); everyone else gets 403.
* Cross-site requests: a state-changing request needs the session's CSRF token in the
  ``X-CSRF-Token`` header, and its Origin (or else Referer) must be the server's own.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

SESSION_COOKIE = "review_session"
TOKEN_COOKIE = "review_token"
CSRF_HEADER = "x-csrf-token"


@dataclass
class Guard:
    host: str
    port: int
    token: str | None = None
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))

    def allowed_hosts(self) -> set[str]:
        hosts = {f"{self.host}:{self.port}"}
        if self.host == "127.0.0.1":
            hosts |= {f"localhost:{self.port}"}
        return hosts

    def csrf(self, session: str) -> str:
        return hmac.new(self.secret, session.encode(), hashlib.sha256).hexdigest()

    def refusal(self, method: str, headers, cookies, query) -> str | None:
        """Why the request is refused (403), or None."""
        host = headers.get("host", "")
        if self.token is None and host not in self.allowed_hosts():
            return "this server answers only requests addressed to its own address"
        if self.token is not None:
            given = query.get("token") or headers.get("x-review-token") or cookies.get(TOKEN_COOKIE) or ""
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                return "this review needs its token: open the address the server printed"
        if method in ("GET", "HEAD"):
            return None
        session = cookies.get(SESSION_COOKIE)
        if not session or not hmac.compare_digest(headers.get(CSRF_HEADER, "").encode(),
                                                  self.csrf(session).encode()):
            return "missing or wrong CSRF token: reload the page"
        own = f"http://{host}"
        origin = headers.get("origin")
        if origin is not None:
            if origin != own:
                return "cross-site request refused"
        elif not headers.get("referer", "").startswith(own + "/"):
            return "cross-site request refused (no Origin or Referer of this server)"
        return None
