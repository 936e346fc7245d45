"""Conflict resolution on write: what a new assertion does to the facts memory believes.

Pure planning, no I/O: given the believed versions of the affected (subject, predicate)
pairs and the batch of new claims, decide — in batch order — which claims only add evidence,
which supersede or trim believed facts, which lose, and which open a dispute. The caller
writes the plan in one transaction, under the subjects' locks.

Facts are versions with an immutable world interval. Nothing is deleted or edited in place:
a fact that loses part of its validity ends (its belief closes, status ``superseded``) and
the part it keeps becomes a new version that ``REVISES`` it, with the same evidence. So a
query "as of" any past belief time sees exactly what memory believed then.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal, assert_never

from graphmem.core.timeutil import maybe_datetime
from graphmem.db.database import Row
from graphmem.facts.intervals import Interval, starts_later, subtract
from graphmem.facts.model import FactStatus, Outcome, Source
from graphmem.facts.policies import Cardinality, Policy, Strategy

SOURCE_RANK = {s: rank for rank, s in enumerate(Source)}  # lower is stronger


@dataclass(frozen=True)
class Version:
    """A believed fact: stored already, or planned earlier in this batch."""

    id: str
    subject_id: str
    predicate: str
    identity: str
    interval: Interval
    confidence: float
    source: Source
    status: FactStatus = FactStatus.ACTIVE

    @classmethod
    def from_row(cls, row: Row) -> Version:
        return cls(id=row["id"], subject_id=row["subject_id"], predicate=row["predicate"],
                   identity=row["identity"], confidence=row["confidence"],
                   source=Source(row["source"]), status=FactStatus(row["status"]),
                   interval=Interval(maybe_datetime(row.get("valid_from")),
                                     maybe_datetime(row.get("valid_to"))))


@dataclass(frozen=True)
class Claim:
    """A new assertion, validated and resolved to ids."""

    subject_id: str
    predicate: str
    identity: str
    interval: Interval
    confidence: float
    source: Source
    start_given: bool  # False: the start was defaulted to when it was said
    qualified: bool = True  # False: stated without a confidence (``confidence`` defaulted)


@dataclass(frozen=True)
class Created:
    claim: int  # index in the batch
    id: str
    interval: Interval
    status: FactStatus


@dataclass(frozen=True)
class Restatement:
    """A claim that states a believed fact again: its evidence is added, and the fact's
    confidence and source change as ``restated`` decides (None: unchanged)."""

    fact_id: str
    claim: int  # index in the batch
    confidence: float | None
    source: Source | None


@dataclass(frozen=True)
class Revision:
    id: str
    of: str  # the version it narrows
    interval: Interval
    status: FactStatus


@dataclass(frozen=True)
class Supersession:
    winner: str
    loser: str
    strategy: str
    reason: str


@dataclass
class Plan:
    outcomes: list[tuple[str, Outcome]] = field(default_factory=list)
    created: list[Created] = field(default_factory=list)
    revisions: list[Revision] = field(default_factory=list)
    ended: dict[str, str] = field(default_factory=dict)  # id -> reason
    supersessions: list[Supersession] = field(default_factory=list)
    disputes: list[list[str]] = field(default_factory=list)  # fact ids per new conflict
    restatements: list[Restatement] = field(default_factory=list)
    # (standing, joined): one statement learned apart; the joined one's evidence is the
    # standing one's too (``reconcile``)
    joined: list[tuple[str, str]] = field(default_factory=list)

    def correct(self, old: str, reason: str) -> None:
        """The first claim replaces ``old`` outright (a correction, not a change in time)."""
        self.ended[old] = reason
        self.supersessions.append(Supersession(self.outcomes[0][0], old, "correction", reason))


def plan(claims: list[Claim], believed: list[Version], policies: dict[str, Policy]) -> Plan:
    """Decide every claim in order against what is believed (including earlier claims)."""
    state: dict[tuple[str, str], list[Version]] = defaultdict(list)
    for version in believed:
        state[(version.subject_id, version.predicate)].append(version)
    result = Plan()
    for index, claim in enumerate(claims):
        _decide(index, claim, state[(claim.subject_id, claim.predicate)],
                policies[claim.predicate], result)
    return result


def _decide(index: int, claim: Claim, versions: list[Version], policy: Policy,
            result: Plan) -> None:
    same = [v for v in versions if v.identity == claim.identity]
    for v in same:
        if _restates(claim, v):
            restatement = restated(index, claim, v)
            result.restatements.append(restatement)
            versions[versions.index(v)] = replace(
                v, confidence=v.confidence if restatement.confidence is None
                else restatement.confidence, source=restatement.source or v.source)
            result.outcomes.append((v.id, Outcome.EVIDENCE_ADDED))
            return
    new = Version(f"fact_{uuid.uuid4().hex}", claim.subject_id, claim.predicate,
                  claim.identity, claim.interval, claim.confidence, claim.source)
    rivals = [v for v in versions if v.identity != claim.identity
              and v.interval.overlaps(claim.interval)] \
        if policy.cardinality is Cardinality.ONE else []
    decide = rule(policy.strategy)
    verdicts = [(v, decide.winner(claim, v)) for v in rivals]
    stronger = [v for v, verdict in verdicts if verdict == "old"]
    pieces = subtract(claim.interval, [v.interval for v in stronger])
    for v in stronger:
        result.supersessions.append(Supersession(v.id, new.id, policy.strategy.value,
                                                 decide.why(v, claim)))
    if not pieces:  # a late, weaker claim: recorded as history, already superseded
        result.created.append(Created(index, new.id, claim.interval, FactStatus.SUPERSEDED))
        result.ended[new.id] = "a stronger fact covers its whole validity"
        result.outcomes.append((new.id, Outcome.SUPERSEDED))
        return
    # Only what the claim keeps can beat or contest anything.
    def contests(v: Version) -> bool:
        return any(v.interval.overlaps(p) for p in pieces)

    weaker = [v for v, verdict in verdicts if verdict == "new" and contests(v)]
    undecided = [v for v, verdict in verdicts if verdict is None and contests(v)]
    # Restating the same thing with other bounds refines it: the new bounds replace the old.
    for v in same:
        if v.interval.overlaps(claim.interval):
            end(v, new.id, "refinement", "restated with new validity", versions, result)
    placed = []
    for n, piece in enumerate(pieces):
        status = FactStatus.DISPUTED if any(v.interval.overlaps(piece) for v in undecided) \
            else FactStatus.ACTIVE
        if n == 0:
            result.created.append(Created(index, new.id, piece, status))
            placed.append(replace(new, interval=piece, status=status))
        else:
            revision = Revision(f"fact_{uuid.uuid4().hex}", new.id, piece, status)
            result.revisions.append(revision)
            placed.append(replace(new, id=revision.id, interval=piece, status=status))
    for v in weaker:
        end(v, new.id, policy.strategy.value, decide.why(claim, v), versions,
             result, keep=subtract(v.interval, [p.interval for p in placed]))
    if undecided:
        result.disputes.append([p.id for p in placed if p.status is FactStatus.DISPUTED]
                               + [v.id for v in undecided])
        for v in undecided:
            versions[versions.index(v)] = replace(v, status=FactStatus.DISPUTED)
    versions.extend(placed)
    result.outcomes.append((new.id, Outcome.DISPUTED if undecided else Outcome.CREATED))


def restated(index: int, claim: Claim, v: Version) -> Restatement:
    """What stating ``v`` again does to it (README: *Confidence*). Saying it again is no
    proof: a restatement without a confidence keeps the fact's. One with a confidence, from a
    source at least as strong as the fact's, sets it, lower as well as higher (the speaker
    is now that sure); a weaker source's (extraction restating what the user said) leaves
    it. A stronger source becomes the fact's source (the user confirmed what an agent
    assumed)."""
    rank, held = SOURCE_RANK[claim.source], SOURCE_RANK[v.source]
    confidence = claim.confidence if claim.qualified and rank <= held else None
    return Restatement(v.id, index, None if confidence == v.confidence else confidence,
                       claim.source if rank < held else None)


def _restates(claim: Claim, v: Version) -> bool:
    """Same statement, compatible validity: only evidence is new."""
    if claim.interval == v.interval:
        return True
    return (not claim.start_given and claim.interval.end is None
            and claim.interval.start is not None and v.interval.contains(claim.interval.start))


Verdict = Literal["new", "old"] | None  # who wins; None: the policy cannot decide (a dispute)
Party = Claim | Version


@dataclass(frozen=True)
class Rule:
    """What a strategy does to two overlapping values: who wins, and why, in words the
    conflict's history keeps."""

    winner: Callable[[Claim, Version], Verdict]
    why: Callable[[Party, Party], str]


