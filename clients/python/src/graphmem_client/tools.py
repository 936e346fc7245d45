"""Memory as tools for a model: one definition per tool, in OpenAI's and Anthropic's formats,
and a dispatcher that runs a model's tool call and answers in text.

The definitions are the single source of truth: the JSON schema a model sees is generated from
the same pydantic model that validates its arguments, so the two cannot drift. The MCP server
(`graphmem_client.mcp`) serves these definitions too.

The namespace and the API key come from the `Memory` the dispatcher is handed, never from a
tool's arguments: a model cannot read or write another user's memory.

Example (OpenAI chat completions)::

    from openai import OpenAI
    from graphmem_client import Memory
    from graphmem_client.tools import handle_tool_call, openai_tools

    memory = Memory(namespace="acme/user-42")
    reply = OpenAI().chat.completions.create(model="gpt-4o", messages=messages,
                                             tools=openai_tools())
    for call in reply.choices[0].message.tool_calls or []:
        text = handle_tool_call(memory, call.function.name, call.function.arguments)
        messages.append({"role": "tool", "tool_call_id": call.id, "content": text})
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from graphmem_client.errors import GraphmemError
from graphmem_client.models import (
    Conflict,
    Entity,
    Episode,
    ErasurePlan,
    Fact,
    Hit,
    Provenance,
    Recall,
    Receipt,
    RecordResult,
    Remembered,
    Summary,
)

if TYPE_CHECKING:
    from graphmem_client.memory import AsyncMemory, Memory

__all__ = [
    "TOOLS",
    "Tool",
    "ToolResult",
    "anthropic_tools",
    "dispatch",
    "dispatch_async",
    "handle_tool_call",
    "handle_tool_call_async",
    "openai_tools",
]

logger = logging.getLogger(__name__)


class _Arguments(BaseModel):
    """A tool's arguments: the facade method they call, and how its result reads as text."""

    model_config = ConfigDict(extra="forbid")

    method: ClassVar[str]

    def kwargs(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)

    def render(self, result: Any) -> str:
        raise NotImplementedError


_Text = Annotated[str, Field(min_length=1)]
_Value = Annotated[_Text | int | float | bool, Field(
    description='A name, e.g. "Acme Robotics" (it becomes an entity), or a number or true/false.')]
_Reason = Annotated[_Text, Field(description="Why, in a few words (kept for audit).")]
_FactId = Annotated[_Text, Field(description="The fact's id (about, search and remember show it).")]
_EVIDENCE = "Ids of the episodes that say so (record answers them), e.g. the user's turn."
_USER = ('the user: their name if you know it, else "user" (when the user tells you their '
         'name, alias links it to "user")')


class _Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant", "system", "tool"] = Field(description="Who spoke.")
    content: _Text = Field(description="What was said, verbatim.")
    actor: str | None = Field(None, description="The speaker's name, if known.")
    occurred_at: datetime | None = Field(None, description="When (ISO 8601); default: now.")


class _Record(_Arguments):
    method = "record"
    turns: list[_Turn] = Field(min_length=1, description="The turns to log, oldest first.")
    session_id: str | None = Field(None, description="The conversation they belong to.")

    def kwargs(self) -> dict[str, Any]:
        return {"turns": [turn.model_dump(exclude_none=True) for turn in self.turns],
                "session_id": self.session_id}

    def render(self, result: RecordResult) -> str:
        return (f"Recorded {result.created} new turns ({result.duplicates} already stored). "
                f"Episode ids, usable as evidence: {', '.join(result.episode_ids)}.")


class _Remember(_Arguments):
    method = "remember"
    subject: _Text = Field(description=f'Who or what it is about, e.g. "Acme Robotics"; for '
                                       f'{_USER}.')
    predicate: _Text = Field(description='The relation in snake_case, e.g. "works_at", '
                                         '"lives_in", "likes", "allergic_to".')
    object: _Value
    evidence: list[_Text] | None = Field(None, description=_EVIDENCE)
    source: Literal["user_statement", "agent_assertion"] | None = Field(
        None, description="user_statement when the user said it themselves; default "
                          "agent_assertion (what you gathered).")
    valid_from: datetime | None = Field(None, description="When it became true (ISO 8601); "
                                                          "default: when it was said.")
    valid_to: datetime | None = Field(None, description="When it stopped being true (ISO 8601).")
    confidence: float | None = Field(None, ge=0, le=1, description="How sure, 0..1.")

    def render(self, result: Remembered) -> str:
        return f"{_OUTCOMES.get(result.outcome, result.outcome)}: {_fact(result.fact)}"


