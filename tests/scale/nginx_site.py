"""docs/deploy.md's nginx block as a test runs it: read from the page, the certificate's
paths pointed at a self-signed one (what `nginx -t` checks "as copied"), and, to run it,
the ports and nginx's own files moved into a temporary folder."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
CERTIFICATE = "/etc/letsencrypt/live/coup.example.org/fullchain.pem"
KEY = "/etc/letsencrypt/live/coup.example.org/privkey.pem"


def binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(p)), None
    )


def documented() -> str:
    """The page's one nginx block, as written."""
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.DOTALL)
    assert len(blocks) == 1, "docs/deploy.md should have one nginx block, the whole site"
    return str(blocks[0])


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost (openssl)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def with_certificate(block: str, cert: Path, key: Path) -> str:
    assert CERTIFICATE in block and KEY in block
    return block.replace(CERTIFICATE, str(cert)).replace(KEY, str(key))


def main_config(folder: Path, site: str) -> Path:
    """An nginx.conf as Debian's, in miniature: `http { }` around the site's file, nginx's
    pid, logs and temporary files in `folder`."""
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / name).mkdir(exist_ok=True)
        os.chmod(folder / name, 0o777)
    (folder / "coup.conf").write_text(site)
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf = folder / "nginx.conf"
    conf.write_text(
        f"""{user}worker_processes 2;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    log_format timing '$time_iso8601 "$request" $status $request_time '
                      '$upstream_addr $upstream_connect_time $upstream_header_time';
    access_log {folder}/access.log timing;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/coup.conf;
}}
"""
    )
    return conf


def check(folder: Path, site: str) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on `site`."""
    nginx = binary()
    assert nginx is not None
    conf = main_config(folder, site)
    return subprocess.run(
        [nginx, "-t", "-p", str(folder), "-c", str(conf)],
        check=False,
        capture_output=True,
        text=True,
    )


def on_ports(block: str, backends: list[int], https: int, http: int) -> str:
    """The block with the processes on `backends`, listening on loopback ports."""
    site = block
    for documented_port, port in zip((8001, 8002), backends, strict=True):
        site = site.replace(f"127.0.0.1:{documented_port}", f"127.0.0.1:{port}")
    site = re.sub(r"^\s*listen \[::\].*\n", "", site, flags=re.MULTILINE)
    site = site.replace("listen 443 ssl", f"listen 127.0.0.1:{https} ssl")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{http};")
    return site


class Nginx:
    """nginx running a site from `folder` (stopped by `stop`)."""

    def __init__(self, folder: Path, site: str) -> None:
        self.folder = folder
        self.conf = main_config(folder, site)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Nginx:
        nginx = binary()
        assert nginx is not None
        self.proc = subprocess.Popen(
            [nginx, "-p", str(self.folder), "-c", str(self.conf), "-g", "daemon off;"],
            stderr=(self.folder / "stderr.log").open("ab"),
        )
        for _ in range(100):
            if (self.folder / "nginx.pid").exists():
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError((self.folder / "error.log").read_text(errors="replace"))

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def access_log(self) -> str:
        path = self.folder / "access.log"
        return path.read_text(errors="replace") if path.exists() else ""
