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

Only what ``seal`` wrote is ever taken for a sealed value. Plaintext that itself begins with
``enc:`` (a user may write anything) is stored escaped, as ``enc:raw:<text>``, wherever it is
stored as it is (encryption off, or an import's values that stay plaintext), and ``reveal``
gives it back verbatim; a stored value that is neither well-formed sealed nor escaped (written
before escaping; migration 0020 escapes them) reads as it is. So no content can make its own
tenant's reads, or anyone's embedding, fail to decrypt.

So with encryption on, BM25 over episodes and ``episodes(where: {textContains})`` see only
ciphertext; vector search, facts, summaries and recall work as before. Values written before
encryption was switched on read as they are until rotated.

With ``GRAPHMEM_ENCRYPTION_PER_NAMESPACE=true`` each namespace (usually one end user) gets a
key of its own: HKDF-SHA256 of the master key with a random salt kept per namespace
(``graphmem/security/namespace_keys.py``), and values read ``enc:v2:<key id>:…``. Destroying a
namespace's salt (``destroyNamespaceKey``) makes everything sealed under it — in the graph, in
exports and in the archive — unreadable for good, even with the master key: the namespace is
erased cryptographically while every other one works on.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import os
import re
import time
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError, DecryptionFailed, KeyDestroyed
from graphmem.db.database import Database
from graphmem.db.slots import Slot

PREFIX = "enc:"  # any sealed value, and stored plaintext that begins so only escaped (PLAIN)
MASTER = "enc:v1:"  # sealed under a master key, the namespace as associated data
OWN = "enc:v2:"  # sealed under the namespace's own key (derived with its salt)
PLAIN = "enc:raw:"  # plaintext that begins with PREFIX itself, escaped so it is never opened
SEALED_FORM = r"enc:v[12]:[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]+={0,2}"  # what seal writes (whole)
_SEALED = re.compile(SEALED_FORM)
KEY_CACHE_S = 60.0  # how long a process trusts a namespace salt it read (another may destroy it)
_KEY_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


@dataclass(frozen=True)
class Keyring:
    keys: dict[str, bytes]  # key id -> 32 bytes; insertion order: the first one encrypts
    per_namespace: bool = False
    # namespace -> (salt or None: it has none, when read): loaded by namespace_keys before a
    # statement of the namespace runs
    salts: dict[str, tuple[bytes | None, float]] = field(default_factory=dict, compare=False)

    @property
    def current(self) -> str:
        return next(iter(self.keys))

    @property
    def current_prefix(self) -> str:
        """How a value sealed now begins (key rotation re-seals what does not)."""
        return f"{OWN if self.per_namespace else MASTER}{self.current}:"

    def knows(self, ns: str, with_key: bool = False) -> bool:
        """Whether what was read of the namespace's salt is fresh (and, ``with_key``, is one)."""
        held = self.salts.get(ns)
        return held is not None and time.monotonic() - held[1] < KEY_CACHE_S \
            and (held[0] is not None or not with_key)

    def remember(self, ns: str, salt: bytes | None) -> None:
        self.salts[ns] = (salt, time.monotonic())

    def forget(self, ns: str) -> None:
        self.salts.pop(ns, None)

    def _key(self, version: str, key_id: str, ns: str) -> bytes:
        if version == MASTER:
            return self.keys[key_id]
        held = self.salts.get(ns)
        if held is None or held[0] is None:
            raise KeyDestroyed(f"namespace {ns!r} has no key: it was destroyed")
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=held[0],
                    info=b"graphmem namespace key\0" + ns.encode()).derive(self.keys[key_id])

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
        version = OWN if self.per_namespace else MASTER
        key = self._key(version, self.current, ns)
        sealed = AESGCM(key).encrypt(nonce, text.encode(), ns.encode())
        return f"{version}{self.current}:{base64.b64encode(nonce + sealed).decode()}"

    def open(self, value: str, ns: str) -> str:
        version = value[:len(MASTER)]
        if version not in (MASTER, OWN):
            raise DecryptionFailed(f"unknown encryption format {version!r}")
        key_id, _, payload = value[len(version):].partition(":")
        if key_id not in self.keys:
            raise DecryptionFailed(f"episode content is encrypted under key {key_id!r}, which "
                                   "GRAPHMEM_ENCRYPTION_KEYS does not hold")
        try:
            raw = base64.b64decode(payload, validate=True)
        except ValueError:
            raw = b""
        if len(raw) < 12 + 16:  # a nonce and a tag at least
            raise DecryptionFailed("episode content cannot be read: it is damaged")
        try:
            return AESGCM(self._key(version, key_id, ns)).decrypt(
                raw[:12], raw[12:], ns.encode()).decode()
        except InvalidTag:
            if version == OWN:
                raise KeyDestroyed("episode content cannot be read: the namespace's key does "
                                   "not open it (it was destroyed, or the value is damaged)") \
                    from None
            raise DecryptionFailed("episode content cannot be read: it failed authentication") \
                from None

    def fingerprint(self, canonical: str, key_id: str | None = None) -> str:
        kid = key_id or self.current
        digest = hmac.new(self.keys[kid], canonical.encode(), hashlib.sha256).hexdigest()
        return f"hmac:{kid}:{digest}"


