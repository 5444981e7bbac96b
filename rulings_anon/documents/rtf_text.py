"""RTF rulings: their text (striprtf), paragraphs separated by blank lines.

RTF is written back as a Word file of the anonymized paragraphs
(:mod:`rulings_anon.documents.plain_docx`): its control words have no run structure that
striprtf keeps.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulings_anon.errors import InputError

from .office_zip import read_bytes
from .segments import TextBuilder, TextMap

KIND = "RTF"
_CODEPAGE = re.compile(rb"\\ansicpg(\d+)")


def read_text(path: Path) -> TextMap:
    from striprtf.striprtf import rtf_to_text

    data = read_bytes(path, KIND)
    if not data.lstrip().startswith(b"{\\rtf"):
        raise InputError("not an RTF document (it does not start with {\\rtf: damaged or renamed)", path)
    codepage = _CODEPAGE.search(data[:2000])
    encoding = f"cp{int(codepage.group(1))}" if codepage else "cp1252"
    try:
        text = rtf_to_text(data.decode("latin-1"), encoding=encoding, errors="replace")
    except (LookupError, ValueError, IndexError, RecursionError) as exc:
        raise InputError(f"not a readable RTF document ({type(exc).__name__})", path) from None
    builder = TextBuilder()
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.strip():
            builder.add(line.rstrip(), "rtf")
            builder.end_paragraph()
    text_map = builder.build()
    if not text_map.text.strip():
        raise InputError("holds no text", path)
    return text_map
