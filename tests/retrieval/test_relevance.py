"""relevance: facts scored against a question. The table below is how ``KEEP`` was chosen:
varied questions about one person's varied facts, each with the facts an answer needs and
facts it must not list (run with the suite's embedder, WordLlama, and checked by hand with
the default sentence transformer: ``python -m tests.retrieval.test_relevance``)."""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from graphmem.core.config import DEFAULT_SEARCH_WEIGHTS
from graphmem.facts.model import Fact, FactStatus, Source
from graphmem.retrieval import relevance
from graphmem.retrieval.embeddings import Embedder, WordLlamaEmbedder

PROFILE = [  # (predicate, object, evidence: the turn it was learned from, if any)
    ("works_at", "Acme Robotics", "I started at Acme Robotics last month"),
    ("lives_in", "Berlin", ""),
    ("allergic_to", "peanuts", "I'm allergic to peanuts, so no satay for me"),
    ("likes", "bouldering", "Der Kegel is my favourite bouldering gym, I go every Friday"),
    ("favourite_gym", "Der Kegel", "Der Kegel is my favourite bouldering gym, I go every Friday"),
    ("favourite_food", "ramen", "Ramen beats any other food"),
    ("sister", "Ana", "My sister Ana is a nurse at St Mary's Hospital"),
    ("owns", "Rex", "We adopted Rex, a beagle, in May"),
    ("speaks", "German", ""),
    ("plays", "guitar", "I've played guitar in a band since school"),
    ("birthday", "14 March", ""),
    ("drives", "a red Volvo", ""),
    ("studied", "mechanical engineering", "I studied mechanical engineering in Aachen"),
    ("dentist", "Dr. Okafor", ""),
    ("age", "34", ""),
]


@dataclass(frozen=True)
class Case:
    question: str
    first: str  # the object of the fact that must come first
    also: tuple[str, ...] = ()  # objects that must be offered too
    never: tuple[str, ...] = ()  # objects that must be left out


CASES = [
    Case("What is Sam allergic to?", "peanuts", never=("bouldering", "Berlin", "ramen")),
    Case("What food does Sam like?", "ramen", never=("Berlin", "German", "Acme Robotics")),
    Case("Where can I go bouldering?", "bouldering", also=("Der Kegel",),
         never=("peanuts", "ramen", "Acme Robotics")),
    Case("Where do I work?", "Acme Robotics", never=("bouldering", "ramen", "guitar")),
    Case("Where do I live these days?", "Berlin", never=("peanuts", "guitar", "Rex")),
    Case("What instrument do I play?", "guitar", never=("Berlin", "peanuts", "Acme Robotics")),
    Case("When is my birthday?", "14 March", never=("Berlin", "bouldering", "ramen")),
    Case("What car do I drive?", "a red Volvo", never=("peanuts", "guitar", "Ana")),
    Case("What did I study at university?", "mechanical engineering",
         never=("peanuts", "Rex", "bouldering")),
    Case("Who is my dentist?", "Dr. Okafor", never=("bouldering", "ramen", "a red Volvo")),
    Case("Which languages do I speak?", "German", never=("peanuts", "bouldering", "Rex")),
    Case("Is my sister coming?", "Ana", never=("peanuts", "guitar", "a red Volvo")),
    Case("Should I bring satay to the party?", "peanuts", never=("Berlin", "a red Volvo")),
    Case("Which band do I play in?", "guitar", never=("Berlin", "ramen", "Dr. Okafor")),
    Case("Tell me about Sam's beagle", "Rex", never=("Berlin", "ramen", "German")),
]


def facts() -> list[Fact]:
    now = datetime(2026, 11, 2, tzinfo=UTC)
    return [Fact(id=f"f{i}", namespace="t", subject="Sam", predicate=p, object=o,
                 object_kind="entity", text=f"Sam {p.replace('_', ' ')} {o}", confidence=1.0,
                 source=Source.USER_STATEMENT, status=FactStatus.ACTIVE, valid_from=None,
                 valid_to=None, recorded_at=now, retracted_at=None, asserted_by=None,
                 reason=None) for i, (p, o, _) in enumerate(PROFILE)]


async def offered(case: Case, embedder: Embedder) -> tuple[list[str], list[str]]:
    """(objects offered, best first; objects left out)."""
    candidates = facts()
    [asked] = await embedder.embed_queries([case.question])
    similarities = [relevance.cosine(asked, v)
                    for v in await embedder.embed([f.text for f in candidates])]
    evidence = {f.id: turn for f, (_, _, turn) in zip(candidates, PROFILE, strict=True) if turn}
    scored = relevance.score(relevance.stems(case.question), candidates,
                             DEFAULT_SEARCH_WEIGHTS, similarities, evidence,
                             names=relevance.stems("Sam"))
    kept, left = relevance.kept(scored)
    return [s.fact.object for s in kept], [s.fact.object for s in left]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.question)
async def test_the_facts_a_question_needs_and_not_the_rest(case: Case) -> None:
    kept, left = await offered(case, WordLlamaEmbedder())
    assert kept[0] == case.first
    assert set(case.also) <= set(kept)
    assert set(case.never) <= set(left)


SISTER = [("works_at", "St Mary's Hospital"), ("lives_in", "Munich"), ("likes", "tennis"),
          ("owns", "a grey cat"), ("birthday", "2 May"), ("married_to", "Tom")]
HOPS = [("What's my sister's job?", "St Mary's Hospital"),
        ("Where does my sister live?", "Munich"),
        ("What sport does my sister play?", "tennis"),
        ("Does my sister have pets?", "a grey cat"),
        ("Who is my sister's husband?", "Tom"),
        ("When is my sister's birthday?", "2 May"),
        ("Where is my sister employed?", "St Mary's Hospital")]


