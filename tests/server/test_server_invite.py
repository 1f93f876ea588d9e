"""The invitation and the installable page: the table link as a QR code (SVG), and the
service worker served from the root."""

from __future__ import annotations

import httpx

from coup.server import invite
from tools.load.client import create_table


async def test_qr_code_of_the_table_link(base: str) -> None:
    made = await create_table(base, "Mahshid", {"seats": 3})
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.get(f"/api/tables/{made['table']}/qr.svg")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("image/svg+xml")
        # The link as the request reached the server: its scheme, host and port.
        assert r.content == invite.qr_svg(f"{base}/t/{made['table']}")
        assert b"viewBox" in r.content and b"<script" not in r.content
        missing = await http.get("/api/tables/nosuchtable0000000000/qr.svg")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_table"


def test_table_link() -> None:
    assert invite.table_link("https://coup.example/", "abc") == "https://coup.example/t/abc"
    assert invite.table_link("http://10.0.0.2:8000", "abc") == "http://10.0.0.2:8000/t/abc"


async def test_service_worker_from_the_root(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.get("/sw.js")
        assert r.status_code == 200 and "javascript" in r.headers["content-type"]
        assert r.headers["service-worker-allowed"] == "/"
        assert r.headers["cache-control"] == "no-cache"
        assert "/api/" in r.text and "caches" in r.text
        manifest = (await http.get("/static/manifest.webmanifest")).json()
        assert manifest["start_url"] == "/"
