"""The server's VAPID identity (RFC 8292): the key that signs every push request, and its
public half, which browsers take as `applicationServerKey` when subscribing.

From the environment:
  VAPID_PRIVATE_KEY  a P-256 private key: PEM (PKCS#8 or SEC1; literal "\\n" accepted
                     for one-line variables), or base64url of the raw 32-byte secret
                     (what `vapid --gen` and the web-push tools print)
  VAPID_PUBLIC_KEY   optional; base64url of the uncompressed point (65 bytes). Derived
                     from the private key when unset; refused when it does not match
  VAPID_SUBJECT      mailto: (or https:) contact the push services may use

With no VAPID_PRIVATE_KEY (a laptop demo) a key is generated once into
VAR_DIR/vapid_private.pem, on first use rather than at settings import, so that
`./run` needs nothing configured and every process (web, workers) shares one key.
"""
from __future__ import annotations

import base64
import os
import secrets
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid

DEFAULT_SUBJECT = "mailto:organisers@example.org"
KEY_FILE = "vapid_private.pem"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _parse(raw: str) -> ec.EllipticCurvePrivateKey:
    try:
        if "-----BEGIN" in raw:
            key = serialization.load_pem_private_key(raw.replace("\\n", "\n").encode(), None)
        else:
            secret = b64url_decode(raw)
            key = (ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256R1())
                   if len(secret) == 32 else serialization.load_der_private_key(secret, None))
    except ValueError as exc:
        raise ImproperlyConfigured(f"VAPID_PRIVATE_KEY is not a P-256 private key: {exc}") from exc
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ImproperlyConfigured("VAPID_PRIVATE_KEY must be an EC key on the P-256 curve")
    return key


def _load_or_create(path: Path) -> ec.EllipticCurvePrivateKey:
    if not path.exists():
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption())
        # Written aside then hard-linked into place: the web server and a worker starting
        # together never read a half-written file, and the first key written wins.
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return serialization.load_pem_private_key(path.read_bytes(), None)


@lru_cache(maxsize=4)
def _private_key(raw: str, path: str) -> ec.EllipticCurvePrivateKey:
    return _parse(raw) if raw else _load_or_create(Path(path))


def private_key() -> ec.EllipticCurvePrivateKey:
    # Cached per configuration, so a test that changes VAR_DIR or the variables gets its own key.
    return _private_key(os.environ.get("VAPID_PRIVATE_KEY", "").strip(),
                        str(Path(settings.VAR_DIR) / KEY_FILE))


def public_key() -> str:
    """base64url of the uncompressed P-256 point: the browser's applicationServerKey."""
    derived = b64url(private_key().public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    configured = os.environ.get("VAPID_PUBLIC_KEY", "").strip().rstrip("=")
    if configured and configured != derived:
        # A mismatched pair makes every push service refuse every request: say so loudly.
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY")
    return derived


def subject() -> str:
    return os.environ.get("VAPID_SUBJECT", "").strip() or DEFAULT_SUBJECT


def vapid() -> Vapid:
    """The signer pywebpush takes (py_vapid's RFC 8292 `vapid t=...,k=...` scheme)."""
    public_key()  # refuse a mismatched pair before signing anything with it
    return Vapid(private_key=private_key())