_OUTCOMES = {
    "CREATED": "Remembered",
    "EVIDENCE_ADDED": "Already known (evidence added)",
    "SUPERSEDED": "Stored as history: memory holds a stronger or later value",
    "DISPUTED": "Remembered, but it conflicts with another value (resolve_conflict settles it)",
}


class _Recall(_Arguments):
    method = "recall"
    query: _Text = Field(description="The user's message, or what you need to know.")
    budget: int = Field(1000, ge=50, le=8000, description="At most this many tokens of context.")
    session_id: str | None = Field(None, description="The current conversation (for its summary).")
    as_of: datetime | None = Field(None, description="What memory held at this instant "
                                   "(ISO 8601); default: now.")

    def render(self, result: Recall) -> str:
        return result.text.strip() or "Memory holds nothing relevant to this."


class _Search(_Arguments):
    method = "search"
    query: _Text = Field(description="Words, a name or a question.")
    limit: int = Field(10, ge=1, le=50, description="How many hits.")
    kinds: list[Literal["episode", "fact", "summary", "entity"]] | None = Field(
        None, min_length=1, description="Only these kinds of hits (default: all).")

    def render(self, result: list[Hit]) -> str:
        return "\n".join(_hit(hit) for hit in result) or "No hits."


class _About(_Arguments):
    method = "about"
    entity: _Text = Field(description=f'A name or alias, e.g. "Dana"; for {_USER}.')
    valid_at: datetime | None = Field(
        None, description="What was true in the world at this instant (ISO 8601); default: now.")
    as_of: datetime | None = Field(
        None, description="What memory believed at this instant (ISO 8601), before later "
                          "changes; default: now.")

    def render(self, result: list[Fact]) -> str:
        if result:
            return "\n".join(_fact(fact) for fact in result)
        if self.valid_at or self.as_of:
            return f"Memory held no facts about {self.entity} then."
        return f"Memory holds no current facts about {self.entity}."


class _History(_Arguments):
    method = "history"
    subject: _Text = Field(description=f'Whose facts, e.g. "Dana"; for {_USER}.')
    predicate: str | None = Field(None, min_length=1,
                                  description='Only this relation, e.g. "works_at".')

    def render(self, result: list[Fact]) -> str:
        what = f"{self.subject} {self.predicate}" if self.predicate else self.subject
        return ("\n".join(_version(fact) for fact in result)
                or f"Memory has never held facts about {what}.")


class _Why(_Arguments):
    method = "why"
    fact_id: _FactId

    def render(self, result: Provenance) -> str:
        return "\n".join([
            _fact(result.fact),
            *_section("Evidence", [_episode(e) for e in result.evidence]),
            *_section("Cited by summaries", [f"{s.id}: {s.text}" for s in result.cited_by]),
            *_section("It replaced", [_fact(f) for f in result.supersedes]),
            *_section("Replaced by", [_fact(f) for f in result.superseded_by])])


class _Correct(_Arguments):
    method = "correct"
    fact_id: _FactId
    object: _Value
    reason: _Reason
    evidence: list[_Text] | None = Field(None, description=_EVIDENCE)

    def render(self, result: Fact) -> str:
        return f"Corrected; the old value is kept as history. Now: {_fact(result)}"


class _Retract(_Arguments):
    method = "retract"
    fact_id: _FactId
    reason: _Reason

    def render(self, result: Fact) -> str:
        return f"Retracted (kept as history): {_fact(result)}"


class _Forget(_Arguments):
    """Whole-namespace erasure is not a tool: one prompt-injected call could erase a user's
    every memory. The application offers it itself (``Memory.forget(namespace=True)``, the
    console) behind its own confirmation. An entity's erasure can be tried first
    (``dry_run``): the model shows the user what would go and asks before it erases."""

    method = "forget"
    entity: str | None = Field(None, min_length=1,
                               description="Erase every fact about this entity.")
    episodes: list[str] | None = Field(None, min_length=1,
                                       description="Erase these episodes (ids).")
    mentions: Literal["keep", "redact", "erase"] = Field(
        "keep", description="With entity: what happens to the past turns that mention it "
                            "(its name or an alias): keep them, redact each mention (the rest "
                            "of the turn stays), or erase those turns.")
    dry_run: bool = Field(False, description="With entity: only list what would be erased "
                                             "(facts, turns, summaries); nothing changes. Show "
                                             "the user and ask before erasing.")

    @model_validator(mode="after")
    def _one_target(self) -> _Forget:
        if (self.entity is None) == (self.episodes is None):
            raise ValueError("give exactly one of entity or episodes")
        if self.entity is None and (self.dry_run or self.mentions != "keep"):
            raise ValueError("mentions and dry_run go with entity")
        return self

    def kwargs(self) -> dict[str, Any]:
        if self.entity is None:
            return {"episodes": self.episodes}
        return {"entity": self.entity, "mentions": self.mentions, "dry_run": self.dry_run}

    def render(self, result: Receipt | ErasurePlan) -> str:
        if isinstance(result, ErasurePlan):
            return _plan(result)
        counts = ", ".join(f"{count} {kind}" for kind, count in result.counts.items() if count)
        check = ("verified: nothing of it is left" if result.verified else
                 f"NOT verified: {result.remaining_nodes} nodes and "
                 f"{result.remaining_searchable} searchable items remain")
        return f"Erased {counts or 'nothing'} (receipt {result.id}); {check}."


