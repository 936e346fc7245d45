"""Embeddings: pluggable embedders, the vector indexes sized for them, and the worker that
embeds new memory off the request path.

- ``local`` (the default): E5-small-v2, a sentence transformer run by onnxruntime on the
  CPU, its model resolved from Maven Central into the home once (``transformer.py``);
  ``bge-small``, the default before it, for the stores built with it.
- ``wordllama``: WordLlama (``wordllama`` on PyPI). Its 256-dimension model and tokenizer
  ship inside the 19 MB wheel, so it loads offline in about half a second and embeds
  thousands of texts a second on a CPU. It is a static (bag-of-token-vectors) model: good at
  topical similarity, blind to word order and to paraphrase; for bulk loads on small
  machines.
- ``openai``: any OpenAI-compatible ``/embeddings`` endpoint through the ``openai`` client
  (base URL, model, dimension, batch size; retries with backoff are the client's).
- ``none``: no vectors; search runs on BM25 and the graph.

New episodes, facts, summaries and entities are written with an ``EmbedPending`` label; the
worker embeds them in batches. They are searchable by BM25 at once, by vector once embedded.
The vector indexes record the embedder they were built for; a different embedder is refused
until ``graphmem reembed`` rebuilds them. A store built with BGE-small keeps it under the
default ``local`` (with a warning) until then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError, GraphmemError, KeyDestroyed
from graphmem.core.timeutil import to_native
from graphmem.db.database import Database, Row
from graphmem.db.statements import split_statements, statement
from graphmem.observability import metrics
from graphmem.retrieval import background
from graphmem.retrieval.background import Background
from graphmem.retrieval.transformer import (
    BGE_SMALL,
    E5_SMALL,
    LOCAL_MODELS,
    TransformerEmbedder,
)
from graphmem.security import encryption, namespace_keys

log = logging.getLogger(__name__)
GAUGE_EVERY_S = 5.0
# How long a claimed batch is a worker's alone: a worker that died holding one leaves it to
# the others after this (a batch takes well under a second to embed).
CLAIM_LEASE = timedelta(seconds=60)
GIVE_BACK_S = 5.0  # what a stopping worker waits, at most, to give back a claim in flight
EMBED_MAX_CHARS = 8_000  # what of one text is embedded (about 2,000 tokens)


class Embedder(Protocol):
    name: str  # model identity, recorded with the vector indexes
    dimension: int

    async def embed(self, texts: list[str]) -> list[list[float]]:
        """Texts as memory stores them (turns, facts), on the request path."""
        ...

    async def embed_queries(self, texts: list[str]) -> list[list[float]]:
        """What is asked of them: some models are trained to embed a question differently."""
        ...

    async def embed_backlog(self, texts: list[str], background: Background) -> list[list[float]]:
        """The worker's batches: CPU work yields to requests (in the app's ``background``)."""
        ...


class WordLlamaEmbedder:
    name = "wordllama/l2_supercat_256"
    dimension = 256

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(_wordllama_embed, texts)

    async def embed_queries(self, texts: list[str]) -> list[list[float]]:
        return await self.embed(texts)

    async def embed_backlog(self, texts: list[str], background: Background) -> list[list[float]]:
        return await background.run_with_floor(_wordllama_embed, texts,
                                               lambda: self.embed(texts))


def _wordllama_embed(texts: list[str]) -> list[list[float]]:
    return [row.tolist() for row in _wordllama().embed(texts, norm=True)]  # numpy to floats


@cache
def _wordllama():  # type: ignore[no-untyped-def]
    import wordllama
    from wordllama import WordLlama

    # The wheel ships weights and tokenizer; point the loader at them and forbid downloads.
    return WordLlama.load(dim=256, cache_dir=Path(wordllama.__file__).parent,
                          disable_download=True)


class OpenAIEmbedder:
    def __init__(self, settings: Settings) -> None:
        from openai import AsyncOpenAI

        key = settings.embedding_api_key
        self.client = AsyncOpenAI(base_url=settings.embedding_base_url,
                                  api_key=key.get_secret_value() if key else "unused",
                                  timeout=settings.embedding_timeout_s, max_retries=4)
        self.model = settings.embedding_model
        self.name = f"openai/{settings.embedding_model}"
        self.dimension = settings.embedding_dimension

    async def embed(self, texts: list[str]) -> list[list[float]]:
        response = await self.client.embeddings.create(model=self.model, input=texts,
                                                       dimensions=self.dimension)
        vectors = [item.embedding for item in sorted(response.data, key=lambda d: d.index)]
        if any(len(v) != self.dimension for v in vectors):
            raise ConfigError(f"{self.name} returned vectors that are not {self.dimension}-"
                              "dimensional: set GRAPHMEM_EMBEDDING_DIMENSION to match")
        return vectors

    async def embed_queries(self, texts: list[str]) -> list[list[float]]:
        return await self.embed(texts)

    async def embed_backlog(self, texts: list[str], background: Background) -> list[list[float]]:
        return await self.embed(texts)  # a remote endpoint's work: awaiting costs no CPU


def make_embedder(settings: Settings) -> Embedder | None:
    if settings.embedder in LOCAL_MODELS:
        return TransformerEmbedder(settings.home, LOCAL_MODELS[settings.embedder])
    if settings.embedder == "wordllama":
        return WordLlamaEmbedder()
    if settings.embedder == "openai":
        return OpenAIEmbedder(settings)
    return None


async def ensure_space(db: Database, embedder: Embedder) -> Embedder:
    """Create the vector indexes for this embedder, or refuse a different one; the embedder
    to use from now on (the default local model gives way to the one the store was built
    with)."""
    rows = await db.read("retrieval/embeddings/space")
    if rows and (rows[0]["model"], rows[0]["dimension"]) != (embedder.name, embedder.dimension):
        built_with = _earlier_local_model(embedder, rows[0]["model"])
        if built_with is None:
            raise ConfigError(
                f"the vector indexes were built for {rows[0]['model']} ({rows[0]['dimension']} "
                f"dimensions), not {embedder.name} ({embedder.dimension}): run `graphmem "
                "reembed`, or set GRAPHMEM_EMBEDDER to the embedder they were built for")
        log.warning("the vector indexes were built for %s: it stays in use until `graphmem "
                    "reembed` moves them to %s, which finds more", built_with.name, embedder.name)
        embedder = built_with
    if isinstance(embedder, TransformerEmbedder):  # only the model the store needs
        await asyncio.to_thread(embedder.load)
    for text in split_statements(statement("retrieval/embeddings/create_indexes")):
        await db.run_schema(text, dimension=embedder.dimension)
    if not rows:
        await db.write("retrieval/embeddings/record_space", model=embedder.name,
                       dimension=embedder.dimension)
    return embedder


def _earlier_local_model(embedder: Embedder, built_for: str) -> Embedder | None:
    """The BGE-small embedder, when the store was built with it and the default local model
    is configured: a store made before 0.2.0 keeps its vectors until it is re-embedded."""
    if (isinstance(embedder, TransformerEmbedder) and embedder.model is E5_SMALL
            and built_for == BGE_SMALL.name):
        return TransformerEmbedder(embedder.home, BGE_SMALL)
    return None


async def reembed(db: Database, embedder: Embedder) -> None:
    """Switch embedders: rebuild the vector indexes and queue everything for embedding."""
    for text in split_statements(statement("retrieval/embeddings/drop_indexes")):
        await db.run_schema(text)
    # Record the new space first: from now on a process still embedding with the old model
    # is refused, so nothing queued below is cleared with a vector the indexes cannot use.
    await db.write("retrieval/embeddings/record_space", model=embedder.name,
                   dimension=embedder.dimension)
    await db.run_auto("retrieval/embeddings/mark_all")
    await ensure_space(db, embedder)


async def embed_pending(db: Database, embedder: Embedder, batch: int) -> int:
    """Embed one batch of waiting nodes; how many were embedded (0: nothing waits)."""
    now = datetime.now(UTC)
    claimed = await _claim(db, batch, now)
    if not claimed:
        return 0
    try:
        await _embed_claimed(db, embedder, claimed, now)
    except BaseException:
        await _give_back(db, claimed)
        raise
    return len(claimed)


async def _claim(db: Database, batch: int, now: datetime) -> list[Row]:
    """A batch leased to this worker. A stop (a cancel) that lands while the claim is in
    flight strands nothing: Neo4j may commit the claim all the same, so it is let finish
    (shielded) and what it took is given back at once, not left leased for CLAIM_LEASE."""
    claim = asyncio.ensure_future(db.write(
        "retrieval/embeddings/claim", limit=batch, now=to_native(now),
        lease_until=to_native(now + CLAIM_LEASE)))
    try:
        return await asyncio.shield(claim)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(GIVE_BACK_S):
                await _give_back(db, await claim)
        raise


async def _give_back(db: Database, claimed: list[Row]) -> None:
    """Release a claimed batch that was not embedded: any worker takes it at once."""
    with contextlib.suppress(Exception):  # else the lease runs out: later, not never
        await db.write("retrieval/embeddings/release",
                       element_ids=[r["element_id"] for r in claimed])


async def _embed_claimed(db: Database, embedder: Embedder, claimed: list[Row],
                         now: datetime) -> None:
    """Embed a claimed batch; a node that cannot be embedded is set aside, never the batch's
    other nodes (which may be any namespace's)."""
    for ns in sorted({str(row["ns"]) for row in claimed}):
        await namespace_keys.prepare(db, ns)  # the queue spans namespaces (their keys)
    ready, refused = _texts(db, claimed)
    refused += await _embed_isolating(db, embedder, ready)
    if refused:
        await _set_aside(db, refused, now)


def _texts(db: Database, claimed: list[Row]) -> tuple[list[Row], list[Row]]:
    """The claimed nodes with their texts, and those whose text cannot be had (content no
    key of this process opens): those are one node's trouble, never the batch's."""
    ready, refused = [], []
    for row in claimed:
        try:
            ready.append({**row, "text": _text(db, row)})
        except GraphmemError as exc:
            refused.append({**row, "error": type(exc).__name__})
    return ready, refused


async def _embed_isolating(db: Database, embedder: Embedder, rows: list[Row]) -> list[Row]:
    """Embed and store the batch; when it fails, each node alone, so one node the embedder
    or the store refuses never holds back the others (other tenants' turns among them).
    Those that fail alone are returned; when every one does, the trouble is not theirs (the
    embedder is down, the indexes changed): the batch fails, to be retried whole."""
    if not rows:
        return []
    try:
        await _embed_and_store(db, embedder, rows)
        return []
    except Exception:
        if len(rows) < 2:
            raise
    refused: list[Row] = []
    for row in rows:
        try:
            await _embed_and_store(db, embedder, [row])
        except Exception as exc:
            refused.append({**row, "error": type(exc).__name__})
            if len(refused) == len(rows):
                raise
    return refused


async def _set_aside(db: Database, refused: list[Row], now: datetime) -> None:
    await db.write("retrieval/embeddings/set_aside", now=to_native(now), rows=[
        {"element_id": row["element_id"], "error": row["error"]} for row in refused])
    for ns in sorted({str(row["ns"]) for row in refused}):
        errors = sorted({row["error"] for row in refused if str(row["ns"]) == ns})
        log.warning("embedding: %d node(s) of namespace %s could not be embedded (%s); set "
                    "aside, the others of the batch went on",
                    sum(str(row["ns"]) == ns for row in refused), ns, ", ".join(errors))


async def _embed_and_store(db: Database, embedder: Embedder, rows: list[dict[str, Any]]) -> None:
    texts = [row for row in rows if (row["text"] or "").strip()]
    with db.tracing.span("embedding batch", {"graphmem.embedder": embedder.name,
                                             "graphmem.nodes": len(rows)}):
        with metrics.timed(metrics.EMBEDDER_SECONDS, embedder.name), db.tracing.span("embed"):
            embedded = await embedder.embed_backlog(
                [row["text"] for row in texts], background.of(db)) if texts else []
        vectors = dict(zip((row["element_id"] for row in texts), embedded, strict=True))
        stored = await db.write("retrieval/embeddings/store", model=embedder.name, rows=[
            {"element_id": row["element_id"], "vector": usable(vectors.get(row["element_id"]))}
            for row in rows])
    if not stored[0]["current"]:
        raise ConfigError(f"the vector indexes are no longer built for {embedder.name}: "
                          "restart with the configured embedder")
    metrics.EMBEDDED_NODES.inc(len(rows))


def _text(db: Database, row: dict[str, Any]) -> str:
    """What a waiting node is embedded from: an episode with the turn before it and its
    speaker, decrypted when its content is encrypted. Content no key opens any more (its
    namespace's key was destroyed) is embedded as nothing: it leaves the queue instead of
    failing every batch it is claimed in."""
    ns = str(row["ns"])
    body = row["body"] if isinstance(row["body"], str) else ""
    context = row["context"] if isinstance(row["context"], str) else None
    if "Episode" in row["labels"]:  # only episodes are sealed: a fact's text is as it reads
        try:
            body = encryption.reveal(db, body, ns) or ""
            context = encryption.reveal(db, context, ns)
        except KeyDestroyed:
            log.warning("a queued node of a namespace whose content cannot be decrypted left "
                        "the embedding queue unembedded")
            return ""
    speaker = row.get("actor")
    return embedded_text(body, context, speaker if isinstance(speaker, str) else None)


def embedded_text(body: str, context: str | None = None, speaker: str | None = None) -> str:
    """At most ``EMBED_MAX_CHARS``: the end of the context (a quarter at most), then the start
    of the body, said by its speaker ("Caroline: I went to the support group"). Questions
    name who did something, and a turn never names its own speaker: on the LoCoMo dev split
    the speaker's name alone took vector recall@10 from 0.20 to 0.36 (WordLlama) and from
    0.42 to 0.64 (BGE-small). The local model's memory grows with the longest text of a
    batch (a 990,000-character document took 1.3 GB), and one vector cannot say more about
    a long document than its opening does; BM25 still matches every word of it."""
    own = f"{speaker[:200]}: {body}" if speaker else body
    if not context:
        return own[:EMBED_MAX_CHARS]
    before = context[-(EMBED_MAX_CHARS // 4):]
    return f"{before}\n{own[:EMBED_MAX_CHARS - len(before) - 1]}"


def usable(vector: list[float] | None) -> list[float] | None:
    """A vector the index can use: finite and not all zeros (no words the model knows)."""
    if vector is None or not all(math.isfinite(x) for x in vector) or not any(vector):
        return None
    return vector


async def pending_count(db: Database) -> int:
    """How many nodes wait for an embedding, in every namespace (the queue's size)."""
    return int((await db.read("retrieval/embeddings/pending_count"))[0]["pending"])


async def embed_all_pending(db: Database, embedder: Embedder, batch: int) -> int:
    """Embed until nothing waits, this process's share: what another worker holds is waited
    for (it stores it soon, or gives it back, or its lease runs out and it is taken here)."""
    total = 0
    while True:
        if done := await embed_pending(db, embedder, batch):
            total += done
        elif await pending_count(db):
            await asyncio.sleep(0.05)
        else:
            return total


async def _claimable(db: Database) -> bool:
    """Whether a claim would find anything (asked with a read, before a claim's write)."""
    rows = await db.read("retrieval/embeddings/claimable", now=to_native(datetime.now(UTC)))
    return bool(rows[0]["claimable"])


async def run_worker(db: Database, embedder: Embedder, batch: int) -> None:
    """Forever: embed what waits, rest briefly when nothing does. Failures back off. The
    queue gauge is counted every few seconds, not every batch (it competes with writes)."""
    delay = 0.5
    counted = 0.0
    with contextlib.suppress(Exception):  # what was set aside may embed now; else next start
        await db.write("retrieval/embeddings/requeue_set_aside")
    while True:
        try:
            if time.monotonic() - counted >= GAUGE_EVERY_S:
                metrics.EMBEDDING_QUEUE.set(await pending_count(db))
                counted = time.monotonic()
            await background.of(db).requests.until_quiet()
            done = await embed_pending(db, embedder, batch) if await _claimable(db) else 0
            delay = 0.5
            if not done:
                await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # keep embedding after a transient failure
            log.warning("embedding batch failed (%s %s); retrying in %.1fs",
                        type(exc).__name__, getattr(exc, "code", ""), delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 30.0)
