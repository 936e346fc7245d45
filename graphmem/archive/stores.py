"""Where archived episode content lives: a local directory (the default) or any S3-compatible
object store. Objects are content-addressed (their name is the SHA-256 of their bytes, so a
read verifies itself) and grouped under a per-namespace prefix, so one namespace's objects
are found, and erased, together.

``GRAPHMEM_ARCHIVE_URL``: ``file:///path`` (default: ``$GRAPHMEM_HOME/archive``) or
``s3://bucket/prefix``, with ``GRAPHMEM_ARCHIVE_S3_ENDPOINT`` for a store other than AWS
(MinIO, Ceph, R2…) and credentials from the usual AWS variables or files (boto3's chain).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from graphmem.core.config import Settings
from graphmem.core.errors import ArchiveMissing, ConfigError
from graphmem.db.database import Database
from graphmem.db.slots import Slot


class ArchiveStore(Protocol):
    """Bytes by key, and a prefix's keys; every call may block on I/O, so each is async."""

    url: str

    async def put(self, key: str, data: bytes) -> None: ...

    async def get(self, key: str) -> bytes: ...

    async def delete(self, keys: list[str]) -> None: ...

    async def keys(self, prefix: str) -> list[str]: ...


def address(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def key_for(prefix: str, data: bytes) -> str:
    digest = address(data)
    return f"{prefix}/{digest[:2]}/{digest}"


def verify(key: str, data: bytes) -> bytes:
    """The bytes, if they are what the key names (content-addressed: any change shows)."""
    if address(data) != key.rsplit("/", 1)[-1]:
        raise ArchiveMissing(f"archive object {key} does not match its address: corrupted")
    return data


class LocalStore:
    """A directory of files, owner-only, each written whole (temporary file, then rename)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.url = root.as_uri()

    def _path(self, key: str) -> Path:
        path = (self.root / key).resolve()
        if self.root.resolve() not in path.parents:
            raise ValueError(f"archive key {key!r} leaves the archive")
        return path

    async def put(self, key: str, data: bytes) -> None:
        await asyncio.to_thread(self._put, key, data)

    def _put(self, key: str, data: bytes) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = path.with_suffix(".tmp")
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())  # durable before the graph lets go of the content
        temporary.replace(path)

    async def get(self, key: str) -> bytes:
        try:
            return verify(key, await asyncio.to_thread(self._path(key).read_bytes))
        except FileNotFoundError:
            raise ArchiveMissing(f"archive object {key} is missing") from None

    async def delete(self, keys: list[str]) -> None:
        for key in keys:
            self._path(key).unlink(missing_ok=True)

    async def keys(self, prefix: str) -> list[str]:
        base = self._path(prefix)
        if not base.exists():
            return []
        return sorted(p.relative_to(self.root).as_posix() for p in base.rglob("*")
                      if p.is_file())


class S3Store:
    """An S3 bucket (or any S3-compatible store) through boto3, under a key prefix."""

    def __init__(self, bucket: str, prefix: str, endpoint: str | None) -> None:
        try:
            import boto3  # optional: pip install graphmem[s3]
        except ImportError:
            raise ConfigError("GRAPHMEM_ARCHIVE_URL is s3://…: install boto3 "
                              "(pip install 'graphmem[s3]')") from None
        self.client: Any = boto3.client("s3", endpoint_url=endpoint)
        self.bucket, self.prefix = bucket, prefix.strip("/")
        self.url = f"s3://{bucket}/{self.prefix}"

    def _name(self, key: str) -> str:
        return f"{self.prefix}/{key}" if self.prefix else key

    async def put(self, key: str, data: bytes) -> None:
        await asyncio.to_thread(self.client.put_object, Bucket=self.bucket, Key=self._name(key),
                                Body=data)

    async def get(self, key: str) -> bytes:
        def read() -> bytes:
            try:
                answer = self.client.get_object(Bucket=self.bucket, Key=self._name(key))
            except self.client.exceptions.NoSuchKey:
                raise ArchiveMissing(f"archive object {key} is missing") from None
            return bytes(answer["Body"].read())

        return verify(key, await asyncio.to_thread(read))

    async def delete(self, keys: list[str]) -> None:
        for start in range(0, len(keys), 1000):  # the most one request deletes
            batch = [{"Key": self._name(k)} for k in keys[start:start + 1000]]
            await asyncio.to_thread(self.client.delete_objects, Bucket=self.bucket,
                                    Delete={"Objects": batch, "Quiet": True})

    async def keys(self, prefix: str) -> list[str]:
        def listed() -> list[str]:
            found: list[str] = []
            pages = self.client.get_paginator("list_objects_v2").paginate(
                Bucket=self.bucket, Prefix=self._name(prefix) + "/")
            for page in pages:
                found += [item["Key"] for item in page.get("Contents", [])]
            strip = len(self._name("")) if self.prefix else 0
            return sorted(name[strip:] for name in found)

        return await asyncio.to_thread(listed)


def open_store(settings: Settings) -> ArchiveStore:
    url = settings.archive_url or (Path(settings.home).resolve() / "archive").as_uri()
    parts = urlsplit(url)
    if parts.scheme == "file":
        root = Path(parts.path)
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        return LocalStore(root)
    if parts.scheme == "s3" and parts.netloc:
        return S3Store(parts.netloc, parts.path, settings.archive_s3_endpoint)
    raise ConfigError("GRAPHMEM_ARCHIVE_URL must be file:///path or s3://bucket[/prefix]")


STORE: Slot[ArchiveStore] = Slot("archive store")  # a database's archive (attach)


def attach(db: Database, settings: Settings) -> Database:
    """``db`` with the configured archive store: where its old episodes' content goes."""
    return db.holding(STORE, open_store(settings))


def active(db: Database) -> ArchiveStore | None:
    return db.get(STORE)


def required(db: Database) -> ArchiveStore:
    """``db``'s archive store, for work that cannot go on without one."""
    store = db.get(STORE)
    if store is None:
        raise ConfigError("no archive store is attached to this database")
    return store
