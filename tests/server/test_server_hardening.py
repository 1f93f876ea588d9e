"""The answers' headers (a strict CSP on every page, /static/index.html too; no-store on
JSON), POSTs only as application/json, and requests from another site refused: POSTs
and websockets whose `Origin` is not this site's (docs/deploy.md, *Security*)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from coup.server.headers import csp
from coup.server.origin import public_origin
from tools.load.client import create_table

JSON = {"content-type": "application/json"}


async def test_pages_carry_a_strict_policy_and_json_is_never_stored(base: str) -> None:
    made = await create_table(base, "Mahshid", None)
    async with httpx.AsyncClient(base_url=base) as http:
        for path in ("/", f"/t/{made['table']}", "/replay", "/static/index.html"):
            r = await http.get(path)
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
            # the page's own stylesheet, inside it: allowed by its hash, nothing else (the
            # other screens' are files of this site, linked by their code)
            styles = re.findall(r"<style>(.*?)</style>", r.text, re.DOTALL)
            assert len(styles) == 1 and ".tagline" in styles[0], path
            hashes = [hashlib.sha256(style.encode()).digest() for style in styles]
            sources = [f"'sha256-{base64.b64encode(h).decode()}'" for h in hashes]
            policy = r.headers["content-security-policy"]
            assert policy == csp(sources), path
            assert "frame-ancestors 'none'" in policy and "'unsafe-inline'" not in policy
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["cross-origin-opener-policy"] == "same-origin"
            assert "camera=()" in r.headers["permissions-policy"]
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "no-referrer"
            assert "<script>" not in r.text and " style=" not in r.text
        r = await http.post("/api/tables", json={"name": "Sepideh"})
        assert r.status_code == 201 and "token" in r.json()
        assert r.headers["cache-control"] == "no-store"
        assert r.headers["x-content-type-options"] == "nosniff"
        r = await http.get(f"/api/tables/{made['table']}")
        assert r.headers["cache-control"] == "no-store"


async def test_posts_are_json_only(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            r = await http.post(
                "/api/tables", content=b'{"name": "A"}', headers={"content-type": kind}
            )
            assert r.status_code == 415 and r.json()["error"]["code"] == "bad_content_type"
        r = await http.post("/api/tables", content=b'{"name": "A"}')
        assert r.status_code == 415
        r = await http.post(
            "/api/tables", content=b'{"name": "A"}',
            headers={"content-type": "application/json; charset=utf-8"},
        )  # fmt: skip
        assert r.status_code == 201


async def test_requests_from_another_site_are_refused(base: str) -> None:
    made = await create_table(base, "Mahshid", None)
    host = base.removeprefix("http://")
    async with httpx.AsyncClient(base_url=base) as http:
        evil = {**JSON, "origin": "https://evil.example"}
        r = await http.post("/api/tables", content=b'{"name": "A"}', headers=evil)
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"
        r = await http.post(
            f"/api/tables/{made['table']}/seats", content=b'{"name": "B"}', headers=evil
        )
        assert r.status_code == 403
        ours = {**JSON, "origin": f"http://{host}"}
        r = await http.post("/api/tables", content=b'{"name": "A"}', headers=ours)
        assert r.status_code == 201
        r = await http.get(
            f"/api/tables/{made['table']}", headers={"origin": "https://evil.example"}
        )
        assert r.status_code == 200  # a read changes nothing
    url = base.replace("http", "ws") + f"/ws/{made['table']}"
    with pytest.raises(websockets.InvalidStatus, match="403"):
        await websockets.connect(url, origin="https://evil.example")  # type: ignore[arg-type]
    async with websockets.connect(url, origin=f"http://{host}") as ws:  # type: ignore[arg-type]
        await ws.send('{"type": "hello"}')
        assert "view" in await ws.recv()


async def test_the_public_url_names_the_site(tmp_path: Path, server_process: Any) -> None:
    assert public_origin("https://Coup.Example.org/") == "https://coup.example.org"
    for bad in ("coup.example.org", "ftp://x", "https://x/coup", "https://x/?a=1"):
        with pytest.raises(ValueError):
            public_origin(bad)
    server = server_process(
        f"sqlite:///{tmp_path / 'coup.db'}", "--public-url", "https://coup.example.org"
    ).start()
    try:
        made = await create_table(server.base, "Mahshid", None)  # no Origin: a tool
        async with httpx.AsyncClient(base_url=server.base) as http:
            here = {**JSON, "origin": server.base}  # the request's own: not the public one
            r = await http.post("/api/tables", content=b'{"name": "A"}', headers=here)
            assert r.status_code == 403
            public = {**JSON, "origin": "https://coup.example.org"}
            r = await http.post("/api/tables", content=b'{"name": "A"}', headers=public)
            assert r.status_code == 201
            svg = (await http.get(f"/api/tables/{made['table']}/qr.svg")).text
            assert "<svg" in svg
    finally:
        server.stop()
