"""Data the package ships: placeholder patterns, the bundled LER-derived corpus, name lists.

Use :func:`path` to locate a file, so code works from a checkout and from an install alike.
"""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent


def path(*parts: str) -> Path:
    """Absolute path of a shipped data file, e.g. ``path("ler", "bgh.jsonl.gz")``."""
    return DATA_DIR.joinpath(*parts)


def resource_lines(*parts: str) -> list[str]:
    """The entries of a shipped one-entry-a-line resource, e.g. ``resource_lines("abbreviations",
    "spacy-de.txt")``: lines stripped, empty ones left out."""
    text = path(*parts).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def ler_corpus_files(courts=None) -> list[Path]:
    """The bundled LER court files, optionally only ``courts`` (e.g. ``["bgh", "bag"]``)."""
    files = sorted(DATA_DIR.joinpath("ler").glob("*.jsonl.gz"))
    if courts:
        wanted = {c.lower() for c in courts}
        files = [f for f in files if f.name.split(".")[0] in wanted]
    return files


def checked_labels_file(court: str) -> Path | None:
    """Hand-checked placeholder labels of a bundled court (``checked/<court>.jsonl``), if any."""
    candidate = DATA_DIR.joinpath("checked", f"{court.lower()}.jsonl")
    return candidate if candidate.exists() else None
