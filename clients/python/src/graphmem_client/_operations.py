"""The facade's calls, written once for sync and async: each is a generator that yields the
GraphQL requests it needs and receives their data (or has the error thrown in), then returns
the facade's model. ``Memory`` and ``AsyncMemory`` only drive them over HTTP.

Documents and result models come from ``_generated`` (ariadne-codegen over the server's SDL
and ``queries/*.graphql``), so a field renamed on the server breaks the drift test, not users.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from graphmem_client import _generated as gen
from graphmem_client.errors import InvalidInput, NotResumable, PayloadTooLarge
from graphmem_client.models import (
    Conflict,
    Entity,
    Episode,
    ErasurePlan,
    Fact,
    Hit,
    Piece,
    PredicatePolicy,
    Provenance,
    Recall,
    Receipt,
    RecordResult,
    Remembered,
    Summary,
    Turn,
)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Call:
    """One GraphQL request: a generated document, its operation name and variables."""

    document: str
    operation: str
    variables: dict[str, Any]

    @property
    def repeatable(self) -> bool:
        """Safe to send again when its answer was lost (a timeout once it reached the server):
        reads, and the writes that are idempotent by their content (episodes by externalId; a
        fact asserted again adds nothing new; a policy set again is the same policy)."""
        return self.document.lstrip().startswith("query") or self.operation in _REPEATABLE


Steps = Generator[Call, dict[str, Any], T]
_REPEATABLE = frozenset({"RecordEpisodes", "AssertFacts", "SetPredicatePolicy"})

BATCH = 500  # episodes per request until the server names its cap (1000 by default)
BATCH_BYTES = 4 * 1024 * 1024  # half the server's default body cap (8 MiB)
_PAGE = 100
_ABOUT = 200  # facts per end at another instant, as the entity's own lists hold now
_CAP = re.compile(r"send 1 to (\d+) ")


def record(namespace: str, turns: Iterable[Turn | dict[str, Any]],
           session_id: str | None) -> Steps[RecordResult]:
    """Upload in batches that fit the server's caps, each idempotent by its externalIds: an
    interrupted upload sent again (or a superset of it) writes every episode once."""
    now = datetime.now(UTC)
    parsed = [turn if isinstance(turn, Turn) else Turn.model_validate(turn) for turn in turns]
    episodes = [_episode_input(turn, position, session_id, now)
                for position, turn in enumerate(parsed)]
    _warn_unless_resumable(parsed)
    result = RecordResult()
    size, start = BATCH, 0
    while start < len(episodes):
        batch = _fitting(episodes[start:start + size])
        try:
            data = yield Call(gen.RECORD_EPISODES_GQL, "RecordEpisodes",
                              {"namespace": namespace, "episodes": batch})
        except InvalidInput as error:  # over the count cap: the message names it
            cap = _CAP.match(error.message) if error.field == "episodes" else None
            if cap is None or int(cap.group(1)) >= len(batch):
                raise
            size = int(cap.group(1))
            continue
        except PayloadTooLarge:
            if len(batch) == 1:
                raise
            size = max(1, len(batch) // 2)
            continue
        done = gen.RecordEpisodes.model_validate(data).record_episodes
        result = RecordResult(
            created=result.created + done.created,
            duplicates=result.duplicates + done.duplicates,
            episode_ids=[*result.episode_ids, *(e.id for e in done.episodes)],
            batches=result.batches + 1)
        start += len(batch)
    return result


def remember(namespace: str, subject: str, predicate: str, object: str | int | float | bool,
             evidence: list[str] | None, valid_from: datetime | str | None,
             valid_to: datetime | str | None, confidence: float | None,
             source: str | None) -> Steps[Remembered]:
    fact: dict[str, Any] = {"subject": subject, "predicate": predicate,
                            "evidence": evidence or [], **_object(object)}
    for key, value in (("validFrom", _time(valid_from)), ("validTo", _time(valid_to)),
                       ("confidence", confidence), ("source", source and source.upper())):
        if value is not None:
            fact[key] = value
    gen.FactInput.model_validate(fact)  # the generated input type checks the shape
    data = yield Call(gen.ASSERT_FACTS_GQL, "AssertFacts", {"namespace": namespace,
                                                              "facts": [fact]})
    (asserted,) = gen.AssertFacts.model_validate(data).assert_facts
    return Remembered(outcome=asserted.outcome.value, fact=_to(Fact, asserted.fact))


def recall(namespace: str, query: str, budget: int, session_id: str | None,
           as_of: datetime | str | None = None) -> Steps[Recall]:
    data = yield Call(gen.RECALL_GQL, "Recall", {"namespace": namespace, "query": query,
                                                 "sessionId": session_id, "tokenBudget": budget,
                                                 "asOf": _time(as_of)})
    answer = gen.Recall.model_validate(data).recall
    pieces = [Piece(layer=p.layer, text=p.text, tokens=p.tokens,
                    fact_id=p.fact.id if p.fact else None,
                    episode_id=p.episode.id if p.episode else None,
                    summary_id=p.summary.id if p.summary else None) for p in answer.pieces]
    return Recall(text=_prompt_text(pieces), pieces=pieces, tokens_used=answer.tokens_used,
                  token_budget=answer.token_budget)


_HEADINGS = {"summary": "Summary of the conversation so far:",
             "facts": "What memory believes:", "episodes": "Relevant earlier turns:"}


def _prompt_text(pieces: Sequence[Piece]) -> str:
    """The pieces by layer, each layer under a heading, in the order recall gave them."""
    sections: dict[str, list[str]] = {}
    for piece in pieces:
        sections.setdefault(piece.layer, []).append(piece.text.strip())
    return "\n\n".join(
        "\n".join([_HEADINGS.get(layer, f"{layer}:"), *(f"- {line}" for line in lines)])
        for layer, lines in sections.items())


def search(namespace: str, query: str, limit: int, kinds: list[str] | None) -> Steps[list[Hit]]:
    data = yield Call(gen.SEARCH_GQL, "Search", {
        "namespace": namespace, "query": query, "limit": limit,
        "kinds": [kind.upper() for kind in kinds] if kinds else None})
    hits = []
    for hit in gen.Search.model_validate(data).search.hits:
        item = hit.episode or hit.fact or hit.summary or hit.entity
        assert item is not None, "a hit holds one item"
        text = (hit.episode.content if hit.episode else hit.fact.text if hit.fact
                else hit.summary.text if hit.summary else hit.entity.name if hit.entity else "")
        hits.append(Hit(kind=hit.kind.value, score=hit.score, id=item.id, text=text,
                        episode=_maybe(Episode, hit.episode), fact=_maybe(Fact, hit.fact),
                        summary=_maybe(Summary, hit.summary)))
    return hits


def about(namespace: str, entity: str, valid_at: datetime | str | None,
          as_of: datetime | str | None) -> Steps[list[Fact]]:
    """Now: the entity's facts (by name or alias, either end). At another instant: the facts
    query, which finds the subject by name or alias and the object by its name."""
    if valid_at is None and as_of is None:
        data = yield Call(gen.ABOUT_GQL, "About", {"namespace": namespace, "name": entity})
        found = gen.About.model_validate(data).entity
        if found is None:
            return []
        return [_to(Fact, fact) for fact in (*found.facts_out, *found.facts_in)]
    data = yield Call(gen.ABOUT_AT_GQL, "AboutAt", {
        "namespace": namespace, "name": entity, "validAt": _time(valid_at),
        "asOf": _time(as_of), "first": _ABOUT})
    at = gen.AboutAt.model_validate(data)
    return [_to(Fact, fact) for fact in (*at.as_subject.nodes, *at.as_object.nodes)]


def history(namespace: str, subject: str, predicate: str | None) -> Steps[list[Fact]]:
    """Every version, newest belief first, whatever its status."""
    found: list[Fact] = []
    after: str | None = None
    while True:
        data = yield Call(gen.HISTORY_GQL, "History", {
            "namespace": namespace, "subject": subject, "predicate": predicate,
            "first": _PAGE, "after": after})
        page = gen.History.model_validate(data).facts
        found += [_to(Fact, node) for node in page.nodes]
        if not page.page_info.has_next_page:
            return found
        after = page.page_info.end_cursor


def why(namespace: str, fact_id: str) -> Steps[Provenance]:
    data = yield Call(gen.PROVENANCE_GQL, "Provenance", {"namespace": namespace,
                                                         "factId": fact_id})
    return _to(Provenance, gen.Provenance.model_validate(data).provenance)


def correct(namespace: str, fact_id: str, object: str | int | float | bool, reason: str,
            evidence: list[str] | None) -> Steps[Fact]:
    data = yield Call(gen.CORRECT_FACT_GQL, "CorrectFact", {
        "namespace": namespace, "factId": fact_id, "reason": reason, "evidence": evidence,
        **_object(object)})
    return _to(Fact, gen.CorrectFact.model_validate(data).correct_fact.fact)


def retract(namespace: str, fact_id: str, reason: str) -> Steps[Fact]:
    data = yield Call(gen.RETRACT_FACT_GQL, "RetractFact", {
        "namespace": namespace, "factId": fact_id, "reason": reason})
    return _to(Fact, gen.RetractFact.model_validate(data).retract_fact)


MENTIONS = ("keep", "redact", "erase")


def forget(namespace: str, entity: str | None, episodes: list[str] | None,
           everything: bool, mentions: str = "keep") -> Steps[Receipt]:
    if sum((entity is not None, episodes is not None, everything)) != 1:
        raise ValueError("forget takes exactly one of entity=, episodes= or namespace=True")
    if mentions not in MENTIONS:
        raise ValueError(f"mentions must be one of {', '.join(MENTIONS)}")
    if mentions != "keep" and entity is None:
        raise ValueError("mentions= goes with entity=")
    if entity is not None:
        data = yield Call(gen.ERASE_SUBJECT_GQL, "EraseSubject", {
            "namespace": namespace, "entity": entity, "mentions": mentions.upper()})
        receipt: BaseModel = gen.EraseSubject.model_validate(data).erase_subject
    elif episodes is not None:
        data = yield Call(gen.ERASE_EPISODES_GQL, "EraseEpisodes",
                          {"namespace": namespace, "ids": episodes})
        receipt = gen.EraseEpisodes.model_validate(data).erase_episodes
    else:
        data = yield Call(gen.ERASE_NAMESPACE_GQL, "EraseNamespace",
                          {"namespace": namespace, "confirm": namespace})
        receipt = gen.EraseNamespace.model_validate(data).erase_namespace
    raw = receipt.model_dump(by_alias=True, mode="json")
    raw["counts"] = {count["kind"]: count["count"] for count in raw["counts"]}
    return Receipt.model_validate(raw)


def forget_plan(namespace: str, entity: str | None, episodes: list[str] | None,
                everything: bool, mentions: str = "keep") -> Steps[ErasurePlan]:
    """``forget``'s dry run: what erasing the entity would remove (only an entity has one)."""
    if entity is None or episodes is not None or everything:
        raise ValueError("dry_run=True goes with entity= alone")
    if mentions not in MENTIONS:
        raise ValueError(f"mentions must be one of {', '.join(MENTIONS)}")
    data = yield Call(gen.ERASURE_PLAN_GQL, "ErasurePlan", {
        "namespace": namespace, "entity": entity, "mentions": mentions.upper()})
    plan = _to(ErasurePlan, gen.ErasurePlan.model_validate(data).erasure_plan)
    return plan.model_copy(update={"mentions": plan.mentions.lower()})