KEYRING: Slot[Keyring] = Slot("keyring")  # a database's keys (namespace_keys.attach)


def keyring_from(spec: str | None, per_namespace: bool = False) -> Keyring | None:
    """The keyring of the configured keys (None: encryption off)."""
    if per_namespace and not spec:
        raise ConfigError("GRAPHMEM_ENCRYPTION_PER_NAMESPACE needs GRAPHMEM_ENCRYPTION_KEYS")
    return dataclasses.replace(Keyring.parse(spec), per_namespace=per_namespace) \
        if spec else None


def configured(settings: Settings) -> Keyring | None:
    return keyring_from(
        settings.encryption_keys.get_secret_value() if settings.encryption_keys else None,
        settings.encryption_per_namespace)


def active(db: Database) -> Keyring | None:
    """The keyring ``db`` seals and opens content with (None: encryption off)."""
    return db.get(KEYRING)


def seal(db: Database, text: str, ns: str) -> str:
    """How ``text`` is stored: sealed when encryption is on, else as it is (escaped)."""
    keyring = db.get(KEYRING)
    return keyring.seal(text, ns) if keyring else escape(text)


def escape(text: str) -> str:
    """Plaintext as it is stored unsealed: escaped when it could be taken for a sealed value."""
    return PLAIN + text if text.startswith(PREFIX) else text


def is_sealed(value: object) -> bool:
    """Whether a stored value is one ``seal`` wrote (escaped plaintext never is)."""
    return isinstance(value, str) and _SEALED.fullmatch(value) is not None


def plain(value: str) -> str:
    """The plaintext of a stored value that is not sealed."""
    return value[len(PLAIN):] if value.startswith(PLAIN) else value


def reveal(db: Database, value: str | None, ns: str) -> str | None:
    """The plaintext of a stored value: sealed ones are opened, others pass through."""
    return opened(db.get(KEYRING), value, ns)


def opened(keyring: Keyring | None, value: str | None, ns: str) -> str | None:
    """``reveal`` with ``keyring``."""
    if value is None or not is_sealed(value):
        return None if value is None else plain(value)
    if keyring is None:
        raise DecryptionFailed("episode content is encrypted: set GRAPHMEM_ENCRYPTION_KEYS")
    return keyring.open(value, ns)


def fingerprint(db: Database, canonical: str, like: str | None = None) -> str:
    """The content hash for a canonical form: SHA-256 without keys, else an HMAC — under the
    key a stored hash (``like``) was made with, so retries compare across rotations."""
    return fingerprinted(db.get(KEYRING), canonical, like)


def fingerprinted(keyring: Keyring | None, canonical: str, like: str | None = None) -> str:
    """``fingerprint`` with ``keyring``."""
    if keyring is None or (like is not None and not like.startswith("hmac:")):
        return hashlib.sha256(canonical.encode()).hexdigest()
    key_id = like.split(":")[1] if like else None
    return keyring.fingerprint(canonical, key_id if key_id in keyring.keys else None)


def new_key() -> str:
    """A fresh key for GRAPHMEM_ENCRYPTION_KEYS (``graphmem encryption new-key``)."""
    return base64.b64encode(AESGCM.generate_key(bit_length=256)).decode()
