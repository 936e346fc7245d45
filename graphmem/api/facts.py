"""GraphQL types and resolvers for facts, their evidence and their provenance."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Annotated, TypeAlias

import strawberry
from strawberry.dataloader import DataLoader

from graphmem.api.server.arguments import AfterArg, FirstArg
from graphmem.api.server.context import Context, Info
from graphmem.api.server.fields import mirror, resolver, selects
from graphmem.api.server.inputs import batch_input
from graphmem.api.server.pagination import Connection, to_connection
from graphmem.api.server.scope import scoped
from graphmem.core.namespaces import Namespace
from graphmem.core.pagination import batch_size, page_size
from graphmem.facts import changes as fact_changes
from graphmem.facts import model as facts_model
from graphmem.facts import provenance, verification
from graphmem.facts import store as domain

if TYPE_CHECKING:
    from graphmem.api.episodes import Episode
    from graphmem.api.summaries import Summary

# The domain enums are the GraphQL enums: strawberry.enum registers each class in place.
FactSource: TypeAlias = facts_model.Source
strawberry.enum(FactSource, description=(
    "Who said it, highest priority first: user_correction > user_statement > "
    "agent_assertion > extraction > inference; import is for migrated data."))
FactStatus: TypeAlias = facts_model.FactStatus
strawberry.enum(FactStatus, description=(
    "active: believed now; disputed: contradicted, awaiting resolution; superseded: replaced "
    "by a newer fact; retracted: withdrawn."))
AssertOutcome: TypeAlias = facts_model.Outcome
strawberry.enum(AssertOutcome, description=(
    "created: a new believed fact (it may have superseded others: see `fact.supersedes`); "
    "evidence_added: the same believed fact existed, so the new evidence was attached to it "
    "instead of writing a duplicate; disputed: stored, but its predicate's policy could not "
    "decide against a believed value, so both are disputed in an open conflict; superseded: "
    "stored as history only, because a stronger believed fact covers its whole validity; "
    "forgotten: not stored, because the user asked memory to forget this fact (`forgetFact`): "
    "only a user's own statement or correction brings it back."))

EpisodeRef = Annotated["Episode", strawberry.lazy("graphmem.api.episodes")]
SummaryRef = Annotated["Summary", strawberry.lazy("graphmem.api.summaries")]


@strawberry.type(description="A subject–predicate–object statement. Stored as the edge "
                             "(subject)-[:PREDICATE]->(object) plus a (:Fact) statement node.")
class Fact:
    id: strawberry.ID = strawberry.field(description="graphmem's id (`fact_…`).")
    namespace: str = strawberry.field(description="The namespace it belongs to.")
    subject: str = strawberry.field(description="The subject entity's name.")
    predicate: str = strawberry.field(description="Normalised predicate, e.g. `works_at`.")
    relationship_type: str = strawberry.field(description="The edge type, e.g. `WORKS_AT`.")
    object: str = strawberry.field(description="The object entity's name, or the literal.")
    object_kind: str = strawberry.field(
        description="`entity`, or the literal's datatype: string, number, boolean, date.")
    text: str = strawberry.field(description="A readable sentence form of the fact.")
    confidence: float = strawberry.field(description="0..1.")
    source: FactSource = strawberry.field(description="Who said it.")
    status: FactStatus = strawberry.field(description="Where it stands now.")
    valid_from: datetime | None = strawberry.field(description="True in the world from (open "
                                                               "when null).")
    valid_to: datetime | None = strawberry.field(description="True in the world until (open "
                                                             "when null).")
    stated_valid_from: datetime | None = strawberry.field(
        description="The start as asserted (or defaulted to when it was said), before "
                    "conflict resolution narrowed it.")
    stated_valid_to: datetime | None = strawberry.field(description="The end as asserted.")
    recorded_at: datetime = strawberry.field(description="When memory started believing it.")
    retracted_at: datetime | None = strawberry.field(
        description="When memory stopped believing it (superseded or retracted).")
    asserted_by: str | None = strawberry.field(description="The API key name that asserted it.")
    ended_by: str | None = strawberry.field(
        description="The API key name whose write ended belief in it.")
    reason: str | None = strawberry.field(description="Why belief in it ended.")
    pinned: bool = strawberry.field(description="Whether a user pinned it (always remember).")
    pinned_at: datetime | None = strawberry.field(description=(
        "When a user pinned it (`pinFact`: always remember): pruning, retention and erasure "
        "of its evidence leave it believed. Null: not pinned."))
    pinned_by: str | None = strawberry.field(description="The API key name that pinned it.")
    last_used_at: datetime | None = strawberry.field(description=(
        "When an answer (recall, search, facts) last returned it, recorded within seconds; "
        "pruning spares facts in use. Null: never, since use was first recorded."))
    forgotten_at: datetime | None = strawberry.field(description=(
        "When a user asked memory to forget it (`forgetFact`, `forgetEpisode`): extraction, "
        "inference and imports may not assert it again."))

    @classmethod
    def of(cls, f: facts_model.Fact) -> Fact:
        return mirror(cls, f, relationship_type=f.predicate.upper(),
                      pinned=f.pinned_at is not None)

    async def _links(self, info: Info) -> provenance.Links:
        ctx, ns = info.context, Namespace(self.namespace)
        loader = ctx.loader("links", ns, lambda ids: provenance.links_of(ctx.db, ns, ids))
        links: provenance.Links = await loader.load(str(self.id))
        return links

    @resolver("Facts this one replaced, with how and why (newest first).")
    async def supersedes(self, info: Info) -> list[Supersession]:
        return [Supersession.of(link) for link in (await self._links(info)).supersedes]

    @resolver("Facts that replaced this one, with how and why.")
    async def superseded_by(self, info: Info) -> list[Supersession]:
        return [Supersession.of(link) for link in (await self._links(info)).superseded_by]

    @resolver("The earlier version this one narrows: what that fact kept of its "
              "validity after losing the rest.")
    async def revises(self, info: Info) -> Fact | None:
        original = (await self._links(info)).revises
        return Fact.of(original) if original else None

    @resolver("Ids of the open conflicts holding this fact.")
    async def open_conflicts(self, info: Info) -> list[strawberry.ID]:
        return [strawberry.ID(c) for c in (await self._links(info)).open_conflicts]

    @resolver("How its status was last decided: the supersession it lost or won, "
              "its retraction, or its dispute; null when nothing has contested it.")
    async def resolution(self, info: Info) -> Resolution | None:
        links = await self._links(info)
        if self.status == facts_model.FactStatus.RETRACTED:
            return Resolution(outcome="retracted", strategy="retraction", reason=self.reason,
                              at=self.retracted_at, actor=self.ended_by)
        if self.status == facts_model.FactStatus.DISPUTED:
            return Resolution(outcome="disputed", strategy="dispute",
                              reason="its policy could not decide; see openConflicts",
                              at=None, actor=None)
        lost, won = links.superseded_by[:1], links.supersedes[:1]
        for outcome, link in [("lost", lk) for lk in lost] + [("won", lk) for lk in won]:
            return Resolution(outcome=outcome, strategy=link.strategy, reason=link.reason,
                              at=link.at, actor=link.actor)
        return None

    @resolver("The episodes this fact was taken from, oldest first.")
    async def evidence(self, info: Info) -> list[EpisodeRef]:
        from graphmem.api.episodes import Episode

        ctx, ns = info.context, Namespace(self.namespace)
        loader = (evidence_loader(ctx, ns) if selects(info, _EPISODE_BODY)
                  else ctx.loader("evidence_refs", ns, lambda ids: provenance.evidence_of(
                      ctx.db, ns, ids, content=False)))
        return [Episode.of(item.episode) for item in await loader.load(str(self.id))]


_EPISODE_BODY = frozenset({"content", "metadata"})  # what an evidence list reads only when asked


def evidence_loader(ctx: Context, ns: Namespace) -> DataLoader[str, list[provenance.Evidence]]:
    """The evidence of many facts in one statement per request (a fact page's nested
    evidence); `provenance` primes it with what its own statement read."""
    return ctx.loader("evidence", ns, lambda ids: provenance.evidence_of(ctx.db, ns, ids))


@strawberry.type(description="One SUPERSEDES relationship: the other fact, how and why.")
class Supersession:
    fact: Fact = strawberry.field(description="The fact on the other end.")
    strategy: str = strawberry.field(
        description="recency, confidence, source_priority, manual, correction, refinement "
                    "(restated with new validity) or merge (duplicate after mergeEntities).")
    reason: str | None = strawberry.field(description="Why, in words.")
    at: datetime = strawberry.field(description="When it was decided.")
    actor: str | None = strawberry.field(description="The API key name whose write decided.")

    @classmethod
    def of(cls, link: provenance.Link) -> Supersession:
        return mirror(cls, link, fact=Fact.of(link.fact))


@strawberry.type(description="How a fact's status was last decided.")
class Resolution:
    outcome: str = strawberry.field(description="lost, won, retracted or disputed.")
    strategy: str = strawberry.field(description="The strategy that decided (see "
                                                 "`Supersession.strategy`), or retraction, "
                                                 "dispute.")
    reason: str | None = strawberry.field(description="Why, in words.")
    at: datetime | None = strawberry.field(description="When.")
    actor: str | None = strawberry.field(description="Who (API key name).")


@strawberry.input(description="A typed literal object: set exactly one field.")
class LiteralInput:
    string: str | None = strawberry.field(default=None, description="A free string.")
    number: float | None = strawberry.field(default=None, description="A number.")
    boolean: bool | None = strawberry.field(default=None, description="A boolean.")
    date: date | None = strawberry.field(default=None, description="A calendar date.")

    def to_domain(self) -> domain.Literal:
        return domain.Literal(self.string, self.number, self.boolean, self.date)


@batch_input
@strawberry.input(description="A fact to assert. Give `object` (an entity name) or `value` (a "
                              "literal), not both.")
class FactInput:
    subject: str = strawberry.field(description="The subject entity's name (resolved exactly "
                                                "by normalised name or alias).")
    predicate: str = strawberry.field(description="A lower-case word like `works_at`.")
    object: str | None = strawberry.field(default=None, description="The object entity's name.")
    value: LiteralInput | None = strawberry.field(default=None, description="A literal object.")
    confidence: float | None = strawberry.field(
        default=None, description="0..1. Left out: 1.0 for a new fact; restating a fact memory "
                                  "holds keeps its confidence (README: *Confidence*).")
    source: FactSource = strawberry.field(default=facts_model.Source.AGENT_ASSERTION,
                                          description="Who said it.")
    valid_from: datetime | None = strawberry.field(default=None, description="True from.")
    valid_to: datetime | None = strawberry.field(default=None, description="True until.")
    evidence: list[str] = strawberry.field(
        default_factory=list, description="Episode ids or externalIds it was taken from.")
    subject_type: str | None = strawberry.field(default=None, description="e.g. person.")
    object_type: str | None = strawberry.field(default=None, description="e.g. organisation.")

    def to_domain(self) -> domain.NewFact:
        return domain.NewFact(
            subject=self.subject, predicate=self.predicate, object=self.object,
            value=None if self.value is None else self.value.to_domain(),
            confidence=self.confidence, source=facts_model.Source(self.source),
            valid_from=self.valid_from, valid_to=self.valid_to, evidence=list(self.evidence),
            subject_type=self.subject_type, object_type=self.object_type)


@strawberry.type(description="One asserted fact and what graphmem did with it.")
class AssertedFact:
    namespace: strawberry.Private[str]
    fact_id: strawberry.Private[str]
    outcome: AssertOutcome = strawberry.field(description="What conflict resolution did.")

    @classmethod
    def of(cls, ns: str, asserted: domain.Asserted) -> AssertedFact:
        return mirror(cls, asserted, namespace=ns)

    @resolver("The stored fact.")
    async def fact(self, info: Info) -> Fact:
        return await load_fact(info.context, Namespace(self.namespace), self.fact_id)


async def load_fact(ctx: Context, ns: Namespace, fact_id: str) -> Fact:
    """A fact by id, for a field that holds only the id: every such field of a request is read
    in one statement, and only when a query selects it."""
    loader = ctx.loader("facts", ns, lambda ids: domain.in_order(ctx.db, ns, ids))
    return Fact.of(await loader.load(fact_id))


@strawberry.input(description="Filters for `facts`; all optional, combined with AND.")
class FactWhere:
    subject: str | None = strawberry.field(default=None, description="Subject name or alias.")
    predicate: str | None = strawberry.field(default=None, description="e.g. works_at.")
    object: str | None = strawberry.field(default=None, description="Object name or literal.")
    source: FactSource | None = strawberry.field(default=None, description="Only this source.")
    min_confidence: float | None = strawberry.field(default=None,
                                                    description="At least this confidence.")


@strawberry.type(description="Evidence held on another device (federated memory): a reference "
                             "to a turn, never its words.")
class HeldTurn:
    id: strawberry.ID = strawberry.field(description="The turn's episode id on its device.")
    device: str = strawberry.field(description="The device that holds it.")
    said_at: datetime | None = strawberry.field(description="When it was said.")
    content_hash: str | None = strawberry.field(description=(
        "Its content hash on its device (to check a copy against), not its content."))

    @resolver('"held on device X": how `why` shows it.')
    def held(self) -> str:
        return f"held on device {self.device}"

    @classmethod
    def of(cls, turn: provenance.HeldTurn) -> HeldTurn:
        return cls(id=strawberry.ID(turn.id), device=turn.device, said_at=turn.said_at,
                   content_hash=turn.content_hash)


@strawberry.type(description="The audit of one fact: what, from where, cited by whom, "
                             "replacing and replaced by what.")
class Provenance:
    fact: Fact = strawberry.field(description="The fact itself (who asserted it, when).")
    cited_by: list[SummaryRef] = strawberry.field(description="Summaries citing it.")
    supersedes: list[Fact] = strawberry.field(description=(
        "Older facts it replaced, directly or through others: each once, up to 100 links "
        "away and at most 100, the most recently recorded first."))
    superseded_by: list[Fact] = strawberry.field(description=(
        "Newer facts that replaced it, directly or through others: each once, up to 100 "
        "links away and at most 100, the most recently recorded first."))

    held_elsewhere: list[HeldTurn] = strawberry.field(default_factory=list, description=(
        "Evidence held on another device (federated memory, `graphmem sync`): turns this "
        "service has only a reference to, never their words."))

    @resolver("The episodes it was taken from, with session, time, actor and "
              "content.")
    async def evidence(self, info: Info) -> list[EpisodeRef]:
        return await self.fact.evidence(info)


@scoped
async def assert_facts(
    ctx: Context, ns: Namespace,
    facts: Annotated[list[FactInput], strawberry.argument(
        description="The batch (up to the server's cap); one transaction.")],
) -> list[AssertedFact]:
    batch_size(len(facts), ctx.settings.max_batch, "facts")
    done = await domain.assert_facts(ctx.db, ns, [f.to_domain() for f in facts],
                                     asserted_by=ctx.principal.name)
    return [AssertedFact.of(ns, a) for a in done]


@scoped
async def list_facts(
    ctx: Context, ns: Namespace,
    where: Annotated[FactWhere | None, strawberry.argument(description="Filters.")] = None,
    valid_at: Annotated[datetime | None, strawberry.argument(
        description="World time: facts true at this instant (default: `asOf`, else now).")
    ] = None,
    as_of: Annotated[datetime | None, strawberry.argument(
        description="Belief time: what memory believed at this instant (default: now).")
    ] = None,
    include_history: Annotated[bool, strawberry.argument(
        description="Every version with its status: superseded and retracted too, at any "
                    "validity (unless `validAt`/`asOf` are also given).")] = False,
    first: FirstArg = 50, after: AfterArg = None,
) -> Connection[Fact]:
    w = where or FactWhere()
    page = await domain.page(ctx.db, ns, domain.FactFilter(
        subject=w.subject, predicate=w.predicate, object=w.object,
        source=facts_model.Source(w.source) if w.source else None, min_confidence=w.min_confidence,
        valid_at=valid_at, as_of=as_of, include_history=include_history,
    ), first=page_size(first, ctx.settings.max_page), after=after)
    ctx.used(ns, facts=[fact.id for _, fact in page.items])
    return to_connection(page, Fact.of)


@scoped
async def fact_provenance(
    ctx: Context, ns: Namespace,
    fact_id: Annotated[strawberry.ID, strawberry.argument(description="The fact's id.")],
) -> Provenance:
    from graphmem.api.summaries import Summary

    audit = await provenance.of_fact(ctx.db, ns, str(fact_id))
    evidence_loader(ctx, ns).prime(audit.fact.id, audit.evidence)
    return Provenance(fact=Fact.of(audit.fact),
                      cited_by=[Summary.of(s) for s in audit.cited_by],
                      supersedes=[Fact.of(f) for f in audit.supersedes],
                      superseded_by=[Fact.of(f) for f in audit.superseded_by],
                      held_elsewhere=[HeldTurn.of(t) for t in audit.held_elsewhere])


ReasonArg = Annotated[str, strawberry.argument(description="Why, for the audit trail.")]
FactIdArg = Annotated[strawberry.ID, strawberry.argument(description="The fact's id.")]


@scoped
async def retract_fact(ctx: Context, ns: Namespace, fact_id: FactIdArg,
                       reason: ReasonArg) -> Fact:
    return Fact.of(await fact_changes.retract(ctx.db, ns, str(fact_id), reason,
                                              ctx.principal.name))


@scoped
async def forget_fact(ctx: Context, ns: Namespace, fact_id: FactIdArg,
                      reason: ReasonArg) -> Fact:
    return Fact.of(await fact_changes.forget(ctx.db, ns, str(fact_id), reason,
                                             ctx.principal.name))


@scoped
async def pin_fact(ctx: Context, ns: Namespace, fact_id: FactIdArg) -> Fact:
    return Fact.of(await fact_changes.pin(ctx.db, ns, str(fact_id), True, ctx.principal.name))


@scoped
async def unpin_fact(ctx: Context, ns: Namespace, fact_id: FactIdArg) -> Fact:
    return Fact.of(await fact_changes.pin(ctx.db, ns, str(fact_id), False, ctx.principal.name))


@scoped
async def correct_fact(
    ctx: Context, ns: Namespace, fact_id: FactIdArg, reason: ReasonArg,
    object: Annotated[str | None, strawberry.argument(
        description="The right object entity's name.")] = None,
    value: Annotated[LiteralInput | None, strawberry.argument(
        description="Or the right literal value.")] = None,
    evidence: Annotated[list[str] | None, strawberry.argument(
        description="Episodes (ids or externalIds) that say so, e.g. the user's own turn; "
                    "graphmem's observation of the correction is evidence too.")] = None,
) -> AssertedFact:
    literal = None if value is None else value.to_domain()
    done = await fact_changes.correct(ctx.db, ns, str(fact_id), object, literal, reason,
                                      ctx.principal.name, evidence)
    return AssertedFact.of(ns, done)


Verdict: TypeAlias = verification.Verdict
strawberry.enum(Verdict, description=(
    "supported: an evidence episode mentions the fact's object; unsupported: evidence exists "
    "but none mentions it; no_evidence: asserted without evidence, or its evidence was erased."))


@strawberry.type(description="One evidence episode checked against the fact.")
class EvidenceCheck:
    episode: EpisodeRef = strawberry.field(description="The evidence episode.")
    supports: bool = strawberry.field(description="It mentions every word of the object.")
    matched: list[str] = strawberry.field(description="The object's words it contains.")
    missing: list[str] = strawberry.field(description="The object's words it lacks.")


@strawberry.type(description="Whether a fact's evidence still exists and says what it says.")
class Verification:
    fact: Fact = strawberry.field(description="The fact checked.")
    verdict: Verdict = strawberry.field(description="The overall finding.")
    method: str = strawberry.field(description="`lexical` (word overlap; blind to negation "
                                               "and paraphrase).")
    checks: list[EvidenceCheck] = strawberry.field(description="Per evidence episode.")


@scoped
async def verify_fact(ctx: Context, ns: Namespace, fact_id: FactIdArg) -> Verification:
    from graphmem.api.episodes import Episode

    found = await verification.verify(ctx.db, ns, str(fact_id))
    return Verification(
        fact=Fact.of(found.fact), verdict=found.verdict, method=found.method,
        checks=[EvidenceCheck(episode=Episode.of(c.episode), supports=c.supports,
                              matched=c.matched, missing=c.missing) for c in found.checks])


@strawberry.type
class Query:
    facts: Connection[Fact] = strawberry.field(
        resolver=list_facts,
        description="Facts, currently valid and not retracted unless asked otherwise.")
    provenance: Provenance = strawberry.field(
        resolver=fact_provenance,
        description="Why memory believes a fact: evidence, citing summaries, supersession.")
    verify_fact: Verification = strawberry.field(
        resolver=verify_fact,
        description="Check a fact against its evidence episodes: do they still exist, and do "
                    "they mention what it says?")


@strawberry.type
class Mutation:
    assert_facts: list[AssertedFact] = strawberry.field(
        resolver=assert_facts,
        description="Assert a batch of facts with evidence; a repeat adds evidence, no duplicate.")
    retract_fact: Fact = strawberry.field(
        resolver=retract_fact,
        description="Withdraw a believed fact, with a reason; it stays as history and an "
                    "observation episode records the change.")
    forget_fact: Fact = strawberry.field(
        resolver=forget_fact,
        description="A user's \"forget this\": the fact is retracted with the reason and "
                    "unpinned, and extraction, inference, imports and agents may not assert it "
                    "again (outcome FORGOTTEN); only the user's own statement brings it back.")
    pin_fact: Fact = strawberry.field(
        resolver=pin_fact,
        description="Always remember a believed fact: pruning, retention and erasure of its "
                    "evidence leave it believed; recall marks it pinned and offers it first.")
    unpin_fact: Fact = strawberry.field(
        resolver=unpin_fact, description="Undo `pinFact`.")
    correct_fact: AssertedFact = strawberry.field(
        resolver=correct_fact,
        description="Replace a believed fact's object (source user_correction, same "
                    "validity); the old fact is superseded, an observation episode is its "
                    "evidence.")
