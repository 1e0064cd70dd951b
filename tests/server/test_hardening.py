"""Issue 17, items 1, 8 and 10: bodies refused while they stream, JSON nesting bounded,
the browser's security headers, same-origin checks, and names without zalgo."""

from __future__ import annotations

import asyncio
import contextlib
import json
import select
import socket
import time
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mazo.server.app import MAX_BODY, MAX_MESSAGE, create_app
from mazo.server.tables import RequestError, check_name

from .browser_fixtures import serve_process
from .harness import new_table, running_server

JSON_TYPE = {"Content-Type": "application/json"}
DEEP = "[" * 2048  # 2 KB of "[": past the parser's recursion limit


# -- item 1: a big body is refused while it streams, never buffered -------------------


def post_stream(
    db: Path, chunk: int, chunks: int, headers: list[tuple[bytes, bytes]]
) -> tuple[int, int, dict[str, Any]]:
    """POST /api/tables straight into the ASGI app, the body coming in ``chunks`` pieces
    of ``chunk`` bytes: (status, bytes the app pulled from the stream, the answer)."""
    app = create_app(db, bot_delay=0, bot_processes=False)
    pulled = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        if pulled >= chunk * chunks:
            return {"type": "http.disconnect"}
        pulled += chunk
        return {"type": "http.request", "body": b" " * chunk, "more_body": pulled < chunk * chunks}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/tables",
        "raw_path": b"/api/tables",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    start = sent[0]
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], pulled, {"headers": dict(start["headers"]), **json.loads(body)}


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param([], id="chunked, no Content-Length"),
        pytest.param([(b"content-length", b"100")], id="a lying Content-Length"),
    ],
)
def test_a_huge_body_is_refused_after_the_limit_without_reading_the_rest(
    db: Path, headers: list[tuple[bytes, bytes]]
) -> None:
    chunk = 4096
    status, pulled, answer = post_stream(db, chunk, 2048, headers)  # 8 MB
    assert status == 413, answer
    assert f"over {MAX_BODY} bytes" in answer["error"]
    # It stopped at the first chunk past the limit: 8 MB were offered, ~16 KB taken.
    assert pulled <= MAX_BODY + chunk, pulled
    assert answer["headers"][b"connection"] == b"close"  # the rest is never read


def test_a_declared_length_over_the_limit_is_refused_before_reading(db: Path) -> None:
    status, pulled, answer = post_stream(db, 4096, 2048, [(b"content-length", b"8388608")])
    assert status == 413 and pulled == 0, (status, pulled)
    assert f"at most {MAX_BODY}" in answer["error"]


def test_a_real_server_answers_413_while_the_client_is_still_sending(db: Path) -> None:
    """Over a socket: a 64 MB chunked upload gets its 413 (and the connection closes)
    long before the client could finish sending it."""
    with running_server(db) as address:
        host, port = address.split(":")
        sock = socket.create_connection((host, int(port)), timeout=10)
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: " + address.encode() + b"\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        piece = b"10000\r\n" + b" " * 0x10000 + b"\r\n"  # 64 KB chunks
        sent, answer = 0, b""
        sock.setblocking(False)
        deadline = time.monotonic() + 30
        while sent < 64 * 2**20 and time.monotonic() < deadline:
            readable, writable, _ = select.select([sock], [sock], [], 0.5)
            if readable:
                answer = sock.recv(65536)
                break
            if writable:
                try:
                    sent += sock.send(piece)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    break  # the server closed: its answer is waiting
        if not answer:  # the server closed on us mid-send, or the time ran out
            sock.setblocking(True)
            sock.settimeout(10)
            with contextlib.suppress(OSError):
                answer = sock.recv(65536)
        sock.close()
    assert answer.startswith(b"HTTP/1.1 413"), (answer[:200], sent)
    assert sent < 48 * 2**20, sent  # refused well before the end of the body


