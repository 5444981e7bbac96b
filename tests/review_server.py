"""Shared by the review tests and benchmark: the real ``rulings-anon review`` server process on
127.0.0.1 and an HTTP client that keeps its cookies and CSRF token as a browser does."""

from __future__ import annotations

import http.cookiejar
import json
import re
import select
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def batch_folder(tmp_path_factory, name: str, files: dict[str, str] | None = None) -> tuple[Path, Path]:
    """A fresh folder for one review and its ``batch/`` of rulings, with ``files`` (name -> text) in it."""
    folder = tmp_path_factory.mktemp(name)
    batch = folder / "batch"
    batch.mkdir()
    for file_name, text in (files or {}).items():
        (batch / file_name).write_text(text, encoding="utf-8")
    return folder, batch


class ReviewServer:
    """``python -m rulings_anon review ARGS --port 0``, up once it prints its address."""

    def __init__(self, *args, timeout: float = 180):
        self.process = subprocess.Popen([sys.executable, "-m", "rulings_anon", "review", *map(str, args),
                                         "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + timeout
        line = ""
        while "open http" not in line:
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready or self.process.poll() is not None and not line:
                self.stop()
                raise RuntimeError(f"review server did not start: {self.process.stderr.read()}")
            line = self.process.stdout.readline()
            if not line and self.process.poll() is not None:
                raise RuntimeError(f"review server ended: {self.process.stderr.read()}")
        self.address = re.search(r"open (\S+)", line).group(1)
        self.base = re.match(r"http://[^/]+", self.address).group(0)

    def stop(self, kill: bool = False) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()

    def __enter__(self) -> ReviewServer:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class Client:
    """Requests to one server with a cookie jar; ``post`` sends the CSRF token of the last page."""

    def __init__(self, base: str):
        self.base = base
        self.csrf = ""
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def request(self, path: str, body: dict | None = None, headers: dict | None = None):
        """(status, text) of GET ``path``, or of a POST of ``body`` as JSON."""
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if body is not None else {}
        request = urllib.request.Request(self.base + path, data=data, headers={**sent, **(headers or {})},
                                         method="GET" if body is None else "POST")
        try:
            with self.opener.open(request, timeout=60) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            status, text = exc.code, exc.read().decode()
        found = re.search(r'name="csrf-token" content="([0-9a-f]+)"', text)
        if found:
            self.csrf = found.group(1)
        return status, text

    def get(self, path: str):
        return self.request(path)

    def post(self, path: str, body: dict, headers: dict | None = None):
        """POST as the page's script does; a header given as None is left out."""
        merged = {"X-CSRF-Token": self.csrf, "Origin": self.base, **(headers or {})}
        return self.request(path, body, {k: v for k, v in merged.items() if v is not None})

    def state(self, ruling: str) -> dict:
        status, text = self.get(f"/api/ruling?id={urllib.request.quote(ruling, safe='')}")
        assert status == 200, text
        return json.loads(text)
