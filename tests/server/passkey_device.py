"""A software passkey for the server tests: a P-256 key that answers WebAuthn's
registration ("none" attestation) and sign-in ceremonies as a browser would pass them
on (the JSON of `PublicKeyCredential.toJSON()`)."""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.encode_cbor import encode_cbor


def _b64(data: bytes) -> str:
    return bytes_to_base64url(data)


class Device:
    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(16)
        self.counter = 0
        self.user_handle: str | None = None

    def _client(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin,
                "crossOrigin": False}  # fmt: skip
        return json.dumps(data).encode()

    def _cose(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return encode_cbor(
            {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
             -3: numbers.y.to_bytes(32, "big")}
        )  # fmt: skip

    def create(self, options: dict[str, Any], *, origin: str | None = None) -> dict[str, Any]:
        """The answer to `navigator.credentials.create({publicKey: options})`."""
        rp_hash = hashlib.sha256(options["rp"]["id"].encode()).digest()
        self.user_handle = options["user"]["id"]
        auth = (
            rp_hash + bytes([0x45]) + struct.pack(">I", self.counter) + bytes(16)
            + struct.pack(">H", len(self.credential_id)) + self.credential_id + self._cose()
        )  # fmt: skip
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth})
        client = self._client("webauthn.create", options["challenge"], origin)
        return {
            "id": _b64(self.credential_id),
            "rawId": _b64(self.credential_id),
            "type": "public-key",
            "response": {"clientDataJSON": _b64(client), "attestationObject": _b64(attestation)},
        }

    def get(
        self, options: dict[str, Any], *, counter: int | None = None, origin: str | None = None
    ) -> dict[str, Any]:
        """The answer to `navigator.credentials.get({publicKey: options})`."""
        self.counter = self.counter + 1 if counter is None else counter
        rp_hash = hashlib.sha256(options["rpId"].encode()).digest()
        auth = rp_hash + bytes([0x05]) + struct.pack(">I", self.counter)
        client = self._client("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": _b64(self.credential_id),
            "rawId": _b64(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": _b64(client),
                "authenticatorData": _b64(auth),
                "signature": _b64(signature),
                "userHandle": self.user_handle,
            },
        }
