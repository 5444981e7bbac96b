"""A Word file of plain paragraphs: what an anonymized PDF or RTF ruling is written as."""

from __future__ import annotations

from .segments import PARAGRAPH_BREAK


def write(text: str, handle) -> None:
    """``text`` (paragraphs separated by blank lines, lines by breaks) as a .docx to ``handle``,
    without the template's author."""
    import docx

    document = docx.Document()
    properties = document.core_properties
    properties.author = properties.last_modified_by = properties.title = properties.comments = ""
    for paragraph in text.split(PARAGRAPH_BREAK):
        lines = paragraph.strip("\n").split("\n")
        run = document.add_paragraph().add_run(lines[0])
        for line in lines[1:]:
            run.add_break()
            run.add_text(line)
    document.save(handle)
