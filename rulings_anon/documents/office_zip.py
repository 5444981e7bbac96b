"""The ZIP packages of Word and OpenDocument files: read with bounds, written back part by part.

A password-protected Word file is no ZIP at all but an OLE compound file (the encrypted package
inside it); a password-protected OpenDocument file is a ZIP whose manifest declares encryption.
Both are refused in one line, as are files that are not the format their name says.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import Path

from lxml import etree

from rulings_anon.errors import InputError

MAX_FILE_BYTES = 200 << 20  # a document file larger than this is refused before it is read
MAX_PART_BYTES = 256 << 20  # one inflated part
MAX_RATIO = 200  # inflated / compressed, past one MB
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True)


def read_bytes(path: Path, kind: str) -> bytes:
    """The bytes of a document file; too large or unreadable is an :class:`InputError`."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(f"{size:,} bytes: larger than a ruling can be (at most {MAX_FILE_BYTES >> 20} MB)", path)
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror})", path) from None
    if not data.strip():
        raise InputError(f"the file is empty, not a {kind} document", path)
    return data


class Package:
    """The parts of an Office ZIP package, their order and compression kept for writing back."""

    def __init__(self, path: Path, kind: str, password_hint: str):
        self.path = path
        data = read_bytes(path, kind)
        if data.startswith(OLE_MAGIC):
            raise InputError(f"password-protected or in the old binary format, not a readable {kind} document: "
                             f"{password_hint}", path)
        try:
            self.archive = zipfile.ZipFile(io.BytesIO(data))
            self.infos = self.archive.infolist()
        except (zipfile.BadZipFile, OSError, ValueError):
            raise InputError(f"not a readable {kind} document (not a ZIP package: damaged or renamed)", path) from None
        self.kind = kind
        self.names = {info.filename for info in self.infos}
        self.replaced: dict[str, bytes] = {}
        self.removed: set[str] = set()

    def raw(self, name: str) -> bytes:
        info = self.archive.getinfo(name)
        if info.file_size > MAX_PART_BYTES or info.file_size > MAX_RATIO * max(info.compress_size, 1 << 20):
            raise InputError(f"{name} inflates to {info.file_size:,} bytes: refused as a ZIP bomb", self.path)
        try:
            return self.archive.read(name)
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError, zlib.error) as exc:
            raise InputError(f"damaged {self.kind} document: cannot unpack {name} ({exc})", self.path) from None

    def xml(self, name: str):
        """The parsed XML part ``name`` (as last put, if it was); damaged XML is an :class:`InputError`."""
        try:
            return etree.fromstring(self.replaced.get(name) or self.raw(name), _PARSER)
        except (etree.XMLSyntaxError, ValueError):
            raise InputError(f"damaged {self.kind} document: {name} is not well-formed XML", self.path) from None

    def put(self, name: str, root) -> None:
        self.replaced[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)

    def remove(self, name: str) -> None:
        self.removed.add(name)

    def write(self, handle) -> None:
        """The package with its replaced and removed parts, entries in their order and compression."""
        with zipfile.ZipFile(handle, "w") as out:
            for info in self.infos:
                if info.filename in self.removed:
                    continue
                data = self.replaced.get(info.filename)
                if data is None:
                    data = self.raw(info.filename)
                entry = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                entry.compress_type = info.compress_type
                entry.external_attr = info.external_attr
                out.writestr(entry, data)


def _append_before(element, text: str) -> None:
    """Put ``text`` right before ``element``: after its previous sibling, or into its parent's text."""
    previous = element.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + text
    else:
        parent = element.getparent()
        parent.text = (parent.text or "") + text


def remove_keeping_tail(element) -> None:
    """Remove ``element`` from its tree; the text after it (its tail) stays where it was."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        _append_before(element, element.tail)
    parent.remove(element)


def unwrap(element) -> None:
    """Replace ``element`` by its children (and text), as accepting a tracked insertion does."""
    parent = element.getparent()
    if parent is None:
        return
    index = parent.index(element)
    if element.text:
        _append_before(element, element.text)
    children = list(element)
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)
    if element.tail:
        if children:
            children[-1].tail = (children[-1].tail or "") + element.tail
        else:
            remove_keeping_tail(element)
            return
    parent.remove(element)
