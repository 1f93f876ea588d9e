"""The page's files (`static_files.py`): read and gzipped once at start, named by a version
(a hash of their contents) that the page and the service worker use, cached for a year
under it; the plain names revalidated; nothing outside `coup/web`."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import httpx

from coup.server.static_files import YEAR, StaticFiles

WEB = Path(__file__).resolve().parents[2] / "coup" / "web"


def test_files_are_compressed_once_and_versioned_by_their_contents(tmp_path: Path) -> None:
    static = StaticFiles(WEB)
    app = static.files["js/app.js"]
    assert app.gzipped is not None and gzip.decompress(app.gzipped) == app.body
    assert len(app.gzipped) < len(app.body) / 2
    assert static.files["icons/icon-192.png"].gzipped is None  # already compressed
    assert re.fullmatch(r"[0-9a-f]{12}", static.version)
    page = static.files["index.html"].body.decode()
    assert f'src="/static/v/{static.version}/js/app.js"' in page and '"/static/js' not in page
    worker = static.files["sw.js"].body.decode()
    assert f'"/static/v/{static.version}/js/app.js"' in worker
    assert f'"coup-static-{static.version}"' in worker
    assert StaticFiles(WEB).version == static.version  # the same files, the same version
    # the page carries its own stylesheet, and preloads the first screen's modules only
    assert (WEB / "css" / "coup.css").read_text() in page
    for other in ("table.css", "tutorial.css", "review.css"):  # linked by the screens' code
        assert (WEB / "css" / other).read_text() not in page and f"css/{other}" not in page
    assert '<link rel="stylesheet"' not in page
    preloaded = set(re.findall(r'rel="modulepreload" href="/static/v/\w+/(js/[\w-]+\.js)"', page))
    assert {"js/app.js", "js/home.js", "js/i18n.js", "js/settings.js"} <= preloaded
    # the other screens' code, and what the first screen does without (keyboard play, the
    # bots' seats, the speaker, the tutorials' progress), come after it
    later = {"table", "lobby", "replay", "tutorial", "keys", "names", "sound", "lessons"}
    assert not {f"js/{name}.js" for name in later} & preloaded
    copy = tmp_path / "web"
    copy.mkdir()
    for name in ("index.html", "sw.js"):
        (copy / name).write_bytes((WEB / name).read_bytes())
    before = StaticFiles(copy).version
    (copy / "sw.js").write_text("// changed\n")
    assert StaticFiles(copy).version != before


async def test_versioned_files_are_cached_for_a_year_and_gzipped(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        page = await http.get("/", headers={"accept-encoding": "gzip"})
        assert (
            page.headers["content-encoding"] == "gzip"
            and page.headers["cache-control"] == "no-cache"
        )
        assert '<meta name="description"' in page.text
        script = re.search(r'src="(/static/v/[0-9a-f]{12}/js/app\.js)"', page.text)
        assert script is not None
        r = await http.get(script.group(1), headers={"accept-encoding": "gzip, br"})
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
        assert r.headers["cache-control"] == f"public, max-age={YEAR}, immutable"
        assert r.content == (WEB / "js" / "app.js").read_bytes()  # httpx un-gzips it
        assert r.headers["content-type"].startswith("text/javascript")
        plain = await http.get("/static/js/app.js", headers={"accept-encoding": "identity"})
        assert (
            "content-encoding" not in plain.headers and plain.headers["cache-control"] == "no-cache"
        )
        catalog = await http.get(script.group(1).replace("js/app.js", "i18n/fa.json"))
        assert catalog.status_code == 200 and "no-store" not in catalog.headers["cache-control"]
        for missing in (
            "/static/nope.js",
            "/static/%2e%2e/server/app.py",
            "/static/v/x/nope.css",
        ):
            assert (await http.get(missing)).status_code == 404, missing
