"""Private messages between two seats, readable by their one reader.

X25519 key agreement between the sender's and the reader's encryption keys,
HKDF-SHA256 bound to the table and both seats, then ChaCha20-Poly1305. A peer
that relays the message (or stores the transcript) cannot read it.
"""

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from protocol.errors import RemoteProtocolError


def _key(
    own: X25519PrivateKey, other: X25519PublicKey, table_id: bytes, sender: int, reader: int
) -> bytes:
    shared = own.exchange(other)
    info = b"p2pcards/sealed/1" + table_id + bytes([sender, reader])
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(shared)


def seal(
    own: X25519PrivateKey, reader_key: X25519PublicKey, table_id: bytes,
    sender: int, reader: int, counter: int, plaintext: bytes, header: bytes,
) -> bytes:  # fmt: skip
    """Encrypt `plaintext` for `reader`; `header` is authenticated but not hidden."""
    nonce = counter.to_bytes(12, "big")  # the sender's message number: never reused per key
    return ChaCha20Poly1305(_key(own, reader_key, table_id, sender, reader)).encrypt(
        nonce, plaintext, header
    )


def open_sealed(
    own: X25519PrivateKey, sender_key: X25519PublicKey, table_id: bytes,
    sender: int, reader: int, counter: int, sealed: bytes, header: bytes,
) -> bytes:  # fmt: skip
    """Decrypt a message sealed for us; a tampered or misaddressed one names the sender."""
    nonce = counter.to_bytes(12, "big")
    try:
        return ChaCha20Poly1305(_key(own, sender_key, table_id, sender, reader)).decrypt(
            nonce, sealed, header
        )
    except InvalidTag:
        raise RemoteProtocolError(sender, "a private message does not decrypt") from None
