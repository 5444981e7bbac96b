"""``rulings-anon review``: the review file opened or created, then the export or the server."""

from __future__ import annotations

import getpass
import json
import socket
from pathlib import Path

from rulings_anon import diagnostics
from rulings_anon.diagnostics import LOG
from rulings_anon.errors import InputError
from rulings_anon.escapes import printable

from .database import ReviewDatabase, is_review_database
from .stored_policy import check_policy, given_policy

LOCAL = "127.0.0.1"


def default_db(batch: Path, state: Path | None) -> Path:
    name = f"{batch.resolve().name}.review.sqlite"
    return (state if state is not None else batch.resolve().parent) / name


def export_folder_of(db: Path) -> Path:
    return db.with_name(db.name.removesuffix(".sqlite") + "-export")


def open_review(args) -> ReviewDatabase:
    """The review of ``args.batch``: resumed when its file exists, else created with the suggestions."""
    from rulings_anon.output_paths import check_outputs, inputs, output

    batch: Path = args.batch
    if not batch.exists():
        raise InputError("no such file or directory", batch)
    # a missing or malformed --policy is one line naming it, before any work
    given = given_policy(args.policy) if args.policy is not None else None
    if is_review_database(batch):
        if args.db is not None and args.db.resolve() != batch.resolve():
            raise InputError("BATCH is a saved review already; leave out --db")
        db = batch
    else:
        db = args.db or default_db(batch, args.state)
        check_outputs([output("--db", db), output("--export", args.export, folder=True)], inputs("BATCH", batch))
    if db.exists():
        database = ReviewDatabase(db)
        _check_options(database, args)
        check_policy(database, given, args.policy)
        LOG.info(f"review: resuming {printable(str(db), one_line=True)}")
        return database
    if args.export is not None:
        raise InputError("no review to export yet; run the review first", db)
    from .suggestions import create_review

    db.parent.mkdir(parents=True, exist_ok=True)
    LOG.info(f"review: analyzing the batch into {printable(str(db), one_line=True)} ...")
    return create_review(db, batch, args.threshold, args.recall_first, policy=given)


def _check_options(database: ReviewDatabase, args) -> None:
    """A resumed review keeps its suggestions: other options are refused rather than ignored."""
    stored = json.loads(database.meta("options", "{}"))
    given = {"threshold": args.threshold, "recall_first": args.recall_first}
    if any(given[k] not in (None, False) and given[k] != stored.get(k) for k in given):
        raise InputError(f"this review was started with threshold {stored.get('threshold')} and recall_first "
                         f"{stored.get('recall_first')}; leave the options out to resume it, or give another --db",
                         database.path)


def run_review(args) -> int:
    if args.host != LOCAL and not args.token:
        raise InputError(f"--host {args.host} lets other computers in: give --token SECRET as well")
    if args.token is not None and (len(args.token) < 12 or not args.token.isascii() or not args.token.isprintable()):
        raise InputError("--token needs at least 12 printable ASCII characters")
    database = open_review(args)
    if args.export is not None:
        from .export import export_review

        operator = args.operator or database.meta("operator")
        summary = export_review(database, args.export, operator)
        diagnostics.summary(f"review: exported {summary['rulings']} rulings ({summary['done']} done, "
                            f"{summary['open_suggestions']} open suggestions) as {operator} -> {args.export}",
                            **summary, export=str(args.export))
        return 0
    if args.operator:
        database.set_meta("operator", args.operator)
    return serve(database, args)


def serve(database: ReviewDatabase, args) -> int:
    import uvicorn

    from .security import Guard
    from .webapp import create_app

    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
        sock.listen(128)  # connections made once the address is printed wait for the server
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    port = sock.getsockname()[1]
    if args.host != LOCAL:
        LOG.warning(f"review: warning: listening on {args.host}, reachable from other computers; only requests "
                    "with the token are served")
    guard = Guard(args.host, port, args.token)
    reviewer = args.reviewer or getpass.getuser()
    app = create_app(database, guard, reviewer, export_folder_of(database.path))
    shown = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    address = f"http://{shown}:{port}/" + (f"?token={args.token}" if args.token else "")
    rulings = database.rulings()
    print(f"review: {sum(r.error is None for r in rulings)} rulings "
          f"({sum(r.error is not None for r in rulings)} not readable); reviewer "
          f"{printable(reviewer, one_line=True)}; open {address}", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))
    server.run(sockets=[sock])
    database.close()
    return 0