def _plan(plan: ErasurePlan) -> str:
    """A dry run as text: what erasing the entity would remove, nothing yet removed."""
    turns = {"erase": "erased", "redact": "each mention redacted"}
    return "\n".join([
        f"Dry run, nothing erased yet. Forgetting {plan.entity} (mentions: {plan.mentions}; "
        f"names matched as whole words: {', '.join(plan.names)}) would remove:",
        *_section("Facts", [f"{f.id}: {f.text}" for f in plan.facts] or ["none"]),
        *_section("Facts retracted (their only evidence goes)",
                  [f"{f.id}: {f.text}" for f in plan.facts_retracted]),
        *_section("Turns", [f"{t.id} ({t.occurred_at:%Y-%m-%d %H:%M}, "
                            f"{turns.get(t.action, t.action)}): {t.excerpt}"
                            for t in plan.turns] or ["none"]),
        *_section("Summaries withdrawn", [f"{s.id}: {s.excerpt}" for s in plan.summaries]),
        "Call forget again without dry_run to erase it; it cannot be undone."])


class _ResolveConflict(_Arguments):
    method = "resolve"
    conflict_id: _Text = Field(description="The conflict's id (a disputed fact in about shows it).")
    keep: _Text = Field(description="The id of the fact that is right.")
    reason: _Reason

    def render(self, result: Conflict) -> str:
        kept = next((f for f in result.candidates if f.id == result.kept), None)
        return (f"Conflict {result.id} {result.status.lower()}; kept: "
                f"{_fact(kept) if kept else result.kept}.")


class _Conflicts(_Arguments):
    method = "conflicts"

    def render(self, result: list[Conflict]) -> str:
        return "\n".join(
            "\n".join([f"Conflict {c.id}: {c.subject} {c.predicate}, candidates:",
                       *(f"- {_fact(f)}" for f in c.candidates)]) for c in result
        ) or "No open conflicts."


class _Alias(_Arguments):
    method = "alias"
    entity: _Text = Field(description='The name memory knows, e.g. "user".')
    alias: _Text = Field(description='Another name for the same one, e.g. "Dana".')

    def render(self, result: Entity) -> str:
        return f"{result.name} is also called: {', '.join(result.aliases)}."


class _Summary(_Arguments):
    method = "summary"
    session_id: _Text = Field(description="The conversation.")

    def render(self, result: Summary | None) -> str:
        if result is None:
            return f"No summary of session {self.session_id} yet."
        return f"{result.text}{' (stale: what it covers has changed)' if result.stale else ''}"


def _version(fact: Fact) -> str:
    """A fact as one version in its history: believed from when, ended when, by whom, why."""
    line = f"{fact.id}: {fact.text} ({fact.status.lower()}"
    if fact.recorded_at:
        line += f"; believed from {fact.recorded_at:%Y-%m-%d %H:%M}"
    if fact.retracted_at:
        line += f"; ended {fact.retracted_at:%Y-%m-%d %H:%M}"
        line += f" by {fact.ended_by}" if fact.ended_by else ""
    line += f"; reason: {fact.reason}" if fact.reason else ""
    return f"{line})"


def _fact(fact: Fact) -> str:
    notes = [fact.status.lower(), f"confidence {fact.confidence:g}", fact.source.lower()]
    if fact.valid_from:
        notes.append(f"from {fact.valid_from.date()}")
    if fact.valid_to:
        notes.append(f"until {fact.valid_to.date()}")
    if fact.reason:
        notes.append(f"reason: {fact.reason}")
    if fact.open_conflicts:
        notes.append(f"open conflict {', '.join(fact.open_conflicts)}")
    return f"{fact.id}: {fact.text} ({'; '.join(notes)})"


