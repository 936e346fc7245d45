"""Retrieval evaluation: does search find the episode that answers a question?

    bin/bench retrieval [--users 4] [--sessions 40] [--seed 7]

A seeded generator writes multi-session synthetic conversations for several users (one
namespace each): thirty personal details stated once each (dentist, passport drawer, cat's
name…) and two that change over time (city, employer), among distractors (chit-chat, friends'
cities and employers, agent replies); the agent asserts the changing facts with the episodes
as evidence. Questions of four types each name the one episode that answers them:

- keyword: shares the statement's distinctive words ("Who is my dentist?")
- paraphrase: shares none of them ("Who looks after my teeth?")
- temporal: the keyword question plus "as I said yesterday", against a reference time
- current: the newest of several statements ("Where do I live now?")
- elliptic: an answer that needs the turn before it ("Porto, next month." after "Which city
  are you moving to?"), found because each turn is indexed with the one before it

Reported: recall@5 and @10 of the answering episode, per question type, for BM25 alone,
vector alone, BM25 + vector, and the full fusion with graph expansion.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("GRAPHMEM_HOME", str(ROOT / ".graphmem" / "bench"))
os.environ.setdefault("GRAPHMEM_LOCAL_BOLT_PORT", "27687")
os.environ.setdefault("GRAPHMEM_LOCAL_HTTP_PORT", "27474")

from graphmem.core.config import SearchWeights, get_settings  # noqa: E402
from graphmem.core.namespaces import Namespace  # noqa: E402
from graphmem.db import migrations  # noqa: E402
from graphmem.db.database import Database, connect  # noqa: E402
from graphmem.episodes import store as episodes  # noqa: E402
from graphmem.episodes.store import EpisodeKind, NewEpisode  # noqa: E402
from graphmem.facts import provenance  # noqa: E402
from graphmem.facts import store as facts  # noqa: E402
from graphmem.facts.model import Source  # noqa: E402
from graphmem.local_neo4j import LocalNeo4j  # noqa: E402
from graphmem.retrieval import embeddings  # noqa: E402
from graphmem.retrieval.recall import RecallQuery, recall  # noqa: E402
from graphmem.retrieval.search import Kind, SearchQuery, search  # noqa: E402

# (statement, question sharing its words, question sharing none of its content words)
ATTRIBUTES = [
    ("My dentist is Dr. Okafor, on the corner of the market.", "Who is my dentist?",
     "Who looks after my teeth?"),
    ("My sister Leonor is getting married in the spring.", "Who is getting married?",
     "Which relative has a wedding coming up?"),
    ("I keep my passport in the blue drawer of the desk.", "Where do I keep my passport?",
     "Where are my travel documents stored?"),
    ("My favourite film is Spirited Away.", "What is my favourite film?",
     "Which movie do I love most?"),
    ("I'm allergic to peanuts, so be careful with recipes.", "What am I allergic to?",
     "Which food could make me ill?"),
    ("My landlord is called Mr. Duarte and he is very slow to fix things.",
     "What is my landlord called?", "Who owns the place I rent?"),
    ("We adopted a cat and named her Miso.", "What did we name the cat?",
     "What's my kitten called?"),
    ("I started pottery classes on Saturday mornings.", "When are my pottery classes?",
     "Do I do anything with clay?"),
    ("My manager Ingrid wants the quarterly report by Friday.", "When does Ingrid want the "
     "report?", "What deadline did my boss set?"),
    ("My bike is a green Brompton that folds.", "What kind of bike do I have?",
     "What do I cycle on?"),
    ("I drink my coffee black with no sugar.", "How do I take my coffee?",
     "What's my usual morning drink order?"),
    ("My daughter's school is Escola da Ponte.", "Which school does my daughter attend?",
     "Where does my kid study?"),
    ("I'm training for the Berlin marathon in September.", "Which marathon am I training for?",
     "What long race is coming up for me?"),
    ("The wifi password at home is on a sticker under the router.",
     "Where is the wifi password?", "How do guests get online at my place?"),
    ("My car is a 2015 Toyota Yaris, silver.", "What car do I drive?",
     "What vehicle do I own?"),
    ("I play the cello in an amateur orchestra.", "Which instrument do I play?",
     "What music do I make?"),
    ("My blood type is O negative.", "What is my blood type?",
     "What should a hospital know before a transfusion?"),
    ("I'm vegetarian since last year.", "Am I vegetarian?", "Do I eat meat?"),
    ("My best friend Tomasz lives in Gdansk.", "Where does Tomasz live?",
     "In which town is my closest friend?"),
    ("My gym membership renews on the 3rd of each month.", "When does my gym membership "
     "renew?", "When will the fitness club charge me again?"),
    ("My favourite band is Radiohead.", "What is my favourite band?",
     "Which group do I listen to the most?"),
    ("I'm learning Japanese with an app every evening.", "Which language am I learning?",
     "What am I studying at night on my phone?"),
    ("My grandmother's birthday is on the 14th of July.", "When is my grandmother's birthday?",
     "When should I send granny a card?"),
    ("I take my allergy pills at 8 in the morning.", "When do I take my allergy pills?",
     "What time is my daily medication?"),
    ("Our neighbour Sofia waters the plants when we travel.", "Who waters the plants?",
     "Who looks after the greenery when we're away?"),
    ("I'm saving up for a sailing course in Greece.", "What am I saving up for?",
     "What boating plan do I have?"),
    ("My shoe size is 42 EU.", "What is my shoe size?", "What size footwear should you buy "
     "me?"),
    ("My accountant is Priya Raman from Raman & Co.", "Who is my accountant?",
     "Who does my taxes?"),
    ("I volunteer at the food bank on Tuesdays.", "Where do I volunteer?",
     "What charity work do I do each week?"),
    ("My phone is a Pixel 8 with a cracked screen.", "What phone do I have?",
     "Which mobile device do I use?"),
]
# Elliptic answers: the user's turn only makes sense after the agent's question before it.
ELLIPTIC = [
    ("Which city are you moving to?", "Porto, at the end of next month.",
     "Where am I moving to?"),
    ("What breed is the new puppy?", "A border collie, very energetic.",
     "What breed is my puppy?"),
    ("Who is your new dentist?", "Dr. Almeida, near the station.", "Who is my new dentist?"),
    ("What instrument does your son play?", "The trumpet, since September.",
     "Which instrument does my son play?"),
    ("Where is the wedding going to be?", "In a vineyard outside Mendoza.",
     "Where is the wedding?"),
    ("What is your daughter allergic to?", "Shellfish, quite severely.",
     "What is my daughter allergic to?"),
    ("Which airline are you flying with?", "TAP, the early morning flight.",
     "Which airline am I flying with?"),
    ("What's your new manager's name?", "Henrik, he started on Monday.",
     "What's my new manager's name?"),
]
CURRENT = [  # an attribute that changes: every value is stated, the newest is the answer
    ("I live in {} now.", "Where do I live now?", "lives_in",
     ["Lisbon", "Porto", "Madrid", "Valencia"]),
    ("I work at {} these days.", "Where do I work now?", "works_at",
     ["Acme Robotics", "Globex", "Initech", "Hooli"]),
]
CHATTER = ["Can you summarise this article for me?", "What's a good recipe for dinner?",
           "Remind me to call the bank tomorrow.", "How do I fix a flaky unit test?",
           "Write a short poem about autumn.", "What's the capital of Australia?",
           "Translate 'good morning' into German.", "Thanks, that helps a lot!",
           "My friend just moved to Turin, she loves it.", "My brother works at Vandelay.",
           "Is Krakow nice to visit in winter?", "I read that Umbrella Labs is hiring.",
           "Any tips for a birthday present for a colleague?", "What's the weather tomorrow?",
           "How long should I boil an egg?", "Recommend a good podcast about history."]
REPLIES = ["Got it.", "Sure, here you go.", "Noted, thanks for telling me.", "Happy to help!"]


@dataclass(frozen=True)
class Question:
    kind: str
    text: str
    answer: str  # the external id of the episode that answers it
    reference: datetime


def generate(users: int, sessions: int, seed: int
             ) -> list[tuple[str, list[NewEpisode], list[facts.NewFact], list[Question]]]:
    """Per user: their episodes, the facts an agent asserted, and the questions."""
    rng = random.Random(seed)
    return [_user(rng, f"user-{u}", sessions) for u in range(users)]


def _user(rng: random.Random, user: str, sessions: int
          ) -> tuple[str, list[NewEpisode], list[facts.NewFact], list[Question]]:
    eps: list[NewEpisode] = []
    stated: list[facts.NewFact] = []
    questions: list[Question] = []
    start = datetime(2026, 1, 5, 9, tzinfo=UTC)
    # Where each statement goes: attributes once each, changing ones spread in order.
    slots = rng.sample(range(sessions), len(ATTRIBUTES))
    changes: dict[int, list[tuple[str, str, str, str]]] = {}
    for template, question, predicate, values in CURRENT:
        for when, value in zip(sorted(rng.sample(range(sessions), len(values))), values,
                               strict=True):
            changes.setdefault(when, []).append((template, question, predicate, value))
    by_session = {slot: attribute for slot, attribute in zip(slots, ATTRIBUTES, strict=True)}
    elliptic = dict(zip(rng.sample(range(sessions), len(ELLIPTIC)), ELLIPTIC, strict=True))
    latest: dict[str, tuple[str, datetime]] = {}
    for s in range(sessions):
        day = start + timedelta(days=2 * s)
        lines: list[tuple[str, str]] = []
        for _ in range(rng.randint(5, 7)):
            lines.append(("user", rng.choice(CHATTER)))
            lines.append(("assistant", rng.choice(REPLIES)))
        special = rng.randrange(1, len(lines)) if lines else 0
        for i, (actor, text) in enumerate(lines):
            ext = f"{user}-s{s}-t{i}"
            if i == special and s in by_session:
                text = by_session[s][0]
            eps.append(NewEpisode(content=text, occurred_at=day + timedelta(minutes=2 * i),
                                  kind=EpisodeKind.USER_MESSAGE if actor == "user"
                                  else EpisodeKind.AGENT_MESSAGE, actor=actor,
                                  session_id=f"session-{s}", external_id=ext))
            if i == special and s in by_session:
                _statement, keyword, paraphrase = by_session[s]
                after = day + timedelta(days=20)
                questions += [Question("keyword", keyword, ext, after),
                              Question("paraphrase", paraphrase, ext, after),
                              Question("temporal", f"{keyword[:-1]}, as I said yesterday?",
                                       ext, day + timedelta(days=1, hours=2))]
        if s in elliptic:
            asked, answered, question = elliptic[s]
            base = day + timedelta(minutes=2 * len(lines))
            for i, (actor, text) in enumerate((("assistant", asked), ("user", answered))):
                eps.append(NewEpisode(content=text, occurred_at=base + timedelta(seconds=i),
                                      kind=EpisodeKind.AGENT_MESSAGE if i == 0
                                      else EpisodeKind.USER_MESSAGE, actor=actor,
                                      session_id=f"session-{s}",
                                      external_id=f"{user}-s{s}-elliptic-{i}"))
            questions.append(Question("elliptic", question, f"{user}-s{s}-elliptic-1",
                                      day + timedelta(days=20)))
        for template, question, predicate, value in changes.get(s, []):
            ext = f"{user}-s{s}-change-{predicate}"
            moment = day + timedelta(minutes=2 * len(lines))
            eps.append(NewEpisode(content=template.format(value), occurred_at=moment,
                                  kind=EpisodeKind.USER_MESSAGE, actor="user",
                                  session_id=f"session-{s}", external_id=ext))
            stated.append(facts.NewFact("user", predicate, value, evidence=[ext],
                                        valid_from=moment, source=Source.USER_STATEMENT))
            latest[question] = (ext, moment)
    for question, (ext, moment) in latest.items():
        questions.append(Question("current", question, ext, moment + timedelta(days=10)))
    return user, eps, stated, questions


ALL = {"bm25", "vector", "graph"}
DEFAULT = SearchWeights()
MODES: dict[str, tuple[set[str], SearchWeights]] = {
    "bm25": ({"bm25"}, DEFAULT),
    "vector": ({"vector"}, DEFAULT),
    "bm25+vector": ({"bm25", "vector"}, DEFAULT),
    "all, vector 1.0": (ALL, DEFAULT.model_copy(update={"vector": 1.0})),
    "all, no priors": (ALL, DEFAULT.model_copy(update={"session": 0.0, "time": 0.0})),
    "all (search's default)": (ALL, DEFAULT),
}


async def evaluate(db: Database, questions: list[tuple[Namespace, Question]],
                   embedder: embeddings.Embedder) -> dict[str, dict[str, tuple[float, float]]]:
    table: dict[str, dict[str, tuple[float, float]]] = {}
    for mode, (retrievers, weights) in MODES.items():
        found: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
        for ns, q in questions:
            result = await search(db, ns, SearchQuery(
                text=q.text, limit=30, kinds=(Kind.EPISODE, Kind.FACT, Kind.ENTITY),
                reference_time=q.reference, retrievers=frozenset(retrievers),
                weights=weights), embedder)
            ranked = [h.episode.external_id for h in result.hits if h.episode]
            found[q.kind].append((q.answer in ranked[:5], q.answer in ranked[:10]))
            found["all"].append((q.answer in ranked[:5], q.answer in ranked[:10]))
        table[mode] = {kind: (sum(a for a, _ in v) / len(v), sum(b for _, b in v) / len(v))
                       for kind, v in found.items()}
    return table


async def evaluate_recall(db: Database, questions: list[tuple[Namespace, Question]],
                          embedder: embeddings.Embedder) -> dict[str, tuple[float, float, float]]:
    """Per question type: how often recall's router ran the episode layer, how often the
    answer was given (the episode among the pieces, or a fact piece evidenced by it), and the
    mean tokens used (budget 500)."""
    seen: dict[str, list[tuple[bool, bool, int]]] = defaultdict(list)
    for ns, q in questions:
        found = await recall(db, ns, RecallQuery(q.text, reference_time=q.reference,
                                                 token_budget=500), embedder)
        ran = any(step.layer == "episodes" and step.ran for step in found.plan)
        facts_shown = [p.fact.id for p in found.pieces if p.fact]
        evidence = await provenance.evidence_of(db, ns, facts_shown) if facts_shown else []
        answered = any(p.episode and p.episode.external_id == q.answer for p in found.pieces) \
            or any(e.episode.external_id == q.answer for items in evidence for e in items)
        for key in (q.kind, "all"):
            seen[key].append((ran, answered, found.tokens_used))
    return {k: (sum(r for r, _, _ in v) / len(v), sum(a for _, a, _ in v) / len(v),
                sum(t for _, _, t in v) / len(v)) for k, v in seen.items()}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--sessions", type=int, default=44)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    settings = get_settings()
    LocalNeo4j.from_settings(settings).start()
    db = await connect(settings)
    await migrations.apply(db)
    embedder = embeddings.make_embedder(settings)
    assert embedder is not None, "the evaluation needs an embedder (GRAPHMEM_EMBEDDER)"
    await embeddings.ensure_space(db, embedder)
    began = time.perf_counter()
    everyone = generate(args.users, args.sessions, args.seed)
    totals = [0, 0]
    asked: list[tuple[Namespace, Question]] = []
    for user, eps, stated, questions in everyone:
        ns = Namespace(f"eval/{args.seed}/{user}")
        await _reset(db, ns)
        for i in range(0, len(eps), 500):
            await episodes.record(db, ns, eps[i:i + 500])
        for fact in stated:  # one at a time, in time order, as an agent would
            await facts.assert_facts(db, ns, [fact])
        totals[0] += len(eps)
        totals[1] += len(stated)
        asked += [(ns, q) for q in questions]
    await embeddings.embed_all_pending(db, embedder, 256)
    print(f"\n{args.users} users, {totals[0]} episodes, {totals[1]} facts, {len(asked)} "
          f"questions (seed {args.seed}); loaded and embedded in "
          f"{time.perf_counter() - began:.1f}s\n")
    table = await evaluate(db, asked, embedder)
    kinds = sorted({k for row in table.values() for k in row}, key=lambda k: (k == "all", k))
    print("recall@5 / recall@10 of the answering episode\n")
    print(f"{'retrievers':<14}" + "".join(f"{k:>14}" for k in kinds))
    for mode, row in table.items():
        print(f"{mode:<14}" + "".join(f"{row[k][0]:>7.2f} /{row[k][1]:5.2f}" for k in kinds))
    routed = await evaluate_recall(db, asked, embedder)
    print("\nrecall (budget 500 tokens): episode layer ran / answer given (its episode, or a "
          "fact it evidences) / mean tokens\n")
    for kind in kinds:
        ran, answered, used = routed[kind]
        print(f"{kind:<14}{ran:>8.2f} /{answered:5.2f} /{used:6.0f}")
    counts: dict[str, int] = defaultdict(int)
    for _, q in asked:
        counts[q.kind] += 1
    print("\nquestions per type: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    await db.close()


async def _reset(db: Database, ns: Namespace) -> None:
    async with db.driver.session(database=db.name) as session:
        await (await session.run("MATCH (n {ns: $ns}) CALL (n) { DETACH DELETE n } "
                                 "IN TRANSACTIONS OF 2000 ROWS", {"ns": ns})).consume()


if __name__ == "__main__":
    asyncio.run(main())
