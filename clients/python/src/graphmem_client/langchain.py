"""``GraphmemRetriever``: graphmem as a LangChain retriever (the ``langchain`` extra).

::

    from graphmem_client import Memory
    from graphmem_client.langchain import GraphmemRetriever

    retriever = GraphmemRetriever(memory=Memory(namespace="acme/user-42"), k=5)
    for doc in retriever.invoke("Where does Dana work?"):
        print(doc.metadata["kind"], doc.page_content)

``mode="search"`` (the default) gives one ``Document`` per search hit (episodes, facts,
summaries, entities); ``mode="recall"`` one per piece of recalled context, within ``budget``
tokens, in recall's order. Give ``memory`` (sync; async calls run it in a thread),
``async_memory`` (async only), or both.
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever

from graphmem_client.memory import AsyncMemory, Memory
from graphmem_client.models import Hit, Recall

__all__ = ["GraphmemRetriever"]


class GraphmemRetriever(BaseRetriever):
    """Documents from one graphmem namespace (the ``Memory``'s) for a query.

    Metadata always has ``source="graphmem"``, ``kind`` and ``id``; search hits add
    ``score`` and, by kind, ``session_id``/``occurred_at``/``actor``/``episode_kind``
    (episodes), ``fact_id``/``subject``/``predicate``/``object``/``status``/``valid_from``
    (facts), ``session_id``/``level`` (summaries). Recall pieces add ``layer``, ``tokens``
    and the ``fact_id``/``episode_id``/``summary_id`` they came from.
    """

    memory: Memory | None = None
    async_memory: AsyncMemory | None = None
    mode: Literal["search", "recall"] = "search"
    k: int = 10
    kinds: list[str] | None = None
    budget: int = 1000
    session_id: str | None = None

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        if self.memory is None:
            raise ValueError("GraphmemRetriever needs memory= (a Memory) for sync calls")
        if self.mode == "recall":
            return _recall_documents(self.memory.recall(query, budget=self.budget,
                                                        session_id=self.session_id))
        return [_hit_document(hit)
                for hit in self.memory.search(query, limit=self.k, kinds=self.kinds)]

    async def _aget_relevant_documents(
            self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun,
    ) -> list[Document]:
        if self.async_memory is None:  # LangChain's default: the sync call in a thread
            return await super()._aget_relevant_documents(query, run_manager=run_manager)
        if self.mode == "recall":
            return _recall_documents(await self.async_memory.recall(
                query, budget=self.budget, session_id=self.session_id))
        return [_hit_document(hit)
                for hit in await self.async_memory.search(query, limit=self.k,
                                                          kinds=self.kinds)]


def _hit_document(hit: Hit) -> Document:
    metadata: dict[str, Any] = {"source": "graphmem", "kind": hit.kind, "id": hit.id,
                                "score": hit.score}
    if hit.episode is not None:
        metadata |= {"session_id": hit.episode.session_id, "actor": hit.episode.actor,
                     "episode_kind": hit.episode.kind,
                     "occurred_at": hit.episode.occurred_at.isoformat()}
    if hit.fact is not None:
        fact = hit.fact
        metadata |= {"fact_id": fact.id, "subject": fact.subject, "predicate": fact.predicate,
                     "object": fact.object, "status": fact.status,
                     "valid_from": fact.valid_from.isoformat() if fact.valid_from else None}
    if hit.summary is not None:
        metadata |= {"session_id": hit.summary.session_id, "level": hit.summary.level}
    return Document(page_content=hit.text, metadata=metadata, id=hit.id)


def _recall_documents(recall: Recall) -> list[Document]:
    documents = []
    for piece in recall.pieces:
        ref = piece.fact_id or piece.episode_id or piece.summary_id
        documents.append(Document(page_content=piece.text, id=ref, metadata={
            "source": "graphmem", "kind": piece.layer, "id": ref, "layer": piece.layer,
            "tokens": piece.tokens, "fact_id": piece.fact_id, "episode_id": piece.episode_id,
            "summary_id": piece.summary_id}))
    return documents
