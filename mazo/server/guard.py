"""What keeps hostile input and hostile pages out (issue 17; docs/protocol.md, "Limits and
hardening"): request bodies refused while they stream, JSON nesting bounded before it is
parsed, the browser's security headers, and the same-origin checks on POST and on the
socket handshake.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mazo.server.tables import RequestError

__all__ = [
    "MAX_DEPTH",
    "SECURITY_HEADERS",
    "SecurityHeaders",
    "check_depth",
    "cross_origin",
    "read_json_body",
]

MAX_DEPTH = 32  # levels of nested JSON arrays and objects in a message or a body

# Every HTTP answer carries these. The client loads its scripts, styles, images, fonts and
# dictionaries from this server only and opens its socket back to it; no inline script,
# no frames (a table cannot be framed for clickjacking), no referrer (a table's address
# leaves no trace on other sites; join tokens live in the fragment, never sent anyway).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self';"
    " font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none';"
    " form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response (pages, API, static
    files, errors), unless the app already set one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


_DEFAULT_PORTS = {"http": 80, "https": 443}


def cross_origin(headers: Any) -> str | None:
    """Why a request's ``Origin`` header names another site than its ``Host``; None when
    it matches or there is no ``Origin`` (scripts, curl; browsers send one on every
    cross-site POST and on every socket handshake). A port left out is the scheme's
    default on both sides. A reverse proxy must pass on the ``Host`` it was asked for
    (Caddy does; nginx: ``proxy_set_header Host $host``)."""
    origin = headers.get("origin")
    if origin is None:
        return None
    host = (headers.get("host") or "").lower()
    refused = (
        f"requests from pages of {origin!r} are not accepted here ({host or 'no Host'}):"
        " only this site's own pages may create tables, claim seats or open a table's socket"
    )
    try:
        o = urlsplit(origin.strip().lower())
        h = urlsplit("//" + host)
        default = _DEFAULT_PORTS.get(o.scheme)
        if default is None or not o.hostname:
            return refused
        same = o.hostname == h.hostname and (o.port or default) == (h.port or default)
    except ValueError:
        return refused
    return None if same else refused


def check_depth(text: str | bytes, what: str) -> None:
    """Refuse JSON that nests arrays and objects deeper than MAX_DEPTH (it would exhaust
    the parser's recursion), before it is parsed. Cheap: a message with at most
    MAX_DEPTH brackets cannot be deeper, and strings are skipped."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for token in _TOKENS.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise RequestError(
                    f"{what} nests JSON arrays and objects deeper than {MAX_DEPTH} levels"
                    f" (at most {MAX_DEPTH} are allowed)"
                )
        elif mark in "]}":
            depth -= 1


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def _is_json_type(value: str | None) -> bool:
    return (value or "").split(";")[0].strip().lower() == "application/json"


async def read_json_body(request: Request, limit: int) -> Any:
    """The JSON body of a POST, checked before anything is kept: from this site (the
    ``Origin``, when sent, matches the ``Host``), ``Content-Type: application/json`` (a
    cross-site form or ``text/plain`` POST cannot send that without the browser asking
    first), at most ``limit`` bytes (a ``Content-Length`` over it is refused before
    reading; the stream is counted as it comes and refused as soon as it passes the
    limit, whatever the header said), nested at most MAX_DEPTH levels."""
    why = cross_origin(request.headers)
    if why is not None:
        raise RequestError(why, status=403, code="bad_origin")
    if not _is_json_type(request.headers.get("content-type")):
        got = request.headers.get("content-type")
        raise RequestError(
            "the request body must be JSON sent with Content-Type: application/json"
            + (f", not {got!r}" if got else " (none was given)"),
            status=415,
        )
    too_big = RequestError(f"the request body is over {limit} bytes (at most {limit})", 413)
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise too_big
        except ValueError:
            raise RequestError(f"Content-Length {declared!r} is not a number") from None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_big  # the rest is never read: the connection is closed
        chunks.append(chunk)
    body = b"".join(chunks)
    check_depth(body, "the request body")
    try:
        return json.loads(body or b"{}")
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise RequestError(f"the request body is not JSON: {exc}") from exc
