"""The table's invitation as a QR code: an SVG of the table link (drawn by `segno`)."""

from __future__ import annotations

import io

import segno


def table_link(base_url: str, table_id: str) -> str:
    """The link a friend opens: the site's address as the request saw it, then /t/{table}."""
    return f"{base_url.rstrip('/')}/t/{table_id}"


def qr_svg(link: str) -> bytes:
    """A QR code of `link` as a standalone SVG (black on white, with a quiet zone)."""
    code = segno.make_qr(link, error="m")
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        border=4,
        dark="#000",
        light="#fff",
        xmldecl=False,
        omitsize=True,  # a viewBox and no fixed size: it scales to the box it is shown in
        title="QR code of the table link",
    )
    return out.getvalue()
