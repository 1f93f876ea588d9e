"""The page's files (`coup/web`), read once when the server starts: each kept in memory
as it is and gzipped (the text files, when that is smaller), and all of them named by one
version, a hash of their contents.

- `/static/v/{version}/{path}`: a file of this version, cached by browsers for a year
  (`immutable`): a new version has a new URL. The page's own references and the service
  worker's list name these URLs (rewritten from `/static/` when served); the scripts'
  imports and the catalogs are relative to them, so they follow.
- `/static/{path}`: the same files under their plain names, revalidated on each use.
- The page (`index.html`) and the service worker (`sw.js`), rewritten for the version;
  the page preloads the modules the first screen needs, the ones `js/app.js` imports
  (one round trip for all, not one per level of imports; the other screens' code loads
  when they are first shown), and carries the stylesheets it links inside it (the
  home's look, `css/coup.css`): the first paint waits for the page alone, not for another
  round trip. The page's CSP allows exactly those styles, by their hashes
  (`style_sources`, read by `headers.py`). The other screens' stylesheets are linked by
  their code when it loads, as files of the version.

Compressed once here, not per request: a request that accepts gzip gets the kept bytes.
Editing a file under `coup/web` shows after a restart.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

#: How long browsers keep a versioned file.
YEAR = 365 * 24 * 3600
TEXT = {".js", ".css", ".json", ".html", ".svg", ".webmanifest", ".txt"}
#: A module's static import of another (`import { a } from "./b.js";`).
IMPORT = re.compile(r'^import [^;]*? from "\./([\w-]+\.js)";', re.MULTILINE)
#: A stylesheet the page links (one whose `media` is not given: it holds up the first paint).
LINKED_CSS = re.compile(r'<link rel="stylesheet" href="/static/(css/[\w.-]+\.css)">')
TYPES = {
    ".js": "text/javascript",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
}


@dataclass(frozen=True)
class File:
    body: bytes
    gzipped: bytes | None
    media_type: str


def _file(name: str, body: bytes) -> File:
    suffix = Path(name).suffix
    media = TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
    if suffix in TEXT and not media.endswith("charset=utf-8"):
        media += "; charset=utf-8" if media.startswith("text/") else ""
    gzipped = gzip.compress(body, 9, mtime=0) if suffix in TEXT else None
    if gzipped is not None and len(gzipped) >= len(body):
        gzipped = None
    return File(body, gzipped, media)


class StaticFiles:
    def __init__(self, web: Path) -> None:
        raw: dict[str, bytes] = {}
        if web.is_dir():
            for path in sorted(p for p in web.rglob("*") if p.is_file()):
                raw[path.relative_to(web).as_posix()] = path.read_bytes()
        digest = hashlib.sha256()
        for name, body in raw.items():
            digest.update(name.encode() + b"\0" + hashlib.sha256(body).digest())
        self.version = digest.hexdigest()[:12]
        self.prefix = f"/static/v/{self.version}/"
        self.raw = raw
        self.modules = self.imported("js/app.js")
        #: The CSP sources of the styles the page carries (`'sha256-…'`).
        self.style_sources: list[str] = []
        self.files = {name: _file(name, self.versioned(body, name)) for name, body in raw.items()}

    def versioned(self, body: bytes, name: str) -> bytes:
        """The page, the manifest and the service worker name the versioned URLs."""
        if name not in ("index.html", "sw.js", "manifest.webmanifest"):
            return body
        text = body.decode("utf-8")
        if name == "index.html":
            text = LINKED_CSS.sub(self.inlined, text)
        text = text.replace('"/static/', f'"{self.prefix}')
        if name == "index.html":  # the first screen's modules fetched at once, not level by level
            # ("low": a module never holds up the first paint, it runs after the page is
            # parsed; so the page's own text and styles go first on a slow link)
            preload = "".join(
                f'  <link rel="modulepreload" href="{self.prefix}{module}" fetchpriority="low">\n'
                for module in self.modules
            )  # and English's catalog, which every language falls back on
            catalog = f"{self.prefix}i18n/en.json"
            preload += f'  <link rel="preload" href="{catalog}" as="fetch" crossorigin>\n'
            # and the settings the app asks first, while its modules load
            preload += '  <link rel="preload" href="/api/config" as="fetch" crossorigin>\n'
            text = text.replace('  <script type="module"', preload + '  <script type="module"', 1)
        if name == "sw.js":
            text = text.replace('"coup-static-v1"', f'"coup-static-{self.version}"')
        return text.encode("utf-8")

    def imported(self, first: str) -> list[str]:
        """`first` and the modules it imports, directly or not (not those it loads later)."""
        seen: list[str] = []
        todo = [first] if first in self.raw else []
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.append(name)
            text = self.raw[name].decode("utf-8")
            todo += [f"js/{m}" for m in IMPORT.findall(text) if f"js/{m}" in self.raw]
        return sorted(seen)

    def inlined(self, link: re.Match[str]) -> str:
        """The stylesheet `link` names as a `<style>` element, its hash among
        `style_sources` (the link as it is if there is no such file)."""
        name = link.group(1)
        if name not in self.raw:
            return link.group(0)
        css = self.raw[name].decode("utf-8")
        if "</" in css:  # it would end the element early
            raise ValueError(f"{name}: '</' cannot be carried inside the page")
        digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode()
        self.style_sources.append(f"'sha256-{digest}'")
        return f"<style>{css}</style>"

    def page(self) -> File | None:
        return self.files.get("index.html")

    def answer(self, request: Request, file: File, cache: str) -> Response:
        """`file`, gzipped when the request accepts it."""
        headers = {"Cache-Control": cache, "Vary": "Accept-Encoding"}
        body = file.body
        if file.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            body, headers["Content-Encoding"] = file.gzipped, "gzip"
        return Response(body, media_type=file.media_type, headers=headers)

    async def versioned_file(self, request: Request) -> Response:
        file = self.files.get(request.path_params["path"])
        if file is None:
            return Response("not found", 404, media_type="text/plain")
        if request.path_params["version"] != self.version:  # an older page's: not for long
            return self.answer(request, file, "no-cache")
        return self.answer(request, file, f"public, max-age={YEAR}, immutable")

    async def plain_file(self, request: Request) -> Response:
        file = self.files.get(request.path_params["path"])
        if file is None:
            return Response("not found", 404, media_type="text/plain")
        return self.answer(request, file, "no-cache")