def _episode(episode: Episode) -> str:
    who = f"{episode.actor}, " if episode.actor else ""
    where = f", session {episode.session_id}" if episode.session_id else ""
    return f"{episode.id} ({who}{episode.occurred_at:%Y-%m-%d %H:%M}{where}): {episode.content}"


def _hit(hit: Hit) -> str:
    if hit.fact:
        return f"fact {_fact(hit.fact)}"
    if hit.episode:
        return f"episode {_episode(hit.episode)}"
    return f"{hit.kind.lower()} {hit.id}: {hit.text}"


def _section(title: str, lines: list[str]) -> list[str]:
    return [f"{title}:", *(f"- {line}" for line in lines)] if lines else []


@dataclass(frozen=True)
class Tool:
    """One tool: its name, a description written for a model choosing tools, its arguments."""

    name: str
    description: str
    arguments: type[_Arguments]

    @cached_property
    def parameters(self) -> dict[str, Any]:
        """The arguments' JSON schema (draft 2020-12, no `$ref`, no titles)."""
        schema = self.arguments.model_json_schema()
        tidy: dict[str, Any] = _tidy(schema, schema.pop("$defs", {}))
        return tidy


TOOLS: tuple[Tool, ...] = (
    Tool("recall", "Get what memory knows that is relevant to the user's message: the "
         "conversation summary, facts about the people and things it names, past turns when "
         "needed. Call it at the start of a turn before answering anything personal.", _Recall),
    Tool("search", "Search everything memory holds (past turns, facts, summaries, entities) for "
         "words, a name or a question. Use it to find a past detail or a fact's id.", _Search),
    Tool("about", "List what memory currently believes about one person or thing, with fact "
         "ids. Use it before correcting or retracting a fact. With valid_at or as_of: what was "
         "true then, or what memory believed then.", _About),
    Tool("history", "List every version of the facts about someone (of one relation, if "
         "given): current, replaced and withdrawn, with when each was believed and who ended "
         "it, when and why. Use it when the user asks what changed or what was true before.",
         _History),
    Tool("remember", "Store one fact as subject, predicate, object, e.g. Dana works_at Acme "
         "Robotics. Use it when the user tells you something durable about themselves or "
         "others. Facts about the user go under the user's name if you know it, else under "
         "\"user\" (recall reads I, me and my as the user: \"user\", the speaker and their "
         "aliases). A newer value of a single-valued fact (where someone works or lives) "
         "supersedes the old one; the history stays.", _Remember),
    Tool("record", "Log conversation turns verbatim, as evidence and for later recall. Use it "
         "for turns worth keeping that are not logged automatically.", _Record),
    Tool("why", "Explain why memory believes a fact: the turns that evidence it, what it "
         "replaced or was replaced by. Use it when the user asks how you know something.", _Why),
    Tool("correct", "Replace a wrong fact's value when the user corrects you "
         "(\"actually it's Porto, not Lisbon\"); give the user's turn as evidence. The old value "
         "is kept as history.", _Correct),
    Tool("retract", "Withdraw a fact that is no longer believed or was never true, without a "
         "replacement value.", _Retract),
    Tool("forget", "Permanently erase memory the user asks you to delete: everything about one "
         "entity (and, if asked, the past turns that mention it), or some episodes. Cannot be "
         "undone: for an entity, call it with dry_run first, show the user what would go, and "
         "erase once they agree. Erasing all of the user's memory is not a tool: tell the "
         "user where their app offers it.", _Forget),
    Tool("conflicts", "List the disputes memory could not settle (two values for something "
         "that has one), with their candidate facts. Use it to ask the user which is right.",
         _Conflicts),
    Tool("resolve_conflict", "Settle a dispute between facts memory could not decide (two values "
         "for something that has one), keeping the one that is right.", _ResolveConflict),
    Tool("alias", "Record that a name is another name for the same person or thing, e.g. "
         "entity \"user\", alias \"Dana\" when the user tells you their name: facts under "
         "either name are then found by both.", _Alias),
    Tool("summary", "Read the latest summary of a conversation (its session id).", _Summary),
)

_BY_NAME: Mapping[str, Tool] = {tool.name: tool for tool in TOOLS}


