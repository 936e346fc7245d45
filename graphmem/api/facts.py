"""GraphQL types and resolvers for facts, their evidence and their provenance."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Annotated

import strawberry

from graphmem import facts as domain
from graphmem import facts_model, provenance
from graphmem.api.arguments import AfterArg, FirstArg, NamespaceArg
from graphmem.api.context import Info
from graphmem.api.pagination import Connection, to_connection
from graphmem.namespaces import Namespace
from graphmem.pagination import batch_size, page_size

if TYPE_CHECKING:
    from graphmem.api.episodes import Episode
    from graphmem.api.summaries import Summary

FactSource = strawberry.enum(facts_model.Source, description=(
    "Who said it, highest priority first: user_correction > user_statement > "
    "agent_assertion > extraction > inference; import is for migrated data."))
FactStatus = strawberry.enum(facts_model.FactStatus, description=(
    "active: believed now; disputed: contradicted, awaiting resolution; superseded: replaced "
    "by a newer fact; retracted: withdrawn."))
AssertOutcome = strawberry.enum(facts_model.Outcome, description=(
    "created: a new fact; evidence_added: the same current fact existed, so the new evidence "
    "was attached to it instead of writing a duplicate."))

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
    recorded_at: datetime = strawberry.field(description="When memory started believing it.")
    retracted_at: datetime | None = strawberry.field(description="When memory stopped.")
    asserted_by: str | None = strawberry.field(description="The API key name that asserted it.")
    reason: str | None = strawberry.field(description="Why its status last changed.")

    @classmethod
    def of(cls, f: domain.Fact) -> Fact:
        return cls(id=strawberry.ID(f.id), namespace=f.namespace, subject=f.subject,
                   predicate=f.predicate, relationship_type=f.predicate.upper(),
                   object=f.object, object_kind=f.object_kind, text=f.text,
                   confidence=f.confidence, source=f.source, status=f.status,
                   valid_from=f.valid_from, valid_to=f.valid_to, recorded_at=f.recorded_at,
                   retracted_at=f.retracted_at, asserted_by=f.asserted_by, reason=f.reason)

    @strawberry.field(description="The episodes this fact was taken from, oldest first.")
    async def evidence(self, info: Info) -> list[EpisodeRef]:
        from graphmem.api.episodes import Episode

        ctx, ns = info.context, Namespace(self.namespace)
        loader = ctx.loader("evidence", ns,
                            lambda ids: provenance.evidence_of(ctx.db, ns, ids))
        return [Episode.of(item.episode) for item in await loader.load(str(self.id))]


@strawberry.input(description="A typed literal object: set exactly one field.")
class LiteralInput:
    string: str | None = strawberry.field(default=None, description="A free string.")
    number: float | None = strawberry.field(default=None, description="A number.")
    boolean: bool | None = strawberry.field(default=None, description="A boolean.")
    date: date | None = strawberry.field(default=None, description="A calendar date.")


@strawberry.input(description="A fact to assert. Give `object` (an entity name) or `value` (a "
                              "literal), not both.")
class FactInput:
    subject: str = strawberry.field(description="The subject entity's name (resolved exactly "
                                                "by normalised name or alias).")
    predicate: str = strawberry.field(description="A lower-case word like `works_at`.")
    object: str | None = strawberry.field(default=None, description="The object entity's name.")
    value: LiteralInput | None = strawberry.field(default=None, description="A literal object.")
    confidence: float = strawberry.field(default=1.0, description="0..1.")
    source: FactSource = strawberry.field(default=facts_model.Source.AGENT_ASSERTION,
                                          description="Who said it.")
    valid_from: datetime | None = strawberry.field(default=None, description="True from.")
    valid_to: datetime | None = strawberry.field(default=None, description="True until.")
    evidence: list[str] = strawberry.field(
        default_factory=list, description="Episode ids or externalIds it was taken from.")
    subject_type: str | None = strawberry.field(default=None, description="e.g. person.")
    object_type: str | None = strawberry.field(default=None, description="e.g. organisation.")

    def to_domain(self) -> domain.NewFact:
        value = self.value
        return domain.NewFact(
            subject=self.subject, predicate=self.predicate, object=self.object,
            value=None if value is None else domain.Literal(value.string, value.number,
                                                            value.boolean, value.date),
            confidence=self.confidence, source=facts_model.Source(self.source),
            valid_from=self.valid_from, valid_to=self.valid_to, evidence=list(self.evidence),
            subject_type=self.subject_type, object_type=self.object_type)


@strawberry.type(description="One asserted fact and what graphmem did with it.")
class AssertedFact:
    fact: Fact = strawberry.field(description="The stored fact.")
    outcome: AssertOutcome = strawberry.field(description="Created, or evidence added.")


@strawberry.input(description="Filters for `facts`; all optional, combined with AND.")
class FactWhere:
    subject: str | None = strawberry.field(default=None, description="Subject name or alias.")
    predicate: str | None = strawberry.field(default=None, description="e.g. works_at.")
    object: str | None = strawberry.field(default=None, description="Object name or literal.")
    source: FactSource | None = strawberry.field(default=None, description="Only this source.")
    min_confidence: float | None = strawberry.field(default=None,
                                                    description="At least this confidence.")


@strawberry.type(description="The audit of one fact: what, from where, cited by whom, "
                             "replacing and replaced by what.")
class Provenance:
    fact: Fact = strawberry.field(description="The fact itself (who asserted it, when).")
    cited_by: list[SummaryRef] = strawberry.field(description="Summaries citing it.")
    supersedes: list[Fact] = strawberry.field(description="Older facts it replaced.")
    superseded_by: list[Fact] = strawberry.field(description="Newer facts that replaced it.")

    @strawberry.field(description="The episodes it was taken from, with session, time, "
                                  "actor and content.")
    async def evidence(self, info: Info) -> list[EpisodeRef]:
        return await self.fact.evidence(info)


async def assert_facts(
    info: Info, namespace: NamespaceArg,
    facts: Annotated[list[FactInput], strawberry.argument(
        description="The batch (up to the server's cap); one transaction.")],
) -> list[AssertedFact]:
    ctx = info.context
    ns = ctx.namespace(namespace)
    batch_size(len(facts), ctx.settings.max_batch, "facts")
    done = await domain.assert_facts(ctx.db, ns, [f.to_domain() for f in facts],
                                     asserted_by=ctx.principal.name)
    return [AssertedFact(fact=Fact.of(a.fact), outcome=a.outcome) for a in done]


async def list_facts(
    info: Info, namespace: NamespaceArg,
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
    ctx = info.context
    ns = ctx.namespace(namespace)
    w = where or FactWhere()
    page = await domain.page(ctx.db, ns, domain.FactFilter(
        subject=w.subject, predicate=w.predicate, object=w.object,
        source=facts_model.Source(w.source) if w.source else None, min_confidence=w.min_confidence,
        valid_at=valid_at, as_of=as_of, include_history=include_history,
    ), first=page_size(first, ctx.settings.max_page), after=after)
    return to_connection(page, Fact.of)


async def fact_provenance(
    info: Info, namespace: NamespaceArg,
    fact_id: Annotated[strawberry.ID, strawberry.argument(description="The fact's id.")],
) -> Provenance:
    from graphmem.api.summaries import Summary

    ctx = info.context
    ns = ctx.namespace(namespace)
    audit = await provenance.of_fact(ctx.db, ns, str(fact_id))
    return Provenance(fact=Fact.of(audit.fact),
                      cited_by=[Summary.of(s) for s in audit.cited_by],
                      supersedes=[Fact.of(f) for f in audit.supersedes],
                      superseded_by=[Fact.of(f) for f in audit.superseded_by])
