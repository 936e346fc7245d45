"""Retrieval on real conversations: the LoCoMo dev split, through the GraphQL API.

    bin/bench retrieval --locomo ../shared/data/locomo-dev [--summaries] [--observations]
                                           [--ablate] [--keep-store] [--run ID --keep]

Each conversation goes into its own namespace, each turn one episode (externalId = dia_id,
actor = speaker, content = text plus its photo caption, occurredAt = session start + 30 s a
turn); facts are extracted from every turn by the pipeline the settings give (the offline
patterns without an LLM: a handful of facts on this split), once per namespace; every
question of categories 1-4 is asked with referenceTime = the last session's time.

The headline is leave-one-conversation-out (``loco.py``): for each conversation, the search
weights fitted on the other two, scored on it through the GraphQL API; the mean and the worst
of the three, per category and by one or several evidence turns, beside the full fit (fitted
on all three) and the defaults. Only the left-out figure says what a new conversation gets.

Also printed per category: turn-level evidence recall@5 and @10 of `search` (episodes only,
and all kinds, where a fact hit counts the turns that evidence it), the evidence `recall`
delivers within 1,000 tokens, and a plain BM25 over turns computed in the same run (the
baseline: lower-case alphanumeric tokens, a small stop list, k1 1.2, b 0.75; also with each
turn indexed with the previous one). `--summaries` also writes LoCoMo's own session
summaries as summaries (the fair run ingests turns only; this one says so);
`--observations` writes LoCoMo's own per-session observations as facts with the turns they
were taken from as evidence, a stand-in for an LLM extraction pipeline's facts. `--ablate`
reruns search in-process with one part of the pipeline switched off at a time. `--run ID`
names the namespaces; with `--keep` and `--keep-store` a later run with the same ID reuses
the ingested turns (for trying changes to search without ingesting again).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import os
import re
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "27687")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "27474")

import loco  # noqa: E402
from common import GraphQL, delete_namespaces, fresh_local_neo4j, serving  # noqa: E402

from graphmem.core.config import SearchWeights, Settings, get_settings  # noqa: E402
from graphmem.core.namespaces import Namespace  # noqa: E402
from graphmem.db.database import Database, connect  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.retrieval import embeddings  # noqa: E402
from graphmem.retrieval.search import Kind, SearchQuery, search  # noqa: E402

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
BATCH = 200
RECORD = """mutation($ns: String!, $episodes: [EpisodeInput!]!) {
  recordEpisodes(namespace: $ns, episodes: $episodes) { episodes { id externalId } } }"""
EXTRACT = """mutation($ns: String!, $ids: [ID!]!) {
  extractFacts(namespace: $ns, episodeIds: $ids, wait: true) { state facts } }"""
ASSERT = """mutation($ns: String!, $facts: [FactInput!]!) {
  assertFacts(namespace: $ns, facts: $facts) { outcome } }"""
SUMMARY = """mutation($ns: String!, $summary: SummaryInput!) {
  writeSummary(namespace: $ns, summary: $summary) { id } }"""
SEARCH = """query($ns: String!, $q: String!, $kinds: [SearchKind!], $ref: DateTime!) {
  search(namespace: $ns, query: $q, limit: 10, kinds: $kinds, referenceTime: $ref) {
    hits { episode { externalId } fact { evidence { externalId } } } } }"""
RECALL = """query($ns: String!, $q: String!, $ref: DateTime!) {
  recall(namespace: $ns, query: $q, referenceTime: $ref, tokenBudget: 1000) {
    pieces { episode { externalId } fact { evidence { externalId } } } } }"""


@dataclass(frozen=True)
class Turn:
    id: str
    session: int
    speaker: str
    content: str
    at: datetime


@dataclass(frozen=True)
class Question:
    text: str
    evidence: tuple[str, ...]
    category: int


@dataclass(frozen=True)
class Conversation:
    name: str
    turns: list[Turn]
    questions: list[Question]
    summaries: dict[int, str]
    reference: datetime
    observations: list[tuple[str, str, tuple[str, ...]]]  # (speaker, sentence, turns)


def load(folder: Path) -> list[Conversation]:
    return [_conversation(path.stem, json.loads(path.read_text()))
            for path in sorted(folder.glob("conv-*.json"))]


def _conversation(name: str, raw: dict[str, Any]) -> Conversation:
    turns, n, last = [], 1, datetime.min.replace(tzinfo=UTC)
    while f"session_{n}" in raw:
        start = datetime.strptime(raw[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
        last = start.replace(tzinfo=UTC)
        for i, t in enumerate(raw[f"session_{n}"]):
            caption = f" [shares a photo: {t['blip_caption']}]" if t.get("blip_caption") else ""
            turns.append(Turn(t["dia_id"], n, t["speaker"], t["text"] + caption,
                              last + timedelta(seconds=30 * i)))
        n += 1
    questions = [Question(q["question"], tuple(e.strip() for ev in q["evidence"]
                                               for e in re.split(r"[;,]", ev) if e.strip()),
                          q["category"])
                 for q in raw["qa"] if q["category"] in CATEGORIES and q["evidence"]]
    summaries = {int(k.split("_")[1]): v for k, v in raw.items()
                 if re.fullmatch(r"session_\d+_summary", k)}
    said = {t.id for t in turns}
    observations = [(speaker, text, tuple(e for e in re.split(r"[;,\s]+", str(ev)) if e in said))
                    for k, v in raw.items() if re.fullmatch(r"session_\d+_observation", k)
                    for speaker, noted in v.items() for text, ev in noted]
    return Conversation(name, turns, questions, summaries, last,
                        [o for o in observations if o[2]])


# --- The baseline, computed in the same run -------------------------------------------------

_STOP = {"a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with",
         "is", "are", "was", "were", "be", "been", "it", "this", "that", "i", "you", "he",
         "she", "we", "they", "my", "your", "her", "his", "our", "their", "me", "him", "us",
         "them", "do", "does", "did"}


def _tokens(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP]


def bm25_ranking(docs: list[str], query: str, k1: float = 1.2, b: float = 0.75) -> list[int]:
    tokenised = [Counter(_tokens(d)) for d in docs]
    lengths = [sum(t.values()) for t in tokenised]
    mean = sum(lengths) / len(lengths)
    df = Counter(w for t in tokenised for w in t)
    n = len(docs)
    scores = []
    for i, tf in enumerate(tokenised):
        s = 0.0
        for w in set(_tokens(query)):
            if w in tf:
                idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                s += idf * tf[w] * (k1 + 1) / (tf[w] + k1 * (1 - b + b * lengths[i] / mean))
        scores.append(s)
    return sorted(range(n), key=lambda i: -scores[i])


# --- Scoring ---------------------------------------------------------------------------------

def evidence_recall(ranked: list[str], evidence: tuple[str, ...], k: int | None) -> float:
    top = set(ranked[:k] if k else ranked)
    return sum(1 for e in evidence if e in top) / len(evidence)


def turns_of(hits: list[dict[str, Any]]) -> list[list[str]]:
    """Per hit (search) or piece (recall), the turns it stands for."""
    out = []
    for hit in hits:
        if hit.get("episode"):
            out.append([hit["episode"]["externalId"]])
        elif hit.get("fact"):
            out.append([e["externalId"] for e in hit["fact"]["evidence"]])
        else:
            out.append([])
    return out


def at_k(per_hit: list[list[str]], evidence: tuple[str, ...], k: int) -> float:
    found = {t for turns in per_hit[:k] for t in turns}
    return sum(1 for e in evidence if e in found) / len(evidence)


class Table:
    def __init__(self) -> None:
        self.rows: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))

    def add(self, method: str, category: int, value: float) -> None:
        self.rows[method][category].append(value)

    def print(self, title: str) -> None:
        print(f"\n{title}")
        head = "".join(f"{CATEGORIES[c]:>13}" for c in CATEGORIES)
        print(f"{'method':<44}{head}{'all':>9}")
        for method, per in self.rows.items():
            cells = "".join(f"{_mean(per[c]):>13.3f}" for c in CATEGORIES)
            every = [v for c in CATEGORIES for v in per[c]]
            print(f"{method:<44}{cells}{_mean(every):>9.3f}")


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


# --- The run ---------------------------------------------------------------------------------

async def ingest(gql: GraphQL, ns: str, conversation: Conversation, summaries: bool) -> None:
    episodes = [{"externalId": t.id, "sessionId": f"session_{t.session}",
                 "kind": "USER_MESSAGE", "actor": t.speaker, "content": t.content,
                 "occurredAt": t.at.isoformat()} for t in conversation.turns]
    ids: dict[str, str] = {}
    for i in range(0, len(episodes), BATCH):
        body = await gql(RECORD, ns=ns, episodes=episodes[i:i + BATCH])
        ids.update((e["externalId"], e["id"]) for e in body["data"]["recordEpisodes"]["episodes"])
    if summaries:
        for session, text in sorted(conversation.summaries.items()):
            covers = [ids[t.id] for t in conversation.turns if t.session == session]
            if covers:
                await gql(SUMMARY, ns=ns, summary={"text": text, "covers": covers,
                                                   "sessionId": f"session_{session}"})


async def extract(gql: GraphQL, db: Database, ns: str) -> int:
    """Facts from every turn by the pipeline the settings give (offline patterns without an
    LLM), once per namespace: the facts search uses as keys for their turns and links to the
    entities a question names (weights ``fact_keys``, ``named``). Returns the facts made."""
    async with db.driver.session() as session:
        result = await session.run(
            "MATCH (j:Job {ns: $ns}) RETURN count(j) AS jobs", {"ns": ns})
        if (await result.single() or {"jobs": 0})["jobs"]:
            return 0
        result = await session.run(
            "MATCH (e:Episode {ns: $ns}) RETURN e.id AS id ORDER BY e.occurred_at, e.id",
            {"ns": ns})
        ids = [r["id"] async for r in result]
    made = 0
    for i in range(0, len(ids), BATCH):
        body = await gql(EXTRACT, ns=ns, ids=ids[i:i + BATCH])
        made += body["data"]["extractFacts"]["facts"] or 0
    return made


async def observe(gql: GraphQL, db: Database, ns: str, conversation: Conversation) -> int:
    """LoCoMo's own per-session observations ("Caroline attended an LGBTQ support group…",
    with the turns it was taken from) as facts of `Speaker observation <sentence>` with those
    turns as evidence: what an LLM extraction pipeline would give, for measuring the facts'
    weights (``fact_keys``, ``named``) with more than the offline patterns' few."""
    async with db.driver.session() as session:
        result = await session.run("MATCH (f:Fact {ns: $ns, predicate: 'observation'}) "
                                   "RETURN count(f) AS n", {"ns": ns})
        if (await result.single() or {"n": 0})["n"]:
            return 0
    facts = [{"subject": who, "predicate": "observation", "value": {"string": text},
              "evidence": list(turns), "source": "EXTRACTION"}
             for who, text, turns in conversation.observations]
    for i in range(0, len(facts), BATCH):
        await gql(ASSERT, ns=ns, facts=facts[i:i + BATCH])
    return len(facts)