def peak_mb(pid: int) -> int:
    """A process's peak resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no VmHWM")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_a_64_mb_upload_leaves_the_servers_peak_memory_alone(tmp_path: Path) -> None:
    """`mazo serve` in its own process: its peak memory before and after a 64 MB chunked
    POST (the old server held it all, and more: it peaked at twice the body)."""
    with serve_process(tmp_path / "t.sqlite3") as (url, pid):
        before = peak_mb(pid)
        host, port = url.removeprefix("http://").split(":")
        sock = socket.create_connection((host, int(port)), timeout=30)
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: " + f"{host}:{port}".encode() + b"\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        piece = b"100000\r\n" + b" " * 0x100000 + b"\r\n"  # 1 MB chunks
        with contextlib.suppress(OSError):  # the server closes once it has answered
            for _ in range(64):
                sock.sendall(piece)
            sock.sendall(b"0\r\n\r\n")
        with contextlib.suppress(OSError):
            assert sock.recv(100).startswith(b"HTTP/1.1 413")
        sock.close()
        time.sleep(0.3)
        after = peak_mb(pid)
    assert after - before < 16, (before, after)


# -- item 8: nested JSON is refused before parsing ---------------------------------


def test_deep_json_on_the_socket_gets_bad_message_and_the_socket_stays(client: TestClient) -> None:
    table = new_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    token = table["seats"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        deep_act = '{"type": "act", "version": 0, "action": ' + "[" * 1000 + "]" * 1000 + "}"
        for text in (DEEP, "{" * 2000, deep_act):
            assert len(text.encode()) <= MAX_MESSAGE
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == "bad_message", reply
            assert "deeper than 32 levels" in reply["message"]
        # Brackets inside strings are text, not nesting.
        ws.send_json({"type": "name", "name": "[" * 39})
        assert ws.receive_json()["type"] == "seats"  # the new name, as a delta
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_deep_json_in_a_body_gets_400(client: TestClient) -> None:
    before = client.get("/api/tables").json()
    for body in (DEEP, '{"game": "briscola", "options": ' + "[" * 3000 + "}"):
        r = client.post("/api/tables", content=body, headers=JSON_TYPE)
        assert r.status_code == 400, r.text
        assert "deeper than 32 levels" in r.json()["error"]
    table = new_table(client, public=True, seats=[{"kind": "human"}, {"kind": "human"}])
    r = client.post(f"/api/tables/{table['id']}/seats/1/claim", content=DEEP, headers=JSON_TYPE)
    assert r.status_code == 400 and "deeper than" in r.json()["error"]
    assert len(client.get("/api/tables").json()["tables"]) == len(before["tables"]) + 1


# -- item 10: security headers, same-origin POST and socket, names -------------------


def test_every_http_answer_carries_the_security_headers(client: TestClient) -> None:
    table = new_table(client)
    paths = [
        "/",
        f"/table/{table['id']}",
        f"/replay/{table['id']}",
        "/rules/briscola",
        "/api/games",
        "/api/tables",
        f"/api/tables/{table['id']}",
        "/api/tables/nope",  # a 404
        "/static/js/lobby.js",
        "/static/css/mazo.css",
        "/static/nope.js",  # a 404 from the static files
    ]
    for path in paths:
        r = client.get(path)
        h = r.headers
        csp = h["content-security-policy"]
        assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp, path
        assert "connect-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert h["x-frame-options"] == "DENY", path
        assert h["x-content-type-options"] == "nosniff", path
        assert h["referrer-policy"] == "no-referrer", path
    r = client.post("/api/tables", content="{}", headers={"Content-Type": "text/plain"})
    assert r.headers["x-frame-options"] == "DENY"


def test_a_server_error_is_json_with_the_security_headers(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug answers 500 from outside the middleware: it still carries the headers."""
    app = create_app(db, bot_delay=0, bot_processes=False)

    async def broken(body: object) -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as c:
        app.state.manager.create = broken  # type: ignore[attr-defined]
        r = c.post("/api/tables", json={"game": "briscola"})
    assert r.status_code == 500 and r.json() == {"error": "the server failed; it is logged"}
    assert r.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert "POST /api/tables failed" in caplog.text and "a bug" in caplog.text


