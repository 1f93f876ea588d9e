"""Passkeys (WebAuthn) for profiles, with the `webauthn` library: the relying party, the
registration ceremony (a new profile, or another device's passkey for one) and the
sign-in ceremony (a discoverable credential: no name typed).

The relying party is the site the public URL names (`coup serve --public-url`; without
one, the site the request names): its host is the RP id, its scheme and host the origin
a browser must answer from. WebAuthn refuses an IP address as RP id, so at `127.0.0.1`
profiles answer `no_profiles_here` with the `localhost` address to open instead (the
table itself works at any address).

Each ceremony's challenge is kept in the store until it is answered, once
(`store.profiles.Profiles.take_challenge`), for two minutes at most.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from coup.server.protocol import ProtocolError

#: How long a ceremony's challenge may be answered (ms).
CHALLENGE_MS = 120_000
RP_NAME = "Coup"
#: What a refused answer raises: the library's errors, and an answer of the wrong shape.
REFUSED = (WebAuthnException, ValueError, TypeError, KeyError, AttributeError)


@dataclass(frozen=True)
class Party:
    """The relying party: WebAuthn's RP id (a host name) and the origin it expects."""

    rp_id: str
    origin: str

    @property
    def secure(self) -> bool:
        return self.origin.startswith("https://")


def named(origin: str) -> str:
    """The address to open for profiles instead of an IP address: `localhost`."""
    parts = urlsplit(origin)
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://localhost{port}"


def party(origin: str) -> Party:
    """The relying party of a site's origin; `no_profiles_here` at an IP address."""
    parts = urlsplit(origin)
    host = parts.hostname or ""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return Party(host, origin)
    raise ProtocolError(
        "no_profiles_here",
        f"passkeys need the site's name, not an address: open {named(origin)} (or the "
        "server's public URL) for profiles; the table works here as it is",
        400,
    )


def _options(opts: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(options_to_json(opts))
    return out


def registration(
    rp: Party, name: str, user_handle: str, exclude: Sequence[str] = ()
) -> tuple[str, dict[str, Any]]:
    """A registration ceremony's challenge (base64url) and the options for the page."""
    opts = generate_registration_options(
        rp_id=rp.rp_id,
        rp_name=RP_NAME,
        user_name=name,
        user_display_name=name,
        user_id=bytes.fromhex(user_handle),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in exclude
        ],
    )
    return bytes_to_base64url(opts.challenge), _options(opts)


def signin(rp: Party) -> tuple[str, dict[str, Any]]:
    """A sign-in ceremony's challenge and options (any of this site's passkeys)."""
    opts = generate_authentication_options(
        rp_id=rp.rp_id, user_verification=UserVerificationRequirement.PREFERRED
    )
    return bytes_to_base64url(opts.challenge), _options(opts)


def new_user_handle() -> str:
    return secrets.token_hex(32)


def registered(rp: Party, challenge: str, credential: Any) -> dict[str, Any]:
    """The new passkey of a registration answer: {"id", "public_key", "sign_count"}
    (base64url); `passkey_refused` if the answer does not hold."""
    try:
        v = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp.rp_id,
            expected_origin=rp.origin,
        )
    except REFUSED as exc:  # the library's own errors, and malformed answers
        raise ProtocolError(
            "passkey_refused", f"the passkey was not accepted: {exc}"[:200]
        ) from None
    return {
        "id": bytes_to_base64url(v.credential_id),
        "public_key": bytes_to_base64url(v.credential_public_key),
        "sign_count": int(v.sign_count),
    }


def credential_id(credential: Any) -> str:
    """The credential id a sign-in answer names."""
    if not isinstance(credential, dict) or not isinstance(credential.get("id"), str):
        raise ProtocolError("passkey_refused", "the answer names no passkey")
    return str(credential["id"])[:1400]


def signed(rp: Party, challenge: str, credential: Any, stored: dict[str, Any]) -> int:
    """A sign-in answer checked against the stored passkey; returns its new counter."""
    try:
        v = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp.rp_id,
            expected_origin=rp.origin,
            credential_public_key=base64url_to_bytes(stored["public_key"]),
            credential_current_sign_count=int(stored["sign_count"]),
        )
    except REFUSED as exc:
        raise ProtocolError(
            "passkey_refused", f"the passkey was not accepted: {exc}"[:200]
        ) from None
    return int(v.new_sign_count)