def openai_tools() -> list[dict[str, Any]]:
    """The tools in the `tools=[...]` format of OpenAI chat completions."""
    return [{"type": "function",
             "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
            for t in TOOLS]


def anthropic_tools() -> list[dict[str, Any]]:
    """The tools in the `tools=[...]` format of the Anthropic Messages API."""
    return [{"name": t.name, "description": t.description, "input_schema": t.parameters}
            for t in TOOLS]


@dataclass(frozen=True)
class ToolResult:
    """What a tool call answers: text for the model, and whether it is an error."""

    text: str
    is_error: bool = False


def handle_tool_call(memory: Memory, name: str, arguments: Mapping[str, Any] | str | None) -> str:
    """Run a model's tool call against `memory` and answer in text; never raises.

    `arguments` is the call's JSON text (OpenAI) or the parsed object (Anthropic).
    """
    return dispatch(memory, name, arguments).text


async def handle_tool_call_async(memory: AsyncMemory, name: str,
                                 arguments: Mapping[str, Any] | str | None) -> str:
    """`handle_tool_call` for an `AsyncMemory`."""
    return (await dispatch_async(memory, name, arguments)).text


def dispatch(memory: Memory, name: str, arguments: Mapping[str, Any] | str | None) -> ToolResult:
    """`handle_tool_call`, saying whether the answer is an error."""
    prepared = _prepare(name, arguments)
    if isinstance(prepared, ToolResult):
        return prepared
    try:
        result = getattr(memory, prepared.method)(**prepared.kwargs())
    except Exception as error:  # the agent loop must go on: the model reads what went wrong
        return _failed(name, error)
    return ToolResult(prepared.render(result))


async def dispatch_async(memory: AsyncMemory, name: str,
                         arguments: Mapping[str, Any] | str | None) -> ToolResult:
    """`dispatch` for an `AsyncMemory`."""
    prepared = _prepare(name, arguments)
    if isinstance(prepared, ToolResult):
        return prepared
    try:
        result = await getattr(memory, prepared.method)(**prepared.kwargs())
    except Exception as error:  # the agent loop must go on: the model reads what went wrong
        return _failed(name, error)
    return ToolResult(prepared.render(result))


def _prepare(name: str, arguments: Mapping[str, Any] | str | None) -> _Arguments | ToolResult:
    tool = _BY_NAME.get(name)
    if tool is None:
        return ToolResult(f"Error: there is no tool {name!r}. Memory tools: "
                          f"{', '.join(_BY_NAME)}.", is_error=True)
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as error:
            return ToolResult(f"Error: the arguments of {name} are not valid JSON ({error.msg}). "
                              "Call it again with a JSON object.", is_error=True)
    try:
        return tool.arguments.model_validate(arguments or {})
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}"
                             for e in error.errors())
        return ToolResult(f"Error: invalid arguments for {name}: {problems}. "
                          f"Fix them and call {name} again.", is_error=True)


_ADVICE = {
    "NOT_FOUND": "Check the id or name: about and search show what memory holds.",
    "INVALID_INPUT": "Fix that argument and call again.",
    "DUPLICATE_CONFLICT": "Something with that id already exists with other content.",
    "UNAUTHENTICATED": "Memory is not available (the API key was refused); go on without it.",
    "FORBIDDEN": "Memory refused this for this user; go on without it.",
}


def _failed(name: str, error: Exception) -> ToolResult:
    if isinstance(error, GraphmemError):
        field = f" (argument {error.field})" if error.field else ""
        advice = ("It is temporary: try again shortly." if error.retryable
                  else _ADVICE.get(error.code, ""))
        return ToolResult(f"Error from {name}: {error.code}{field}: {error.message}. {advice}"
                          .strip(), is_error=True)
    logger.exception("memory tool %s failed", name)
    return ToolResult(f"Error from {name}: memory failed unexpectedly ({type(error).__name__}). "
                      "Go on without it.", is_error=True)


def _tidy(node: Any, defs: Mapping[str, Any]) -> Any:
    """Inline `$ref`s, drop titles and `null` alternatives of optional fields: what a model
    needs to fill the arguments in, and nothing pydantic adds for itself."""
    if isinstance(node, list):
        return [_tidy(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        return _tidy({**target, **{k: v for k, v in node.items() if k != "$ref"}}, defs)
    options = node.get("anyOf")
    if options and {"type": "null"} in options:
        rest = [option for option in options if option != {"type": "null"}]
        if len(rest) == 1:
            merged = {**{k: v for k, v in node.items() if k != "anyOf"}, **rest[0]}
            return _tidy(merged, defs)
    tidy: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" or (key == "default" and value is None):
            continue
        if key == "properties":
            tidy[key] = {name: _tidy(prop, defs) for name, prop in value.items()}
        else:
            tidy[key] = _tidy(value, defs)
    return tidy