def conflicts(namespace: str) -> Steps[list[Conflict]]:
    found: list[Conflict] = []
    after: str | None = None
    while True:
        data = yield Call(gen.OPEN_CONFLICTS_GQL, "OpenConflicts",
                          {"namespace": namespace, "first": _PAGE, "after": after})
        page = gen.OpenConflicts.model_validate(data).conflicts
        found += [_to(Conflict, node) for node in page.nodes]
        if not page.page_info.has_next_page:
            return found
        after = page.page_info.end_cursor


def resolve(namespace: str, conflict_id: str, keep: str, reason: str) -> Steps[Conflict]:
    data = yield Call(gen.RESOLVE_CONFLICT_GQL, "ResolveConflict", {
        "namespace": namespace, "conflictId": conflict_id, "keep": keep, "reason": reason})
    return _to(Conflict, gen.ResolveConflict.model_validate(data).resolve_conflict)


def alias(namespace: str, entity: str, alias: str) -> Steps[Entity]:
    data = yield Call(gen.ADD_ALIAS_GQL, "AddAlias", {"namespace": namespace, "name": entity,
                                                      "alias": alias})
    return _to(Entity, gen.AddAlias.model_validate(data).add_alias)


def set_policy(namespace: str, predicate: str, cardinality: str,
               strategy: str) -> Steps[PredicatePolicy]:
    data = yield Call(gen.SET_PREDICATE_POLICY_GQL, "SetPredicatePolicy", {
        "namespace": namespace, "predicate": predicate, "cardinality": cardinality.upper(),
        "strategy": strategy.upper()})
    return _to(PredicatePolicy, gen.SetPredicatePolicy.model_validate(data).set_predicate_policy)


