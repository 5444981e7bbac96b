"""The work of ``rulings-anon replace``: read the input, review document after document, save.

Documents already finished in ``--out`` are rebuilt from the saved decisions without questions,
so running the same command again resumes where the last run stopped.
"""

from __future__ import annotations

import sys

from tqdm import tqdm

from rulings_anon.diagnostics import summary
from rulings_anon.errors import InputError
from rulings_anon.inputs import read_input_documents

from .corrections import document_vocabulary, reference_vocabulary
from .session import DocumentSession
from .store import Store


def replace(args) -> int:
    from rulings_anon.placeholders.detector import PlaceholderDetector

    documents = list(read_input_documents([args.input], args.encoding or "utf-8"))
    if args.limit is not None:
        documents = documents[:args.limit]
    if not documents:
        raise InputError("holds no documents", args.input)
    seen: set[str] = set()
    for doc in documents:
        if doc.id in seen:
            raise InputError(f"two documents have the id {doc.id!r}; decisions are kept per id, so ids "
                             "must be unique", args.input)
        seen.add(doc.id)
    if not args.auto and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError("replace asks its questions on a terminal, and this is none: "
                         "run it in a terminal, or add --auto to replace without questions", args.input)
    vocabulary = _lazy_vocabulary(documents)
    detector = PlaceholderDetector()
    store = Store(args.out, durable=not args.auto)
    try:
        if args.auto:
            return _auto(documents, detector, store, vocabulary, args)
        return _interactive(documents, detector, store, vocabulary, args)
    finally:
        store.write_outputs()
        store.close()


def _lazy_vocabulary(documents):
    """The corrections' lexicon, built on first use (the first screen should not wait for it)."""
    built = []

    def vocabulary():
        if not built:
            built.append(reference_vocabulary() + document_vocabulary(d.text for d in documents))
        return built[0]

    return vocabulary


def _auto(documents, detector, store, vocabulary, args) -> int:
    from .auto import pseudonymize_document

    placeholders = corrections = 0
    for doc in tqdm(documents, desc="replace --auto", unit="doc", disable=not sys.stderr.isatty()):
        gold = pseudonymize_document(DocumentSession(doc, detector, store, args.seed, by="auto", names=args.names), vocabulary)
        placeholders += len(gold["spans"])
        corrections += len(store.corrections.get(doc.id, []))
    summary(f"{len(documents)} documents, {placeholders} placeholders replaced, {corrections} corrections "
            f"reported in {store.out / 'corrections.jsonl'}; gold file {store.out / 'pseudonymized.jsonl'}",
            documents=len(documents), placeholders=placeholders, corrections=corrections, out=str(store.out))
    return 0


def _interactive(documents, detector, store, vocabulary, args) -> int:
    from .dialogue import Dialogue, Quit
    from .terminal import Terminal

    with Terminal() as terminal:
        try:
            for number, doc in enumerate(documents, 1):
                session = DocumentSession(doc, detector, store, args.seed, names=args.names)
                label = f"{doc.id} (document {number} of {len(documents)})"
                Dialogue(terminal, session, label).review(vocabulary)
                store.write_outputs()
        except Quit:
            terminal.write(f"\nStopped. Every decision is saved in {store.out}; "
                           "run the same command again to go on.\n")
            return 0
    finished = sum(1 for d in documents if d.id in store.results)
    summary(f"\nDone: {finished} documents in {store.out / 'pseudonymized.jsonl'}, decisions in "
            f"{store.out / 'decisions.jsonl'}, replacement table in {store.out / 'replacements.jsonl'}",
            documents=finished, out=str(store.out))
    return 0
