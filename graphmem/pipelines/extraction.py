"""Extraction jobs: from the episodes a job concerns to facts, through conflict resolution.

1. Select: cheap heuristics keep the episodes worth extracting; the rest are counted as
   skipped on the job (and in metrics), never silently dropped.
2. Propose: the LLM when one is configured (one call per job), else the offline patterns.
3. Apply, in one transaction that first checks the job's lease: candidates become facts with
   the episode as evidence and source ``extraction``; a correction read in an episode
   replaces the believed fact outright; a stated name becomes an alias of the speaker.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from graphmem.core.config import Settings
from graphmem.core.errors import InvalidInput
from graphmem.core.namespaces import Namespace
from graphmem.db.database import Database, Tx
from graphmem.episodes.store import Episode, EpisodeKind
from graphmem.facts import changes as fact_changes
from graphmem.facts import entities
from graphmem.facts import store as facts
from graphmem.facts.model import Fact, Source
from graphmem.jobs import queue as jobs
from graphmem.observability import metrics
from graphmem.pipelines import llm_extractor, patterns, selection
from graphmem.pipelines.candidates import Candidate
from graphmem.pipelines.llm import LLM, Usage
from graphmem.pipelines.prompts import EXTRACT_VERSION

log = logging.getLogger(__name__)
PATTERNS_VERSION = "patterns-v1"
SPEAKING_KINDS = (EpisodeKind.USER_MESSAGE, EpisodeKind.DOCUMENT, EpisodeKind.OBSERVATION)


@dataclass(frozen=True)
class Proposal:
    candidates: list[Candidate]
    selected: int
    skipped: int
    producer: str
    usage: Usage


async def run(db: Database, settings: Settings, llm: LLM | None, claim: jobs.Claim) -> jobs.Job:
    ns = Namespace(claim.job.namespace)
    episodes = [Episode.from_row(row, db) for row in await jobs.episode_rows(db, ns, claim.job.id)]
    proposal = await propose(db, ns, episodes, settings, llm)
    return await db.transaction(lambda tx: _apply(tx, ns, claim, proposal, settings))


def speaker(episode: Episode) -> str:
    """Whose first-person statements an episode holds: its actor, else the namespace's user."""
    try:
        return entities.clean_name(episode.actor or "")
    except InvalidInput:  # no actor, or not usable as a name
        return "user"


async def propose(db: Database, ns: Namespace, episodes: list[Episode], settings: Settings,
                  llm: LLM | None) -> Proposal:
    chosen = [e for e in episodes
              if e.kind in SPEAKING_KINDS and selection.decide(e.kind.value, e.content).worth_it]
    skipped = len(episodes) - len(chosen)
    metrics.EXTRACTION_EPISODES.labels("selected").inc(len(chosen))
    metrics.EXTRACTION_EPISODES.labels("skipped").inc(skipped)
    if llm is None or not chosen:
        found = [c for e in chosen for c in patterns.extract(
            e.id, e.content, speaker(e), e.occurred_at, settings.pattern_confidence)]
        return Proposal(found, len(chosen), skipped, PATTERNS_VERSION, Usage())
    speakers = {e.id: speaker(e) for e in chosen}
    current = await _current_facts(db, ns, sorted(set(speakers.values())))
    found, usage = await llm_extractor.extract(llm, chosen, speakers, current,
                                               settings.llm_max_confidence)
    return Proposal(found, len(chosen), skipped, f"{llm.name}/{EXTRACT_VERSION}", usage)


async def _current_facts(db: Database, ns: Namespace, names: list[str]) -> list[Fact]:
    believed: list[Fact] = []
    for name in names:
        page = await facts.page(db, ns, facts.FactFilter(subject=name), first=50, after=None)
        believed.extend(fact for _, fact in page.items)
    return believed


async def _apply(tx: Tx, ns: Namespace, claim: jobs.Claim, proposal: Proposal,
                 settings: Settings) -> jobs.Job:
    await jobs.own(tx, claim)
    actor = f"graphmem:{proposal.producer}"
    usable = [(c, new) for c in proposal.candidates if (new := _new_fact(c)) is not None]
    produced: list[str] = []
    corrected: set[str] = set()  # one correction per believed fact; later ones are claims
    plain = []
    for candidate, new in usable:
        target = await _corrected(tx, ns, candidate)
        if target is None or target in corrected:
            plain.append(new)
            continue
        try:
            done = await fact_changes.correct_in(tx, ns, target, new,
                                                 "corrected in an episode", actor)
        except InvalidInput:  # it ended meanwhile (a concurrent write): a plain claim, then
            plain.append(new)
            continue
        corrected.add(target)
        produced.append(done.fact_id)
    if plain:
        produced += [a.fact_id for a in await facts.assert_batch_in(tx, ns, plain, actor)]
    for candidate, _ in usable:
        if candidate.predicate == "name" and not candidate.object_is_entity:
            await _alias_speaker(tx, ns, candidate)
    usage = proposal.usage
    return await jobs.finish(tx, claim, {
        "producer": proposal.producer, "selected": proposal.selected,
        "skipped": proposal.skipped, "candidates": len(proposal.candidates),
        "facts": len(set(produced)), "llm_calls": usage.calls, "tokens_in": usage.tokens_in,
        "tokens_out": usage.tokens_out, "cost_usd": usage.cost_usd(settings),
    }, sorted(set(produced)), [])


def _new_fact(candidate: Candidate) -> facts.NewFact | None:
    """The assertion a candidate stands for, or None when it would not pass validation."""
    obj = candidate.object if candidate.object_is_entity else None
    value = None if candidate.object_is_entity else facts.Literal(string=candidate.object)
    new = facts.NewFact(subject=candidate.subject, predicate=candidate.predicate, object=obj,
                        value=value, confidence=candidate.confidence, source=Source.EXTRACTION,
                        valid_from=candidate.valid_from, evidence=[candidate.episode_id])
    try:
        facts.check(new)
    except InvalidInput:
        return None
    return new


async def _corrected(tx: Tx, ns: Namespace, candidate: Candidate) -> str | None:
    """The believed fact a correction replaces: among the subject's values of the predicate
    valid now, the one the model named, else the only one that differs from the new value.
    Anything else (no such fact, several to choose from) makes it a plain claim."""
    if not candidate.correction:
        return None
    current = await facts.current_values(tx, ns, candidate.subject, candidate.predicate)
    if candidate.corrects_fact_id is not None:
        named = [row["id"] for row in current if row["id"] == candidate.corrects_fact_id]
        return named[0] if named else None
    key = entities.entity_key(candidate.object)
    others = [row["id"] for row in current if entities.entity_key(row["object"]) != key]
    return others[0] if len(others) == 1 == len(current) else None


async def _alias_speaker(tx: Tx, ns: Namespace, candidate: Candidate) -> None:
    """"I'm Dana" said by `user`: "Dana" resolves to the speaker from now on, unless the name
    already belongs to another entity (then the name fact alone records it)."""
    speaker_id = (await entities.resolve(tx, ns, {candidate.subject: None}))[candidate.subject]
    name = entities.clean_name(candidate.object)
    await entities.add_alias_in(tx, ns, speaker_id, name)