def summary(namespace: str, session_id: str) -> Steps[Summary | None]:
    data = yield Call(gen.SESSION_SUMMARY_GQL, "SessionSummary", {"namespace": namespace,
                                                                  "sessionId": session_id})
    return _maybe(Summary, gen.SessionSummary.model_validate(data).summary)


def _warn_unless_resumable(turns: list[Turn]) -> None:
    """Warn (once per place, Python's default) when an upload of several turns could not be
    sent again safely: a live chat recording one turn at a time is not an upload to resume."""
    unstable = sum(1 for t in turns if t.occurred_at is None and t.external_id is None)
    if len(turns) > 1 and unstable:
        warnings.warn(NotResumable(
            f"{unstable} of {len(turns)} turns have no occurred_at or external_id: their ids "
            "come from this moment, so recording the same turns again writes them again; give "
            "each turn its time (or an external_id) to make the upload resumable"),
            stacklevel=5)  # the caller of Memory.record


def _episode_input(turn: Turn, position: int, session_id: str | None,
                   now: datetime) -> dict[str, Any]:
    episode = turn.episode(position, session_id, now)
    gen.EpisodeInput.model_validate(episode)  # the generated input type checks the shape
    return episode


def _fitting(batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The longest head of ``batch`` under ``BATCH_BYTES`` (at least one episode)."""
    total = 0
    for index, episode in enumerate(batch):
        total += len(episode["content"].encode()) + len(str(episode.get("metadata", ""))) + 256
        if total > BATCH_BYTES and index:
            return batch[:index]
    return batch


def _object(value: str | int | float | bool | date) -> dict[str, Any]:
    """A string names an entity; numbers, booleans and dates are literals."""
    if isinstance(value, bool):
        return {"value": {"boolean": value}}
    if isinstance(value, int | float):
        return {"value": {"number": value}}
    if isinstance(value, date):
        return {"value": {"date": value.isoformat()}}
    return {"object": value}


def _time(value: datetime | str | None) -> str | None:
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    return value


def _to(model: type[M], generated: BaseModel) -> M:
    return model.model_validate(generated.model_dump(by_alias=True, mode="json"))


def _maybe(model: type[M], generated: BaseModel | None) -> M | None:
    return None if generated is None else _to(model, generated)
