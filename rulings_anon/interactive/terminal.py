"""Single keys and colours on a terminal, with the standard library only (termios, tty).

The terminal is put in cbreak mode (keys arrive at once, no echo, Ctrl-C still interrupts) and
restored on every way out. A closed terminal (SIGHUP, end of input) ends the dialogue like Ctrl-C:
as a :class:`KeyboardInterrupt`, after which the caller's ``finally`` saves the outputs.

Ctrl-C interrupts even where the tool was started with SIGINT ignored (a job a non-interactive
shell put in the background, ``cmd &``, inherits that, and Python then installs no handler).
"""

from __future__ import annotations

import codecs
import os
import re
import select
import signal
import sys
import termios
import tty

ENTER = "enter"
ESCAPE = "escape"
BACKSPACE = "backspace"

_STYLES = {"mark": "\x1b[1;30;43m", "bold": "\x1b[1m", "dim": "\x1b[2m", "ok": "\x1b[32m",
           "warn": "\x1b[31m", "key": "\x1b[1;36m"}
_RESET = "\x1b[0m"
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _hang_up(signum, frame):
    raise KeyboardInterrupt


class Terminal:
    """Reads single keys from ``stdin`` and writes (optionally coloured) text to ``stdout``."""

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.fd = self.stdin.fileno()
        self.colour = (self.stdout.isatty() and os.environ.get("TERM", "dumb") != "dumb"
                       and "NO_COLOR" not in os.environ)
        self._saved = None
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def __enter__(self) -> Terminal:
        self._saved = termios.tcgetattr(self.fd)
        self._old_hup = signal.signal(signal.SIGHUP, _hang_up)
        self._old_int = signal.signal(signal.SIGINT, signal.default_int_handler)
        tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc) -> None:
        try:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
        except (termios.error, OSError):
            pass  # the terminal is gone
        signal.signal(signal.SIGHUP, self._old_hup)
        signal.signal(signal.SIGINT, self._old_int)

    # -- input ------------------------------------------------------------------------------

    def _read_char(self) -> str:
        while True:
            data = os.read(self.fd, 1)
            if not data:
                raise KeyboardInterrupt  # end of input: the terminal was closed
            char = self._decoder.decode(data)
            if char:
                return char

    def key(self) -> str:
        """One key press: a character, or ``ENTER``, ``ESCAPE``, ``BACKSPACE``."""
        char = self._read_char()
        if char in ("\r", "\n"):
            return ENTER
        if char in ("\x7f", "\b"):
            return BACKSPACE
        if char == "\x1b":
            self._drain_escape()
            return ESCAPE
        return char

    def _drain_escape(self) -> None:
        """Swallow the rest of an escape sequence (arrow keys) if it follows at once."""
        while select.select([self.fd], [], [], 0.02)[0]:
            if not os.read(self.fd, 16):
                break

    def line(self, prompt: str) -> str:
        """A line typed by the user (echoed, editable with backspace); Escape gives ''."""
        self.write(prompt)
        chars: list[str] = []
        while True:
            key = self.key()
            if key == ENTER:
                self.write("\n")
                return "".join(chars).strip()
            if key == ESCAPE:
                self.write("\n")
                return ""
            if key == BACKSPACE:
                if chars:
                    chars.pop()
                    self.write("\b \b")
            elif key.isprintable():
                chars.append(key)
                self.write(key)

    # -- output -----------------------------------------------------------------------------

    def write(self, text: str) -> None:
        self.stdout.write(text if self.colour else _ANSI.sub("", text))
        self.stdout.flush()

    def style(self, text: str, name: str) -> str:
        """``text`` in a style; without colours, the marked element stands in [[ ]]."""
        if self.colour:
            return f"{_STYLES[name]}{text}{_RESET}"
        return f"[[{text}]]" if name == "mark" else text

    def clear(self) -> None:
        if self.colour:
            self.write("\x1b[H\x1b[2J")
        else:
            self.write("\n" + "-" * 78 + "\n")
