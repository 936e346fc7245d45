"""Optional field-level encryption of episode content at rest (AES-256-GCM).

Keys come from the environment: ``GRAPHMEM_ENCRYPTION_KEYS="k2:<base64>,k1:<base64>"`` — the
first encrypts, all decrypt, so a key is rotated by putting a new one first and running
`graphmem encryption rotate`, which re-encrypts every episode under it.

What is encrypted: an episode's ``content``, its ``metadata`` and the copy of the previous turn
kept for search (``context``). A stored value reads ``enc:v1:<key id>:<base64 nonce+ciphertext>``
and is bound to its namespace (the namespace is the associated data), so it cannot be replayed
into another one. The content hash becomes an HMAC under the key, so it no longer confirms a
guessed text. What is not: facts, summaries and entity names (derived knowledge the graph is
explored by) and embeddings, which the worker computes from the plaintext.

So with encryption on, BM25 over episodes and ``episodes(where: {textContains})`` see only
ciphertext; vector search, facts, summaries and recall work as before. Values written before
encryption was switched on read as they are until rotated.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError, DecryptionFailed

PREFIX = "enc:v1:"
_KEY_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


@dataclass(frozen=True)
class Keyring:
    keys: dict[str, bytes]  # key id -> 32 bytes; insertion order: the first one encrypts

    @property
    def current(self) -> str:
        return next(iter(self.keys))

    @classmethod
    def parse(cls, spec: str) -> Keyring:
        keys: dict[str, bytes] = {}
        for item in (part.strip() for part in spec.split(",") if part.strip()):
            key_id, _, encoded = item.partition(":")
            try:
                key = base64.b64decode(encoded, validate=True)
            except ValueError:
                key = b""
            if not _KEY_ID.fullmatch(key_id) or len(key) != 32 or key_id in keys:
                raise ConfigError("GRAPHMEM_ENCRYPTION_KEYS: each entry is <id>:<base64 of 32 "
                                  "bytes>, ids unique (letters, digits, _ or -)")
            keys[key_id] = key
        if not keys:
            raise ConfigError("GRAPHMEM_ENCRYPTION_KEYS is set but holds no key")
        return cls(keys)

    def seal(self, text: str, ns: str) -> str:
        nonce = os.urandom(12)
        sealed = AESGCM(self.keys[self.current]).encrypt(nonce, text.encode(), ns.encode())
        return f"{PREFIX}{self.current}:{base64.b64encode(nonce + sealed).decode()}"

    def open(self, value: str, ns: str) -> str:
        key_id, _, payload = value[len(PREFIX):].partition(":")
        if key_id not in self.keys:
            raise DecryptionFailed(f"episode content is encrypted under key {key_id!r}, which "
                                   "GRAPHMEM_ENCRYPTION_KEYS does not hold")
        raw = base64.b64decode(payload)
        try:
            return AESGCM(self.keys[key_id]).decrypt(raw[:12], raw[12:], ns.encode()).decode()
        except InvalidTag:
            raise DecryptionFailed("episode content failed authentication") from None

    def fingerprint(self, canonical: str, key_id: str | None = None) -> str:
        kid = key_id or self.current
        digest = hmac.new(self.keys[kid], canonical.encode(), hashlib.sha256).hexdigest()
        return f"hmac:{kid}:{digest}"


_keyring: Keyring | None = None


def install(spec: str | None) -> None:
    """Set the process's keyring from the configured keys (None: encryption off)."""
    global _keyring
    _keyring = Keyring.parse(spec) if spec else None


def install_from(settings: Settings) -> None:
    install(settings.encryption_keys.get_secret_value() if settings.encryption_keys else None)


def active() -> Keyring | None:
    return _keyring


def seal(text: str, ns: str) -> str:
    return _keyring.seal(text, ns) if _keyring else text


def reveal(value: str | None, ns: str) -> str | None:
    """The plaintext of a stored value: encrypted ones are opened, others pass through."""
    if value is None or not value.startswith(PREFIX):
        return value
    if _keyring is None:
        raise DecryptionFailed("episode content is encrypted: set GRAPHMEM_ENCRYPTION_KEYS")
    return _keyring.open(value, ns)


def fingerprint(canonical: str, like: str | None = None) -> str:
    """The content hash for a canonical form: SHA-256 without keys, else an HMAC — under the
    key a stored hash (``like``) was made with, so retries compare across rotations."""
    if _keyring is None or (like is not None and not like.startswith("hmac:")):
        return hashlib.sha256(canonical.encode()).hexdigest()
    key_id = like.split(":")[1] if like else None
    return _keyring.fingerprint(canonical, key_id if key_id in _keyring.keys else None)


def new_key() -> str:
    """A fresh key for GRAPHMEM_ENCRYPTION_KEYS (``graphmem encryption new-key``)."""
    return base64.b64encode(AESGCM.generate_key(bit_length=256)).decode()