@pytest.mark.parametrize(("question", "answer"), HOPS)
async def test_a_second_hop_offers_what_the_rest_of_the_question_asks(question: str,
                                                                      answer: str) -> None:
    """"Sam sister Ana" met "sister"; Ana's facts are asked the rest ("job")."""
    ana = [dataclasses.replace(facts()[0], id=f"a{i}", subject="Ana", predicate=p, object=o,
                               text=f"Ana {p.replace('_', ' ')} {o}")
           for i, (p, o) in enumerate(SISTER)]
    rest = relevance.stems(question) - relevance.stems("sister Ana")
    vectors = await WordLlamaEmbedder().embed([relevance.words_for(question, rest),
                                               *(f.text for f in ana)])
    scored = relevance.score(rest, ana, DEFAULT_SEARCH_WEIGHTS,
                             [relevance.cosine(vectors[0], v) for v in vectors[1:]])
    assert [s.fact.object for s in relevance.best_of(scored)] == [answer]


def test_stems_drop_question_words() -> None:
    assert relevance.stems("What's my sister's job?") == {"sist", "job"}
    assert relevance.stems("Where do I live?") == {"live"}


# Questions no fact's words meet: the vectors choose, and the answer must be among the few
# they put near the best (``UNMET_KEEP``); what the question does not ask must be left out.
UNMET = [
    Case("How old am I?", "34", never=("bouldering", "Berlin", "guitar")),
    Case("Do I have any pets?", "", also=("Rex",), never=("Berlin", "34", "German")),
    Case("What's my job?", "Acme Robotics", never=("14 March", "German", "guitar")),
    Case("Where is my home?", "", also=("Berlin",), never=("guitar", "14 March", "34")),
    Case("Which doctor looks after my teeth?", "Dr. Okafor",
         never=("guitar", "Berlin", "bouldering")),
    Case("What should I avoid eating?", "", also=("peanuts",), never=("Acme Robotics", "34")),
    Case("What vehicle do I have?", "", also=("a red Volvo",),
         never=("Berlin", "German", "14 March")),
    Case("Who is my sibling?", "Ana", never=("Berlin", "guitar", "a red Volvo")),
    Case("Which cuisine do I enjoy most?", "ramen", never=("Berlin", "34", "a red Volvo")),
    Case("What music do I make?", "guitar", never=("Berlin", "peanuts", "Acme Robotics")),
]


@pytest.mark.parametrize("case", UNMET, ids=lambda c: c.question)
async def test_what_no_words_meet_is_left_to_the_vectors_best(case: Case) -> None:
    kept, left = await offered(case, WordLlamaEmbedder())
    assert not case.first or kept[0] == case.first
    assert set(case.also) <= set(kept)
    assert set(case.never) <= set(left)
    assert len(left) >= 5  # never the whole profile (before: all of it, every time)


def test_a_question_that_asks_nothing_in_particular_is_offered_everything() -> None:
    scored = relevance.score(frozenset(), facts()[:3], DEFAULT_SEARCH_WEIGHTS, [0.9, 0.1, 0.0])
    assert relevance.kept(scored, asks=False) == (scored, [])
    assert relevance.stems("Tell me everything about myself") == frozenset()


def test_without_vectors_every_fact_is_offered_when_none_bears() -> None:
    scored = relevance.score(frozenset({"vacu"}), facts()[:3], DEFAULT_SEARCH_WEIGHTS)
    assert relevance.kept(scored) == (scored, [])  # nothing tells them apart


def test_a_pinned_fact_is_offered_though_it_bears_on_nothing_asked() -> None:
    """Pinned means always remember: offered with those that bear on the question."""
    candidates = facts()
    volvo = next(i for i, f in enumerate(candidates) if f.object == "a red Volvo")
    candidates[volvo] = dataclasses.replace(candidates[volvo],
                                            pinned_at=datetime(2026, 11, 1, tzinfo=UTC))
    scored = relevance.score(relevance.stems("What is Sam allergic to?"), candidates,
                             DEFAULT_SEARCH_WEIGHTS, names=relevance.stems("Sam"))
    kept, left = relevance.kept(scored)
    assert {s.fact.object for s in kept} == {"peanuts", "a red Volvo"}
    assert "a red Volvo" not in {s.fact.object for s in left}


def test_a_fact_does_not_bear_on_a_question_by_the_name_it_links() -> None:
    """The names a question links chose whose facts these are: "Ana sister Sam" does not bear
    on "What is Sam allergic to?" for saying "Sam"."""
    ana = dataclasses.replace(facts()[0], id="a0", subject="Ana", predicate="sister",
                              object="Sam", text="Ana sister Sam")
    scored = relevance.score(relevance.stems("What is Sam allergic to?"), [*facts(), ana],
                             DEFAULT_SEARCH_WEIGHTS, names=relevance.stems("Sam"))
    assert {s.fact.id: s.words for s in scored}["a0"] == 0.0
    kept, left = relevance.kept(scored)
    assert [s.fact.object for s in kept] == ["peanuts"]
    assert "a0" in {s.fact.id for s in left}


if __name__ == "__main__":  # the same table with another embedder, to see the margins
    import sys
    from pathlib import Path

    from graphmem.retrieval.transformer import TransformerEmbedder

    async def main() -> None:
        for embedder in (WordLlamaEmbedder(), TransformerEmbedder(Path(sys.argv[1]))):
            print(embedder.name)
            for case in (*CASES, *UNMET):
                kept, left = await offered(case, embedder)
                ok = (not case.first or kept[0] == case.first) and set(case.also) <= set(kept) \
                    and set(case.never) <= set(left)
                print(f"  {'ok ' if ok else 'BAD'} {case.question}: {kept}")

    asyncio.run(main())
