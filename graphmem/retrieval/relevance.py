"""How much a fact bears on a question, so facts compete for recall's budget as turns do.

A question about a person asks one thing of them ("What is Sam allergic to?"): the facts
that answer it are those whose predicate and object meet the question's words, not every
fact about Sam. Each candidate is scored, pure and in one place:

- words: the share of the question's content words (four-letter stems, so "live" meets
  "lives_in"; without question words and "I"/"my"; names the question links aside) that
  the fact's predicate and object contain (all of them, for a fact between two entities the
  question names), or, at ``EVIDENCE_SHARE``, that the turns it
  was learned from contain ("Der Kegel is my favourite bouldering gym" makes
  ``favourite_gym Der Kegel`` bear on "Where can I go bouldering?");
- vector: the question's embedding against the fact's (the one the worker stored, of its
  text), brought to 0..1 across the candidates (``scores.by_range``: no embedder's scale
  decides);
- score: the two weighed as search weighs BM25 and vectors (``scores.own_score``).

A fact *bears* on the question when its words (or its evidence's) meet it; it *answers* it
when its own words do (met only in its evidence, the turns are what to show). When some bear,
they are offered if they score at least ``KEEP`` times the best, the others left out
(pinned facts excepted). When none does, the facts offered depend on what the question
asks: nothing in particular ("Tell me about myself"), all of them, best first; something no
fact's words meet ("How old am I?" of ``age 34``), those the vectors put within
``UNMET_KEEP`` of the best: few when the vectors tell the facts apart, more when they cannot
(before, all: ten facts about Sam to tell his age).

``KEEP`` and ``UNMET_KEEP`` were chosen on the questions in tests/retrieval/test_relevance.py,
with WordLlama and with BGE-small: all pass with ``KEEP`` from 0.1 to 0.4 (0.3 sits inside)
and with ``UNMET_KEEP`` up to 0.86 (the answer to "What should I avoid eating?" scores 0.87 of
the best with WordLlama); 0.7 leaves a margin and still leaves most out. With E5-small-v2,
the default since, 19 of the 25 pass: where no fact's words meet the question ("How old am
I?"), its vectors put a neighbouring fact first (``birthday 14 March``) or keep one more. On
LoCoMo, with its observations as facts, recall delivered as much evidence with E5 as with
BGE-small (0.800 against 0.793): the table's short first-person questions are its weak spot.
Tried and not taken: each fact's similarity to an empty question subtracted from its
similarity to the question (some facts sit near every question in E5's space) passes 24 of
the 25 with E5 but 21 with BGE-small, and on LoCoMo with observations recall delivered 0.795
against 0.799; facts embedded in E5's query role (as for symmetric tasks) pass 23.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphmem.core.config import SearchWeights
from graphmem.facts.model import Fact
from graphmem.retrieval.first_person import WORDS as FIRST_PERSON
from graphmem.retrieval.search.model import Kind
from graphmem.retrieval.search.query import QUESTION_WORDS
from graphmem.retrieval.search.scores import Candidate, by_range, own_score

EVIDENCE_SHARE = 0.5  # a word met only in the fact's evidence counts this much
KEEP = 0.3  # of the best score: what else is kept when some facts bear on the question
UNMET_KEEP = 0.7  # of the best: what is kept when the question asks what no fact's words meet
_STOP = QUESTION_WORDS | FIRST_PERSON | frozenset(
    "tell know now please remember everything anything something".split())  # noqa: SIM905


def stems(text: str) -> frozenset[str]:
    """Content-word stems (first four letters; words of three letters or more)."""
    return frozenset(w[:4] for w in _words(text) if len(w) >= 3 and w not in _STOP)


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.casefold())


def words_for(text: str, asked: frozenset[str]) -> str:
    """The words of ``text`` whose stems are among ``asked`` (what a second hop embeds)."""
    return " ".join(w for w in re.findall(r"[^\W_]+", text) if stems(w) & asked)


def phrase(fact: Fact) -> str:
    """What a fact says of its subject: its predicate and object ("allergic to peanuts")."""
    return f"{fact.predicate.replace('_', ' ')} {fact.object}"


@dataclass(frozen=True)
class Scored:
    fact: Fact
    words: float  # 0..1: share of the question's stems met (evidence's at EVIDENCE_SHARE)
    vector: float  # 0..1 across the candidates scored together
    score: float
    answers: bool = False  # its own words meet the question (not only its evidence's)

    @property
    def bears(self) -> bool:
        return self.words > 0


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / norm if norm else 0.0


def score(asked: frozenset[str], facts: Sequence[Fact], weights: SearchWeights,
          similarities: Sequence[float] | None = None,
          evidence: Mapping[str, str] | None = None,
          relating: frozenset[str] = frozenset(),
          names: frozenset[str] = frozenset()) -> list[Scored]:
    """Each fact scored against the question's stems ``asked`` and, when an embedder gave
    them, its cosine ``similarities`` to the question (in the facts' order); best first.

    ``names``: stems of the names the question links. They chose whose facts these are, so
    a fact's own words are not matched on them ("Ana sister Sam" does not bear on "What is
    Sam allergic to?"); its evidence is, except on its subject's name ("Der Kegel is my
    favourite bouldering gym" bears on "Where can I go bouldering?", though "bouldering"
    names an entity). ``relating``: ids of facts between two entities the question links
    ("Is Biscuit still with me?": user owns Biscuit), whose words count as all met."""
    vectors = by_range(zip((f.id for f in facts), similarities, strict=True)) \
        if similarities is not None else {}
    scored = []
    for fact in facts:
        met = 1.0 if fact.id in relating else share(asked - names, stems(phrase(fact)))
        answers = met > 0
        if evidence and fact.id in evidence:
            met = max(met, EVIDENCE_SHARE * share(asked - stems(fact.subject),
                                                  stems(evidence[fact.id])))
        candidate = Candidate(Kind.FACT, fact.id, bm25=met, vector=vectors.get(fact.id, 0.0))
        scored.append(Scored(fact, met, candidate.vector, own_score(candidate, weights, 1.0),
                             answers))
    return sorted(scored, key=lambda s: -s.score)


def share(asked: frozenset[str], found: frozenset[str]) -> float:
    return len(asked & found) / len(asked) if asked else 0.0


def kept(scored: Sequence[Scored], asks: bool = True) -> tuple[list[Scored], list[Scored]]:
    """(offered, left out), the pinned always offered: when some facts bear on the question,
    those of them scoring at least ``KEEP`` times the best; when none does, all of them if
    the question ``asks`` nothing in particular (it has no content words but the names it
    links), else those within ``UNMET_KEEP`` of the best."""
    bearing = any(s.bears for s in scored)
    if not scored or not (bearing or asks):
        return list(scored), []
    floor = (KEEP if bearing else UNMET_KEEP) * max(s.score for s in scored)
    offered = [s for s in scored if ((s.bears or not bearing) and s.score >= floor)
               or s.fact.pinned_at is not None]
    return offered, [s for s in scored if s not in offered]


def best_of(scored: Sequence[Scored]) -> list[Scored]:
    """A second hop's facts (of the entity a fact that bears on the question names, scored
    against what that fact leaves of it: "job" of "What's my sister's job?"): those that
    bear on it, as ``kept`` offers them; when none does, the one the vectors put first (the
    rest of a question asks one thing; on the table in tests/retrieval/test_relevance.py the
    runner-up scored up to 0.93 of the best, and was never the answer)."""
    if any(s.bears for s in scored):
        return kept(scored)[0]
    return list(scored[:1]) if scored and scored[0].score > 0 else []