def rule(strategy: Strategy) -> Rule:
    """Each strategy's rule, in one place: a strategy added to ``Strategy`` without its case
    here fails type checking (``assert_never``), never explains a dispute as settled."""
    match strategy:
        case Strategy.RECENCY:
            return Rule(_later_wins, _why_later)
        case Strategy.CONFIDENCE:
            return Rule(_more_confident_wins, _why_more_confident)
        case Strategy.SOURCE_PRIORITY:
            return Rule(_stronger_source_wins, _why_stronger_source)
        case Strategy.MANUAL:
            return Rule(lambda claim, v: None, lambda winner, loser: "settled manually")
        case _:
            assert_never(strategy)


def _later_wins(claim: Claim, v: Version) -> Verdict:
    # Later in world time wins; at the same start, the newer belief does.
    return "old" if starts_later(claim.interval, v.interval) < 0 else "new"


def _why_later(winner: Party, loser: Party) -> str:
    return "became true later in world time" \
        if starts_later(winner.interval, loser.interval) > 0 else "stated more recently"


def _more_confident_wins(claim: Claim, v: Version) -> Verdict:
    if claim.confidence == v.confidence:
        return None
    return "new" if claim.confidence > v.confidence else "old"


def _why_more_confident(winner: Party, loser: Party) -> str:
    return f"higher confidence ({winner.confidence:g} > {loser.confidence:g})"