def test_a_text_plain_post_creates_nothing_and_says_why(client: TestClient) -> None:
    body = json.dumps({"game": "briscola", "public": True, "settings": {"turn_timer": 60}})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"Content-Type": content_type} if content_type else {}
        r = client.post("/api/tables", content=body, headers=headers)
        assert r.status_code == 415, r.text
        assert "Content-Type: application/json" in r.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []
    ok = client.post(
        "/api/tables", content=body, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert ok.status_code == 201, ok.text


def test_a_post_from_another_site_is_refused(client: TestClient) -> None:
    body = {"game": "briscola"}
    for origin in ("http://evil.example", "null", "http://testserver.evil.example", "ftp://x"):
        r = client.post("/api/tables", json=body, headers={"Origin": origin})
        assert r.status_code == 403, (origin, r.text)
        assert "only this site's own pages" in r.json()["error"]
    table = new_table(client, public=True, seats=[{"kind": "human"}, {"kind": "human"}])
    claim = f"/api/tables/{table['id']}/seats/1/claim"
    r = client.post(claim, json={"name": "Eve"}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    assert len(client.get("/api/tables").json()["tables"]) == 1
    # The site's own pages (the Origin matches the Host, default ports too) may.
    for origin in ("http://testserver", "http://testserver:80"):
        r = client.post("/api/tables", json=body, headers={"Origin": origin})
        assert r.status_code == 201, (origin, r.text)
    r = client.post(claim, json={"name": "Luis"}, headers={"Origin": "http://testserver"})
    assert r.status_code == 200, r.text


def test_a_socket_from_another_site_is_closed_with_a_reason(client: TestClient) -> None:
    table = new_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    token = table["seats"][0]["token"]
    url = f"/ws/tables/{table['id']}?token={token}"
    with client.websocket_connect(url, headers={"Origin": "http://evil.example"}) as ws:
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad_origin", reply
        assert "only this site's own pages" in reply["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(url, headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"
    with client.websocket_connect(url) as ws:  # scripts send no Origin
        assert ws.receive_json()["type"] == "state"


ZALGO = "Z\u0335\u0322\u031ba\u0335l\u0337g\u0336o\u0338\u0300\u0301\u0302"


def test_names_are_nfc_and_bound_their_combining_marks() -> None:
    assert check_name("Jose\u0301") == "Jos\u00e9"  # NFC: one character, not two
    assert unicodedata.is_normalized("NFC", check_name("Zoe\u0308 Mu\u0308ller"))
    assert check_name("Nguye\u0302\u0303n") == "Nguy\u1ec5n"  # two marks compose
    assert (
        check_name("\u0939\u093f\u0928\u094d\u0926\u0940") == "\u0939\u093f\u0928\u094d\u0926\u0940"
    )
    with pytest.raises(RequestError) as refused:
        check_name(ZALGO)
    assert "at most 2 combining marks" in refused.value.message
    assert check_name("x\u0301\u0301") == "x\u0301\u0301"  # two marks are fine
    for stacked in ("x" + "\u0301" * 3, "a" + "\u0301" * 4):  # a + U+0301 composes to á
        with pytest.raises(RequestError):
            check_name(stacked)


def test_zalgo_names_are_refused_on_every_path(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={
            "game": "briscola",
            "players": 2,
            "seats": [{"kind": "human", "name": ZALGO}, {"kind": "bot"}],
        },
    )
    assert r.status_code == 400 and "combining marks" in r.json()["error"]
    table = new_table(client, seats=[{"kind": "human", "name": "Jose\u0301"}, {"kind": "bot"}])
    assert table["seats"][0]["name"] == "Jos\u00e9"
    token = table["seats"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "name", "name": ZALGO})
        while (reply := ws.receive_json())["type"] == "state":
            pass
        assert reply["code"] == "bad_message" and "combining marks" in reply["message"]
