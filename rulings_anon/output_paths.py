"""Refuse outputs that would overwrite an input or another output of the same run.

A command that writes where it reads destroys the user's data: ``score x.jsonl --output x.jsonl``
replaces the rulings by spans, ``score rulings/ --anonymize rulings/`` replaces the original
``.txt`` files by their anonymized copies, ``--anonymize X --pseudonymize X`` keeps only one of
the two. Every command therefore hands its inputs and outputs to :func:`check_outputs` before
any work. Paths are compared after resolving symbolic links, and existing files also by device
and inode, so a hard link to an input is that input. Refused are:

* an output that is an input file, or an output folder that is an input folder;
* an output folder with an input inside it (the command writes files there);
* an output inside an input folder that the next run would read as a ruling (a folder, or a file
  of a supported type not hidden by a leading dot), since inputs are read from folders recursively;
* two outputs that are the same file, or one inside the other's folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError


@dataclass(frozen=True)
class Output:
    """A path a command writes: a file, or a ``folder`` it writes files into."""

    option: str
    path: Path
    folder: bool = False


@dataclass(frozen=True)
class Input:
    """A path a command reads (a file or a folder), with the option or argument that names it."""

    option: str
    path: Path


def output(option: str, path, folder: bool = False) -> Output | None:
    """An :class:`Output`, or None for an option not given (or ``-``, standard output)."""
    if path is None or str(path) == "-":
        return None
    return Output(option, Path(path), folder)


def inputs(option: str, paths) -> list[Input]:
    """The :class:`Input` of each given path (none for None); ``paths`` may be one path or several."""
    if paths is None:
        return []
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return [Input(option, Path(p)) for p in paths if p is not None and str(p) != "-"]


def _resolved(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino)


def _inside(path: Path, folder: Path) -> bool:
    """Whether resolved ``path`` lies strictly inside resolved ``folder``."""
    return folder in path.parents


def _read_as_input(path: Path, folder: Path) -> bool:
    """Whether a file at ``path`` under the input ``folder`` would be read from that folder."""
    from .inputs import SUPPORTED

    relative = path.relative_to(folder).parts
    return not any(part.startswith(".") for part in relative) and path.name.lower().endswith(SUPPORTED)


def _input_inodes(item: Input) -> dict[tuple[int, int], Path]:
    """Device and inode of the input's file, or of every file under its folder."""
    path = item.path
    files = (p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    inodes = {}
    for file in files:
        inode = _inode(file)
        if inode is not None:
            inodes.setdefault(inode, file)
    return inodes


def _against_input(out: Output, item: Input, inodes: dict) -> str | None:
    """Why ``out`` must not be written when ``item`` is read (None: no conflict)."""
    target, source = _resolved(out.path), _resolved(item.path)
    what = f"{out.option} {out.path} and {item.option} {item.path}"
    if target == source:
        return f"{what} are the same {'folder' if source.is_dir() else 'file'}; the input would be overwritten"
    inode = _inode(out.path) if out.path.is_file() else None
    if inode is not None and inode in inodes:
        return f"{what}: the output is the input file {inodes[inode]} (a link to it); it would be overwritten"
    if out.folder and _inside(source, target):
        return f"{what}: the input lies inside the output folder and could be overwritten"
    if source.is_dir() and _inside(target, source) and (out.folder or _read_as_input(target, source)):
        return f"{what}: the output lies inside the input folder and would be read as input next time"
    return None


def _against_output(out: Output, other: Output) -> str | None:
    """Why two outputs of one run collide (None: they do not)."""
    first, second = _resolved(out.path), _resolved(other.path)
    what = f"{out.option} {out.path} and {other.option} {other.path}"
    same_inode = _inode(out.path) is not None and _inode(out.path) == _inode(other.path)
    if first == second or (same_inode and not out.folder and not other.folder):
        return f"{what} are the same; one output would overwrite the other"
    if (other.folder and _inside(first, second)) or (out.folder and _inside(second, first)):
        return f"{what}: one lies inside the other's folder; one output would overwrite the other"
    return None


def check_outputs(outputs: Iterable[Output | None], read: Iterable[Input] = ()) -> None:
    """Refuse, as one :class:`InputError` naming both options and paths, an output that is or
    would overwrite an input or another output (see the module's docstring)."""
    outputs = [o for o in outputs if o is not None]
    read = list(read)
    inodes = {}
    for item in read:
        if any(o.path.is_file() for o in outputs):
            inodes[item] = _input_inodes(item)
    for out in outputs:
        for item in read:
            problem = _against_input(out, item, inodes.get(item, {}))
            if problem:
                raise InputError(problem)
    for i, out in enumerate(outputs):
        for other in outputs[i + 1:]:
            problem = _against_output(out, other)
            if problem:
                raise InputError(problem)
