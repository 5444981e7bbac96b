"""The review web application: server-rendered pages and a small JSON API over the database.

Every handler runs on the event loop's one thread, so the requests of one server reach SQLite
one at a time; two servers on one file (two reviewers) meet its locks and the versions.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulings_anon.errors import InputError

from .database import SPAN_TYPES, Conflict, ReviewDatabase
from .export import anonymized_text, export_review
from .rendering import marked_text, plain_text
from .security import SESSION_COOKIE, TOKEN_COOKIE, Guard
from .stored_policy import REVIEW_OPERATORS

HERE = Path(__file__).parent
KEYS = (("j / k", "next / previous span"), ("a / r", "accept / reject"),
        ("A / R", "accept / reject every mention of the same text"), ("n", "mark the selected text"),
        ("e", "set the span's extent to the selection"), ("u", "undo"), ("d", "done"))


def create_app(database: ReviewDatabase, guard: Guard, reviewer: str, export_folder: Path) -> Starlette:
    templates = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]))

    def page(request: Request, name: str, **context) -> Response:
        session = request.cookies.get(SESSION_COOKIE) or secrets.token_urlsafe(24)
        body = templates.get_template(name).render(csrf=guard.csrf(session), reviewer=reviewer, keys=KEYS,
                                                  types=SPAN_TYPES, operators=REVIEW_OPERATORS, **context)
        response = HTMLResponse(body, headers=_HEADERS)
        response.set_cookie(SESSION_COOKIE, session, httponly=True, samesite="strict")
        token = request.query_params.get("token")
        if guard.token is not None and token:
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response

    def guarded(handler):
        async def endpoint(request: Request) -> Response:
            refusal = guard.refusal(request.method, request.headers, request.cookies, request.query_params)
            if refusal is not None:
                return _error(403, refusal)
            try:
                return await handler(request)
            except Conflict as exc:
                return _error(409, str(exc))
            except KeyError as exc:  # before LookupError, its base
                return _error(400, f"the request lacks {exc.args[0]!r}")
            except LookupError as exc:
                return _error(404, str(exc).strip("'\""))
            except (ValueError, TypeError, InputError) as exc:
                return _error(400, str(exc))
        return endpoint

    def ruling_or_404(ruling_id):
        ruling = database.ruling(str(ruling_id))
        if ruling is None:
            raise LookupError(f"no ruling {ruling_id!r}")
        return ruling

    async def overview(request: Request) -> Response:
        rulings, counts = database.rulings(), database.progress()
        rows = [{"ruling": r, "counts": counts.get(r.id, {})} for r in rulings]
        totals = {"rulings": sum(r.error is None for r in rulings), "done": sum(r.done for r in rulings),
                  "open": sum(c.get("open", 0) for c in counts.values()),
                  "failed": sum(r.error is not None for r in rulings)}
        return page(request, "overview.html", rows=rows, totals=totals, threshold=database.meta("threshold"),
                    options=json.loads(database.meta("options", "{}")))

    async def ruling_page(request: Request) -> Response:
        ruling = ruling_or_404(request.query_params.get("id", ""))
        if ruling.error is not None:
            return page(request, "failed.html", ruling=ruling)
        spans = database.spans(ruling.id)
        ids = [r.id for r in database.rulings() if r.error is None]
        at = ids.index(ruling.id)
        return page(request, "ruling.html", ruling=ruling, text=marked_text(ruling.text, spans),
                    counts=_counts(spans), previous=ids[at - 1] if at else None,
                    next=ids[at + 1] if at + 1 < len(ids) else None, operator=database.meta("operator"))

    async def preview(request: Request) -> Response:
        ruling = ruling_or_404(request.query_params.get("id", ""))
        operator = request.query_params.get("operator") or database.meta("operator")
        if operator not in REVIEW_OPERATORS:
            raise ValueError(f"unknown operator {operator!r}")
        return page(request, "preview.html", ruling=ruling, operator=operator,
                    text=plain_text(anonymized_text(database, ruling, operator)))

    async def export_page(request: Request) -> Response:
        return page(request, "export.html", folder=str(export_folder), operator=database.meta("operator"))

    async def api_ruling(request: Request) -> Response:
        return _state(database, ruling_or_404(request.query_params.get("id", "")).id)

    async def api_decide(request: Request) -> Response:
        body = await _body(request)
        state = {"accept": "accepted", "reject": "rejected"}.get(body.get("decision"))
        if state is None:
            raise ValueError("'decision' is 'accept' or 'reject'")
        if body.get("all"):
            database.decide_mentions(reviewer, body["ruling"], _int(body["span"]), _int(body["version"]), state)
        else:
            database.decide(reviewer, body["ruling"], _int(body["span"]), _int(body["version"]), state)
        return _state(database, body["ruling"])

    async def api_add(request: Request) -> Response:
        body = await _body(request)
        database.add_span(reviewer, body["ruling"], _int(body["version"]), _int(body["start"]), _int(body["end"]),
                          body.get("type") or None)
        return _state(database, body["ruling"])

    async def api_edit(request: Request) -> Response:
        body = await _body(request)
        database.edit_span(reviewer, body["ruling"], _int(body["span"]), _int(body["version"]),
                           _int(body.get("start")), _int(body.get("end")), body.get("type") or None)
        return _state(database, body["ruling"])

    async def api_undo(request: Request) -> Response:
        body = await _body(request)
        database.undo(reviewer, body["ruling"], _int(body["version"]))
        return _state(database, body["ruling"])

    async def api_done(request: Request) -> Response:
        body = await _body(request)
        database.set_done(reviewer, body["ruling"], _int(body["version"]), bool(body.get("done", True)))
        return _state(database, body["ruling"])

    async def api_export(request: Request) -> Response:
        body = await _body(request)
        operator = body.get("operator") or database.meta("operator")
        summary = export_review(database, export_folder, operator)
        database.set_meta("operator", operator)
        return JSONResponse({**summary, "folder": str(export_folder)})

    routes = [Route("/", guarded(overview)), Route("/ruling", guarded(ruling_page)),
              Route("/preview", guarded(preview)), Route("/export", guarded(export_page)),
              Route("/api/ruling", guarded(api_ruling)),
              *(Route(f"/api/{name}", guarded(handler), methods=["POST"]) for name, handler in
                (("decide", api_decide), ("add", api_add), ("edit", api_edit), ("undo", api_undo),
                 ("done", api_done), ("export", api_export))),
              Mount("/static", app=StaticFiles(directory=HERE / "static"), name="static")]
    return Starlette(routes=routes)


# No framing, no sniffing, no referrer to elsewhere, scripts and styles only from this server.
_HEADERS = {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
            "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                                       "frame-ancestors 'none'; form-action 'self'"}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=_HEADERS)


async def _body(request: Request) -> dict:
    try:
        body = json.loads(await request.body())
    except ValueError:
        raise ValueError("the request's body is not JSON") from None
    if not isinstance(body, dict):
        raise ValueError("the request's body is not a JSON object")
    return body


def _int(value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an integer, not {type(value).__name__}")
    return value


def _counts(spans) -> dict:
    counts = {"open": 0, "accepted": 0, "rejected": 0, "added": 0}
    for span in spans:
        counts[span.state] = counts.get(span.state, 0) + 1
        counts["added"] += span.origin == "added" and span.state != "removed"
    return counts


def _state(database: ReviewDatabase, ruling_id: str) -> JSONResponse:
    ruling = database.ruling(ruling_id)
    if ruling is None or ruling.error is not None:
        raise LookupError(f"no ruling {ruling_id!r} to review")
    spans = database.spans(ruling_id)
    return JSONResponse({"id": ruling.id, "version": ruling.version, "done": ruling.done,
                         "counts": _counts(spans), "spans": [s.to_dict() for s in spans]}, headers=_HEADERS)