async def ingested(db: Database, ns: str, conversation: Conversation) -> bool:
    """Whether a kept run already holds every turn of ``conversation`` (see ``--run``)."""
    async with db.driver.session() as session:
        result = await session.run("MATCH (e:Episode {ns: $ns}) RETURN count(e) AS n", {"ns": ns})
        return (await result.single() or {"n": 0})["n"] == len(conversation.turns)


async def embedded(db: Database, settings: Settings) -> None:
    """Embed what waits, here and now. The service's worker embeds at the lowest priority,
    which on a busy machine is close to never; the bench waits for it anyway. A batch a
    stopped service's worker still holds (a claim whose answer its shutdown cut off) is
    taken here when the lease runs out: waiting on the count alone would wait forever."""
    embedder = embeddings.make_embedder(settings)
    if embedder is None:
        while await embeddings.pending_count(db):
            await asyncio.sleep(0.5)
        return
    embed = embedder.embed
    embedder.embed_backlog = (  # type: ignore[method-assign]
        lambda texts, background: embed(texts))
    await embeddings.embed_all_pending(db, embedder, 64)  # returns once nothing waits


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--locomo", type=Path, required=True)
    parser.add_argument("--summaries", action="store_true",
                        help="also write LoCoMo's session summaries as summaries")
    parser.add_argument("--observations", action="store_true",
                        help="also write LoCoMo's session observations as facts")
    parser.add_argument("--ablate", action="store_true",
                        help="search in-process with one part of the pipeline off at a time")
    parser.add_argument("--run", help="the run's name in its namespaces (default: random)")
    parser.add_argument("--keep", action="store_true", help="keep the namespaces afterwards")
    parser.add_argument("--keep-store", action="store_true",
                        help="reuse the bench Neo4j's store instead of starting empty")
    parser.add_argument("--loco-only", action="store_true",
                        help="only leave-one-out, scored in-process (with --run ID --keep "
                             "--keep-store: a loop for trying fusion changes)")
    parser.add_argument("--cache", type=Path,
                        help="keep the retrievals the fits re-rank in this file between runs")
    args = parser.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request otherwise
    logging.getLogger("graphmem.access").setLevel(logging.WARNING)
    conversations = load(args.locomo)
    settings = get_settings()
    server = LocalNeo4j.from_settings(settings)
    # An empty store: BM25's statistics (how rare a word is, how long a document) span the
    # whole index, so other namespaces' data moves these figures by a few points.
    server.start() if args.keep_store else fresh_local_neo4j(server)
    db = await connect(settings)
    run = args.run or uuid.uuid4().hex[:6]
    names = {c.name: f"bench/locomo-{run}/{c.name}" for c in conversations}
    search_table, recall_table = Table(), Table()
    latencies: list[float] = []
    try:
        async with serving(settings, db, "bench-locomo") as gql:
            started = time.perf_counter()
            for c in conversations:
                if not await ingested(db, names[c.name], c):
                    await ingest(gql, names[c.name], c, args.summaries)
            made = [await extract(gql, db, names[c.name]) for c in conversations]
            if args.observations:
                made += [await observe(gql, db, names[c.name], c) for c in conversations]
            await embedded(db, settings)
            print(f"ingested {sum(len(c.turns) for c in conversations)} turns of "
                  f"{len(conversations)} conversations in {time.perf_counter() - started:.1f} s "
                  f"(embedded; {sum(made)} facts written by this run)"
                  f"{' with LoCoMo session summaries' if args.summaries else ''}")
            started = time.perf_counter()
            for c in conversations if not args.loco_only else ():
                await ask(gql, names[c.name], c, search_table, recall_table, latencies)
            print(f"asked every question in {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        await leave_one_out(db, settings, conversations, names, args.cache, args.loco_only)
        print(f"\nleave-one-out and full fit in {time.perf_counter() - started:.1f} s")
        if args.ablate:
            await ablate(db, settings, conversations, names)
    finally:
        if not args.keep:
            await delete_namespaces(db, list(names.values()), key_name="bench-locomo")
        await db.close()
    if args.loco_only:
        return
    questions = sum(len(c.questions) for c in conversations)
    print(f"\n{questions} questions (categories 1-4 with evidence), turn-level evidence recall")
    search_table.print("search / baseline, recall@k")
    recall_table.print("recall, tokenBudget 1000")
    latencies.sort()
    print(f"\nsearch latency over GraphQL in-process (episodes and all kinds): "
          f"p50 {latencies[len(latencies) // 2] * 1000:.1f} ms, "
          f"p95 {latencies[int(len(latencies) * 0.95)] * 1000:.1f} ms")


async def ask(gql: GraphQL, ns: str, c: Conversation, search_table: Table,
              recall_table: Table, latencies: list[float]) -> None:
    plain = [t.content for t in c.turns]
    with_previous = [(c.turns[i - 1].content + " " if i and c.turns[i - 1].session == t.session
                      else "") + t.content for i, t in enumerate(c.turns)]
    ref = c.reference.isoformat()
    for q in c.questions:
        for label, docs in (("BM25 over turns (baseline)", plain),
                            ("BM25, turn + previous turn (baseline)", with_previous)):
            ranked = [c.turns[i].id for i in bm25_ranking(docs, q.text)]
            for k in (5, 10):
                search_table.add(f"{label} R@{k}", q.category,
                                 evidence_recall(ranked, q.evidence, k))
        for label, kinds in (("search(kinds: [EPISODE])", ["EPISODE"]),
                             ("search, all kinds", None)):
            started = time.perf_counter()
            body = await gql(SEARCH, ns=ns, q=q.text, kinds=kinds, ref=ref)
            latencies.append(time.perf_counter() - started)
            per_hit = turns_of(body["data"]["search"]["hits"])
            for k in (5, 10):
                search_table.add(f"{label} R@{k}", q.category, at_k(per_hit, q.evidence, k))
        body = await gql(RECALL, ns=ns, q=q.text, ref=ref)
        delivered = turns_of(body["data"]["recall"]["pieces"])
        share = at_k(delivered, q.evidence, len(delivered))
        recall_table.add("evidence delivered (mean share)", q.category, share)
        recall_table.add("questions with all evidence delivered", q.category, float(share == 1))


async def leave_one_out(db: Database, settings: Settings, conversations: list[Conversation],
                        names: dict[str, str], cache: Path | None = None,
                        in_process: bool = False) -> None:
    """The headline: per conversation, weights fitted on the others and scored on it through
    GraphQL; beside it the full fit (fitted on all, scored on all) and the defaults.
    ``in_process``: scored on the fits' own retrievals instead (the same figures while the
    service ranks as ``engine.rank`` does, in seconds)."""
    retrievals = loco.Retrievals(db, settings, embeddings.make_embedder(settings), names,
                                 {c.name: c.reference for c in conversations})
    await retrievals.load_ids()
    if cache is not None:
        retrievals.load(cache)
    try:
        await _leave_one_out(db, settings, conversations, names, retrievals, in_process)
    finally:
        if cache is not None:
            retrievals.save(cache)


async def _leave_one_out(db: Database, settings: Settings, conversations: list[Conversation],
                         names: dict[str, str], retrievals: loco.Retrievals,
                         in_process: bool) -> None:
    asked = {c.name: [loco.Asked(c.name, q.text, q.evidence, q.category) for q in c.questions]
             for c in conversations}
    every = [a for c in conversations for a in asked[c.name]]
    defaults, start = settings.search_weights, loco.START

    async def scored(weights: SearchWeights, c: Conversation) -> list[tuple[loco.Asked, float]]:
        if not in_process:
            return await scored_over_graphql(db, settings, weights, c, names[c.name], asked)
        await retrievals.prepare(asked[c.name], weights)
        return [(a, loco.recall_at(retrievals.ranked(a, weights), a.evidence, 10))
                for a in asked[c.name]]

    left_out: dict[str, dict[str, float]] = {}
    for c in conversations:
        others = [a for a in every if a.conversation != c.name]
        weights = await loco.fit(retrievals, others, start)
        left_out[f"{c.name} ({loco.changed(weights, start)})"] = loco.cells(
            await scored(weights, c))
    full = await loco.fit(retrievals, every, start)
    full_fit, default = {}, {}
    await retrievals.prepare(every, defaults)
    for c in conversations:
        full_fit[c.name] = loco.cells(await scored(full, c))
        default[c.name] = loco.cells([(a, loco.recall_at(retrievals.ranked(a, defaults),
                                                           a.evidence, 10))
                                      for a in asked[c.name]])
    loco.print_table("LEAVE-ONE-CONVERSATION-OUT, search(kinds: [EPISODE]) R@10: weights "
                     "fitted on the other two (what the fit changed from loco.START)"
                     f"{', in-process' if in_process else ''}",
                     {**left_out, **loco.mean_and_worst(left_out)})
    loco.print_table(f"full fit (fitted on all three: {loco.changed(full, start)}; the defaults "
                     f"are {'these' if full == defaults else 'NOT these'}), R@10",
                     {**full_fit, **loco.mean_and_worst(full_fit)})
    loco.print_table("the defaults (SearchWeights()), R@10, in-process",
                     {**default, **loco.mean_and_worst(default)})
    await loco.contributions(retrievals, asked, start, loco.ADDED)


async def scored_over_graphql(db: Database, settings: Settings, weights: SearchWeights,
                              c: Conversation, ns: str, asked: dict[str, list[loco.Asked]]
                              ) -> list[tuple[loco.Asked, float]]:
    """R@10 of each of ``c``'s questions asked of a service whose settings carry ``weights``."""
    scored = []
    with_weights = settings.model_copy(update={"search_weights": weights})
    async with serving(with_weights, db, "bench-locomo") as gql:
        for a in asked[c.name]:
            body = await gql(SEARCH, ns=ns, q=a.text, kinds=["EPISODE"],
                             ref=c.reference.isoformat())
            per_hit = turns_of(body["data"]["search"]["hits"])
            scored.append((a, at_k(per_hit, a.evidence, 10)))
    return scored


ABLATIONS: dict[str, dict[str, Any]] = {
    "full pipeline": {},
    "no speaker boost": {"weights": {"speaker": 0.0}},
    "no session prior": {"weights": {"session": 0.0}},
    "no time prior": {"weights": {"time": 0.0}},
    "no own-words boost (window only)": {"weights": {"own_words": 0.0}},
    "no vectors": {"retrievers": {"bm25", "graph"}},
    "vectors only": {"retrievers": {"vector", "graph"}},
}


async def episode_recall(db: Database, settings: Any, conversations: list[Conversation],
                         names: dict[str, str], weights: Any,
                         retrievers: frozenset[str] = frozenset({"bm25", "vector", "graph"}),
                         table: Table | None = None, label: str = "") -> tuple[float, float]:
    """Mean R@5 and R@10 of in-process `search(kinds: [EPISODE])` under ``weights``."""
    embedder = embeddings.make_embedder(settings) if "vector" in retrievers else None
    at5, at10 = [], []
    for c in conversations:
        for q in c.questions:
            found = await search(db, Namespace(names[c.name]), SearchQuery(
                q.text, limit=10, kinds=(Kind.EPISODE,), reference_time=c.reference,
                min_similarity=settings.vector_min_similarity, weights=weights,
                retrievers=retrievers), embedder)
            ranked = [h.episode.external_id or "" for h in found.hits if h.episode]
            at5.append(evidence_recall(ranked, q.evidence, 5))
            at10.append(evidence_recall(ranked, q.evidence, 10))
            if table is not None:
                table.add(f"{label} R@5", q.category, at5[-1])
                table.add(f"{label} R@10", q.category, at10[-1])
    return _mean(at5), _mean(at10)


async def ablate(db: Database, settings: Any, conversations: list[Conversation],
                 names: dict[str, str]) -> None:
    """The pipeline with one part off at a time, in-process (weights are process settings)."""
    table = Table()
    for label, change in ABLATIONS.items():
        weights = settings.search_weights.model_copy(update=change.get("weights", {}))
        retrievers = frozenset(change.get("retrievers", {"bm25", "vector", "graph"}))
        await episode_recall(db, settings, conversations, names, weights, retrievers,
                             table, label)
    table.print("ablation: search(kinds: [EPISODE]) in-process, one part off at a time")


if __name__ == "__main__":
    asyncio.run(main())
