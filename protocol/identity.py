"""Who a peer is: an Ed25519 identity key kept in the user's config directory.

The key's fingerprint, shown as a short code, is what people compare and what an
invite code pins. The TLS certificate each peer presents is self-signed with
this key, so pinning the certificate's key pins the identity.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InternalError, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.utils import CryptographyDeprecationWarning
from cryptography.x509.oid import NameOID

from protocol.errors import LocalProtocolError

KEY_FILE = "identity.pem"
# Ours are under 300 bytes; a peer's certificate is refused over this before it is parsed.
MAX_CERTIFICATE = 4096


def default_home() -> Path:
    """Where identities live unless `--home` says otherwise."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "p2pcards"


def fingerprint(public_key: Ed25519PublicKey | bytes) -> str:
    """The short code of an identity: 16 base32 characters of its key's SHA-256, in fours."""
    raw = public_key if isinstance(public_key, bytes) else public_key.public_bytes_raw()
    code = base64.b32encode(hashlib.sha256(b"p2pcards/identity/1" + raw).digest()).decode()[:16]
    return "-".join(code[i : i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True)
class Identity:
    """A peer's long-term signing key."""

    key: Ed25519PrivateKey

    @property
    def public_bytes(self) -> bytes:
        """The 32-byte public key."""
        return self.key.public_key().public_bytes_raw()

    @property
    def fingerprint(self) -> str:
        """The short code people compare."""
        return fingerprint(self.key.public_key())

    @staticmethod
    def load_or_create(home: Path) -> Identity:
        """The identity in `home`, made (readable by the owner only) on first use."""
        path = home / KEY_FILE
        if path.exists():
            try:
                key = serialization.load_pem_private_key(path.read_bytes(), password=None)
            except (ValueError, TypeError, UnsupportedAlgorithm, InternalError) as exc:
                # InternalError: OpenSSL refused the key itself (X448's OID on 32 bytes). The
                # first line says what; the rest of cryptography's text is advice to developers.
                reason = (str(exc).splitlines() or [type(exc).__name__])[0]
                raise LocalProtocolError(f"{path} is not a valid identity key: {reason}") from None
            if not isinstance(key, Ed25519PrivateKey):
                raise LocalProtocolError(f"{path} holds a key that is not Ed25519")
            return Identity(key)
        home.mkdir(parents=True, exist_ok=True)
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
        return Identity(key)

    def certificate_der(self, directory: Path) -> bytes:
        """Our certificate in DER, as the roster carries it (written by `certificate_files`)."""
        pem = (directory / "cert.pem").read_bytes()
        return x509.load_pem_x509_certificate(pem).public_bytes(serialization.Encoding.DER)

    def certificate_files(self, directory: Path) -> tuple[Path, Path]:
        """A self-signed TLS certificate for this key, and the key, as PEM files in `directory`."""
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"p2pcards {self.fingerprint}")])
        cert = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(self.key.public_key())
            .serial_number(int.from_bytes(self.public_bytes[:8], "big"))
            .not_valid_before(datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC))
            .not_valid_after(datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC))
            .sign(self.key, None)
        )
        directory.mkdir(parents=True, exist_ok=True)
        cert_path, key_path = directory / "cert.pem", directory / "key.pem"
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_path.write_bytes(
            self.key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        key_path.chmod(0o600)
        return cert_path, key_path


def certificate_key(der: bytes) -> bytes:
    """The raw Ed25519 public key in a peer's DER certificate (empty if it has none, or if
    `der` is not a certificate at all)."""
    if not 0 < len(der) <= MAX_CERTIFICATE:
        return b""
    try:
        with warnings.catch_warnings():
            # A peer's odd certificate (a serial that is not positive, say) makes
            # cryptography warn on stderr: the key is all we read, and a stranger must
            # not be able to print on the host's terminal.
            warnings.simplefilter("ignore", CryptographyDeprecationWarning)
            key = x509.load_der_x509_certificate(der).public_key()
    except (ValueError, x509.InvalidVersion, UnsupportedAlgorithm):
        # A bad version and an unknown key algorithm have classes of their own.
        return b""
    return key.public_bytes_raw() if isinstance(key, Ed25519PublicKey) else b""
