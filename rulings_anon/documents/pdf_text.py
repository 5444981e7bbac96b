"""PDF rulings with a text layer: their text, page by page (pypdf).

A PDF is not written back: its text has no runs to replace within, so an anonymized PDF ruling is
written as a Word file of its paragraphs (:mod:`rulings_anon.documents.plain_docx`). A PDF without
text (a scan) is refused: OCR is not supported.
"""

from __future__ import annotations

import logging
from pathlib import Path

from rulings_anon.errors import InputError

from .office_zip import read_bytes
from .segments import TextBuilder, TextMap

KIND = "PDF"


def read_text(path: Path) -> TextMap:
    import io

    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    data = read_bytes(path, KIND)
    if not data.lstrip()[:5] == b"%PDF-":
        raise InputError("not a readable PDF (no %PDF header: damaged or renamed)", path)
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    builder = TextBuilder()
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise FileNotDecryptedError("password")
        for number, page in enumerate(reader.pages):
            for paragraph in _paragraphs(page.extract_text() or ""):
                builder.add(paragraph, number)
                builder.end_paragraph()
    except (FileNotDecryptedError, DependencyError):
        raise InputError("password-protected PDF: save it without a password and try again", path) from None
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise InputError(f"not a readable PDF (damaged: {type(exc).__name__})", path) from None
    text_map = builder.build()
    if not text_map.text.strip():
        raise InputError("has no text layer (a scanned PDF?): OCR is not supported; give the court's "
                         "Word or text file instead", path)
    return text_map


def _paragraphs(text: str) -> list[str]:
    """A page's text as paragraphs: blank lines separate them; lines keep their breaks."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    paragraphs, current = [], []
    for line in lines:
        if line.strip():
            current.append(line)
        elif current:
            paragraphs.append("\n".join(current))
            current = []
    if current:
        paragraphs.append("\n".join(current))
    return paragraphs