def _stronger_source_wins(claim: Claim, v: Version) -> Verdict:
    if claim.source == v.source:
        return None
    return "new" if SOURCE_RANK[claim.source] < SOURCE_RANK[v.source] else "old"


def _why_stronger_source(winner: Party, loser: Party) -> str:
    return f"higher-priority source ({winner.source.value} > {loser.source.value})"


def end(v: Version, winner: str, strategy: str, reason: str, versions: list[Version],
         result: Plan, keep: list[Interval] | None = None,
         status: FactStatus | None = None) -> None:
    """Close belief in ``v``; what it keeps of its validity lives on as revisions (in
    ``status``, by default the one ``v`` had)."""
    result.ended[v.id] = reason
    result.supersessions.append(Supersession(winner, v.id, strategy, reason))
    versions.remove(v)
    pieces = []
    for piece in keep or []:
        revision = Revision(f"fact_{uuid.uuid4().hex}", v.id, piece, status or v.status)
        result.revisions.append(revision)
        pieces.append(revision.id)
        versions.append(replace(v, id=revision.id, interval=piece, status=revision.status))
    for group in result.disputes:  # a dispute opened earlier in this plan: its pieces stay in
        if v.id in group:
            group[group.index(v.id):group.index(v.id) + 1] = pieces


def settle(keep: Version, others: list[Version], reason: str) -> Plan:
    """A person's decision on a dispute: ``keep`` wins against the candidates it overlaps;
    they end, keeping (as revisions) whatever validity lies outside the kept fact's. What
    remains and still clashes is disputed again, in a new conflict."""
    result = Plan()
    versions = [keep, *others]
    for v in others:
        if v.interval.overlaps(keep.interval):
            end(v, keep.id, Strategy.MANUAL.value, reason, versions, result,
                 keep=v.interval.minus(keep.interval), status=FactStatus.ACTIVE)
    still = clashing([v for v in versions if v.id != keep.id])
    if still:
        result.disputes.append(still)
    return result


