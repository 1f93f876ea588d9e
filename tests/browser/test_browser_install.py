"""Installing and inviting: the web manifest and its icons, the service worker (static
files only, an offline screen), and the table link's QR code, decoded."""

from __future__ import annotations

import io
from typing import Any

import pytest
from browser_driver import create_table

pytestmark = pytest.mark.browser


def test_manifest_service_worker_and_offline_screen(browser: Any, server: str) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#home-name")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.request.get(server + href).json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        got = page.request.get(server + icon["src"])
        assert got.ok and got.headers["content-type"].startswith("image/"), icon["src"]

    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == server + "/"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10000)
    cached = page.evaluate(
        """async () => {
          const keys = [];
          for (const name of await caches.keys()) {
            for (const req of await (await caches.open(name)).keys()) keys.push(new URL(req.url).pathname);
          }
          return keys;
        }"""
    )
    # the versioned names the page itself uses (coup/server/static_files.py)
    script = page.locator('script[type="module"]').get_attribute("src") or ""
    assert script.startswith("/static/v/") and script.endswith("/js/app.js")
    assert script in cached and "/" in cached
    assert not [k for k in cached if k.startswith(("/api/", "/ws/", "/t/"))]

    context.set_offline(True)
    page.reload()
    page.wait_for_selector("#offline-retry", timeout=10000)
    assert "offline" in page.locator("h1").inner_text().lower()
    context.close()


def test_service_worker_covers_every_static_file() -> None:
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "coup" / "web"
    worker = (web / "sw.js").read_text(encoding="utf-8")
    for folder, pattern in (("js", "*.js"), ("css", "*.css"), ("i18n", "*.json")):
        for path in (web / folder).glob(pattern):
            assert f'"/static/{folder}/{path.name}"' in worker, f"sw.js does not keep {path.name}"


def test_qr_code_is_the_table_link(browser: Any, server: str) -> None:
    import zxingcpp
    from PIL import Image

    page = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
    url = create_table(page, server, "Mahshid", seats=3)
    page.click(".qr summary")
    page.wait_for_function("() => document.getElementById('qr-code').naturalWidth > 0")
    shot = page.locator("#qr-code").screenshot()
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)))
    assert [code.text for code in found] == [url]

    svg = page.request.get(url.replace("/t/", "/api/tables/") + "/qr.svg")
    assert svg.ok and svg.headers["content-type"].startswith("image/svg+xml")
    missing = page.request.get(server + "/api/tables/nosuchtable000000000/qr.svg")
    assert missing.status == 404 and missing.json()["error"]["code"] == "no_table"
    page.context.close()
