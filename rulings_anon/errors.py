"""Errors that the command line reports as one clear line instead of a traceback."""


class InputError(Exception):
    """Bad or unreadable input: the message names the file (and line) and the problem."""

    def __init__(self, message: str, path=None, line: int | None = None):
        where = ""
        if path is not None:
            where = f"{path}"
            if line is not None:
                where += f":{line}"
            where += ": "
        super().__init__(where + message)
        self.path = path
        self.line = line


class ModelError(Exception):
    """A model directory that cannot be used (missing files, other version or variant)."""