def clashing(versions: list[Version]) -> list[str]:
    """Ids of the versions that overlap another statement's validity (a dispute's members)."""
    return sorted({v.id for v in versions for w in versions
                   if v.identity != w.identity and v.interval.overlaps(w.interval)})


SAME_STATEMENT = "same_statement"  # the strategy a joined copy's supersession names


def reconcile(believed: list[Version], policies: dict[str, Policy]) -> Plan:
    """What facts learned apart (on several devices, then brought together by a sync) resolve
    to. First, copies of one statement (same subject, predicate and object) whose validity
    overlaps are one fact (``_join``). Then each ONE predicate's active values are replayed
    in the order they became true in the world (the time the user said them, unless stated),
    each against those before it, by the predicate's own rule, exactly as if they had been
    asserted in that order. The arrival order (when each synced) plays no part, so every side
    that holds the same versions reaches the same result. ``believed`` comes in belief order
    (``facts/believed``), which breaks ties between equal starts as a later assertion
    would."""
    result = Plan()
    groups: dict[tuple[str, str], list[Version]] = defaultdict(list)
    for v in believed:
        if v.status is FactStatus.ACTIVE:
            groups[(v.subject_id, v.predicate)].append(v)
    for (_, predicate), group in sorted(groups.items()):
        kept = _join(sorted(group, key=_world_order), result)
        if policies[predicate].cardinality is Cardinality.ONE:
            _replay(kept, policies[predicate], result)
    return result


def _join(group: list[Version], result: Plan) -> list[Version]:
    """Copies of one statement learned apart (the same thing said on two devices): the first
    in world order stands, and each later copy whose validity overlaps it ends, superseded by
    it (strategy ``same_statement``), its evidence joining the standing one's
    (``Plan.joined``); validity it held outside the standing one's lives on as a revision.
    What is left, in world order."""
    held: list[Version] = []
    for v in group:
        first = next((w for w in held if w.identity == v.identity
                      and w.interval.overlaps(v.interval)), None)
        held.append(v)
        if first is not None:
            end(v, first.id, SAME_STATEMENT, "the same statement, learned apart", held, result,
                keep=v.interval.minus(first.interval))
            result.joined.append((first.id, v.id))
    return sorted(held, key=_world_order)


def _world_order(v: Version) -> tuple[bool, datetime | None]:
    return v.interval.start is not None, v.interval.start  # unknown starts first (stable)


def _replay(group: list[Version], policy: Policy, result: Plan) -> None:
    decide = rule(policy.strategy)
    held: list[Version] = []
    for v in group:
        claim = Claim(v.subject_id, v.predicate, v.identity, v.interval, v.confidence,
                      v.source, start_given=True)
        held.append(v)
        for w in [w for w in held[:-1] if w.identity != v.identity
                  and w.interval.overlaps(v.interval)]:
            if v not in held:
                break  # v lost to an earlier rival: it contests nothing more
            match decide.winner(claim, w):
                case "new":
                    end(w, v.id, policy.strategy.value, decide.why(claim, w), held, result,
                        keep=w.interval.minus(v.interval))
                case "old":
                    end(v, w.id, policy.strategy.value, decide.why(w, claim), held, result,
                        keep=v.interval.minus(w.interval))
                case None:
                    result.disputes.append([w.id, v.id])
