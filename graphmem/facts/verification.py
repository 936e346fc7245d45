"""Does a fact's evidence still exist, and does it say what the fact says?

A lexical check, honest about its limits: an evidence episode *supports* a fact when it
mentions the fact's object (every significant word of it, case- and width-folded). It does
not understand negation or paraphrase ("I left Acme" mentions Acme); an LLM check can be
layered on when one is configured.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from graphmem.core.errors import NotFound
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database
from graphmem.episodes.store import Episode
from graphmem.facts import provenance
from graphmem.facts.model import Fact
from graphmem.facts.store import by_ids

_STOPWORDS = {"a", "an", "the", "of", "at", "in", "on", "to", "and", "or", "for", "de"}


class Verdict(StrEnum):
    SUPPORTED = "supported"  # at least one evidence episode mentions the object
    UNSUPPORTED = "unsupported"  # evidence exists, none mentions it
    NO_EVIDENCE = "no_evidence"  # asserted without evidence, or its evidence was erased


@dataclass(frozen=True)
class EpisodeCheck:
    episode: Episode
    supports: bool
    matched: list[str]  # the object's words found in the episode
    missing: list[str]


@dataclass(frozen=True)
class Verification:
    fact: Fact
    verdict: Verdict
    checks: list[EpisodeCheck]
    method: str = "lexical"


async def verify(db: Database, ns: Namespace, fact_id: str) -> Verification:
    fact = (await by_ids(db, ns, [fact_id])).get(fact_id)
    if fact is None:
        raise NotFound(f"no fact {fact_id!r} in this namespace", field="factId")
    [evidence] = await provenance.evidence_of(db, ns, [fact_id])
    wanted = _words(_object_text(fact))
    checks = []
    for item in evidence:
        present = _words(item.episode.content)
        matched = [w for w in wanted if w in present]
        checks.append(EpisodeCheck(item.episode, bool(wanted) and len(matched) == len(wanted),
                                   matched, [w for w in wanted if w not in present]))
    if not checks:
        verdict = Verdict.NO_EVIDENCE
    else:
        verdict = Verdict.SUPPORTED if any(c.supports for c in checks) else Verdict.UNSUPPORTED
    return Verification(fact, verdict, checks)


def _object_text(fact: Fact) -> str:
    if fact.object_kind == "number" and fact.object.endswith(".0"):
        return fact.object[:-2]  # 34.0 is said "34"
    return fact.object


def _words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return [w for w in re.findall(r"\w+", folded) if w not in _STOPWORDS]
