"""The memory tools a model is handed: their schemas (OpenAI's and Anthropic's formats, valid
JSON Schema) and the dispatcher, run tool by tool against a real `graphmem serve` (the
`server_url` fixture of this folder's conftest)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from graphmem_client import AsyncMemory, Memory
from graphmem_client.tools import (
    TOOLS,
    anthropic_tools,
    handle_tool_call,
    handle_tool_call_async,
    openai_tools,
)
from jsonschema import Draft202012Validator

from tests.support.http import HTTP

NAMES = {"remember", "record", "recall", "search", "about", "history", "why", "correct",
         "retract", "forget", "conflicts", "resolve_conflict", "alias", "summary"}
# Arguments a model would send, one call per tool: each must fit the schema the model saw.
EXAMPLES: dict[str, dict[str, Any]] = {
    "remember": {"subject": "Dana", "predicate": "works_at", "object": "Acme Robotics",
                 "evidence": ["u1"], "confidence": 0.9, "valid_from": "2026-05-01T00:00:00Z",
                 "source": "user_statement"},
    "record": {"turns": [{"role": "user", "content": "I moved to Porto", "actor": "Dana"}],
               "session_id": "chat-1"},
    "recall": {"query": "Where does Dana work?", "budget": 500, "session_id": "chat-1"},
    "search": {"query": "Acme", "limit": 5, "kinds": ["fact", "episode"]},
    "about": {"entity": "Dana", "valid_at": "2026-04-01T00:00:00Z",
              "as_of": "2026-05-01T00:00:00Z"},
    "history": {"subject": "Dana", "predicate": "works_at"},
    "why": {"fact_id": "fact_1"},
    "correct": {"fact_id": "fact_1", "object": "Globex", "reason": "the user said so",
                "evidence": ["u2"]},
    "retract": {"fact_id": "fact_1", "reason": "never true"},
    "forget": {"entity": "Dana", "mentions": "redact", "dry_run": True},
    "conflicts": {},
    "resolve_conflict": {"conflict_id": "c1", "keep": "fact_1", "reason": "the user said so"},
    "alias": {"entity": "user", "alias": "Dana"},
    "summary": {"session_id": "chat-1"},
}


@pytest.fixture
def memory(server_url: str, admin_token: str, ns: str) -> Iterator[Memory]:
    with Memory(server_url, admin_token, ns) as opened:
        yield opened


def _properties(schema: dict[str, Any]) -> Iterator[str]:
    """Every property name anywhere in a schema."""
    for name, sub in schema.get("properties", {}).items():
        yield name
        yield from _properties(sub)
    if isinstance(schema.get("items"), dict):
        yield from _properties(schema["items"])
    for option in schema.get("anyOf", []):
        yield from _properties(option)


def test_openai_tools_are_function_tools_with_valid_schemas() -> None:
    tools = openai_tools()
    assert {tool["function"]["name"] for tool in tools} == NAMES
    for tool in tools:
        assert set(tool) == {"type", "function"} and tool["type"] == "function"
        function = tool["function"]
        assert set(function) == {"name", "description", "parameters"}
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", function["name"])
        assert 0 < len(function["description"]) <= 1024
        _check_parameters(function["parameters"])


def test_anthropic_tools_have_valid_input_schemas() -> None:
    tools = anthropic_tools()
    assert {tool["name"] for tool in tools} == NAMES
    for tool in tools:
        assert set(tool) == {"name", "description", "input_schema"}
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", tool["name"])
        assert tool["description"]
        _check_parameters(tool["input_schema"])


def _check_parameters(schema: dict[str, Any]) -> None:
    Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    # Anthropic refuses a request whose tools combine schemas at the top ("input_schema does
    # not support oneOf, allOf, or anyOf at the top level"), and OpenAI's strict mode too.
    assert not {"oneOf", "anyOf", "allOf", "not", "if"} & set(schema)
    assert set(schema.get("required", [])) <= set(schema["properties"])
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text and '"title"' not in text
    # Namespace and key come from the Memory's configuration, never from a model.
    assert not {"namespace", "key", "api_key", "url"} & set(_properties(schema))
    for name, prop in schema["properties"].items():
        assert prop.get("description") or "anyOf" in prop, name


@pytest.mark.hostile("mcp")
def test_no_tool_erases_a_whole_namespace() -> None:
    """One prompt-injected call must not erase a user's every memory."""
    forget = next(t for t in openai_tools() if t["function"]["name"] == "forget")
    assert set(forget["function"]["parameters"]["properties"]) == {
        "entity", "episodes", "mentions", "dry_run"}
    assert all("namespace" not in t["function"]["parameters"]["properties"]
               for t in openai_tools())


def test_both_formats_come_from_one_definition() -> None:
    anthropic = {tool["name"]: tool for tool in anthropic_tools()}
    for tool in openai_tools():
        function = tool["function"]
        twin = anthropic[function["name"]]
        assert function["description"] == twin["description"]
        assert function["parameters"] == twin["input_schema"]
    assert [tool.name for tool in TOOLS] == [t["name"] for t in anthropic_tools()]


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.name)
def test_a_models_arguments_fit_the_schema_it_saw_and_the_dispatcher(tool: Any) -> None:
    example = EXAMPLES[tool.name]
    Draft202012Validator(tool.parameters).validate(example)
    tool.arguments.model_validate(example)
    assert not Draft202012Validator(tool.parameters).is_valid({**example, "namespace": "x/y"})


def test_the_dispatcher_runs_every_tool_against_the_service(
        memory: Memory, server_url: str, admin_token: str, ns: str) -> None:
    ran = set()

    def call(name: str, arguments: dict[str, Any] | str) -> str:
        ran.add(name)
        return handle_tool_call(memory, name, arguments)

    recorded = call("record", {"turns": [
        {"role": "user", "content": "I just started a new job at Acme Robotics.", "actor": "Dana"},
        {"role": "assistant", "content": "Congratulations, Dana!"}], "session_id": "chat-1"})
    assert recorded.startswith("Recorded 2 new turns (0 already stored)"), recorded
    episodes = re.search(r"evidence: (.+)\.$", recorded)
    assert episodes is not None
    first_turn = episodes[1].split(", ")[0]

    # OpenAI hands the arguments over as JSON text.
    remembered = call("remember", json.dumps({
        "subject": "Dana", "predicate": "works_at", "object": "Acme Robotics",
        "evidence": [first_turn], "confidence": 0.9}))
    assert remembered.startswith("Remembered: "), remembered
    assert "Dana works at Acme Robotics" in remembered
    fact = remembered.split(": ")[1]

    assert "Acme Robotics" in call("recall", {"query": "Where does Dana work?",
                                              "session_id": "chat-1"})
    assert fact in call("search", {"query": "Acme Robotics", "kinds": ["fact"]})
    about = call("about", {"entity": "Dana"})
    assert about.startswith(f"{fact}: Dana works at Acme Robotics (active; confidence 0.9")
    why = call("why", {"fact_id": fact})
    assert "Evidence:" in why and "I just started a new job at Acme Robotics." in why
    before = datetime.now(UTC).isoformat()

    fixed = call("record", {"turns": [{"role": "user", "content": "Sorry, I meant Globex.",
                                       "actor": "Dana"}], "session_id": "chat-1"})
    correction = fixed.rsplit(": ", 1)[1].rstrip(".")
    corrected = call("correct", {"fact_id": fact, "object": "Globex", "reason": "typo",
                                 "evidence": [correction]})
    assert corrected.startswith("Corrected; the old value is kept as history. Now: ")
    assert "Dana works at Globex" in corrected
    globex = corrected.split("Now: ")[1].split(": ")[0]
    assert "Globex" in call("about", {"entity": "Dana"})
    assert "Acme" not in call("about", {"entity": "Dana"})
    believed = call("about", {"entity": "Dana", "as_of": before})
    assert believed.startswith(f"{fact}: Dana works at Acme Robotics (superseded") and \
        "Globex" not in believed
    assert call("about", {"entity": "Dana", "as_of": "2020-01-01T00:00:00Z"}) == \
        "Memory held no facts about Dana then."
    assert "Replaced by:" in call("why", {"fact_id": fact})
    assert "Sorry, I meant Globex." in call("why", {"fact_id": globex})
    history = call("history", {"subject": "Dana", "predicate": "works_at"}).splitlines()
    assert [line.split(": ")[0] for line in history] == [globex, fact]
    assert re.fullmatch(rf"{fact}: Dana works at Acme Robotics \(superseded; believed from "
                        r"[-\d: ]+; ended [-\d: ]+ by tests-admin; reason: typo\)", history[1])
    assert call("history", {"subject": "Nobody"}) == "Memory has never held facts about Nobody."
    retracted = call("retract", {"fact_id": globex, "reason": "she never joined"})
    assert retracted.startswith(f"Retracted (kept as history): {globex}: ")
    assert "retracted" in retracted
    assert call("about", {"entity": "Dana"}) == "Memory holds no current facts about Dana."

    # Two values for a one-valued predicate that only a person can settle: a conflict.
    _graphql(server_url, admin_token, """mutation($ns: String!) { setPredicatePolicy(
        namespace: $ns, predicate: "favorite_color", cardinality: ONE, strategy: MANUAL) {
        predicate } }""", ns=ns)
    blue = call("remember", {"subject": "Dana", "predicate": "favorite_color", "object": "blue"})
    green = call("remember", {"subject": "Dana", "predicate": "favorite_color",
                              "object": "green", "source": "user_statement"})
    assert green.startswith("Remembered, but it conflicts with another value"), green
    assert "user_statement" in green
    conflict = re.search(r"open conflict (\S+)\)", call("about", {"entity": "Dana"}))
    assert conflict is not None
    listed = call("conflicts", {}).splitlines()
    assert listed[0] == f"Conflict {conflict[1]}: Dana favorite_color, candidates:"
    assert sorted(line.split(": ")[1].split(" (")[0] for line in listed[1:]) == [
        "Dana's favorite color is blue", "Dana's favorite color is green"]
    keep = blue.split(": ")[1]
    resolved = call("resolve_conflict", {"conflict_id": conflict[1], "keep": keep,
                                         "reason": "the user said blue"})
    assert resolved.startswith(f"Conflict {conflict[1]} resolved; kept: {keep}: "), resolved
    assert call("about", {"entity": "Dana"}).startswith(
        f"{keep}: Dana's favorite color is blue (active")
    assert call("conflicts", {}) == "No open conflicts."

    assert call("alias", {"entity": "Dana", "alias": "D. Reyes"}) == \
        "Dana is also called: D. Reyes."
    assert keep in call("about", {"entity": "D. Reyes"})
    assert call("alias", {"entity": "Nobody", "alias": "x"}).startswith(
        "Error from alias: NOT_FOUND")
    assert call("summary", {"session_id": "chat-1"}) == "No summary of session chat-1 yet."
    _graphql(server_url, admin_token, """mutation($ns: String!, $s: SummaryInput!) {
        writeSummary(namespace: $ns, summary: $s) { id } }""", ns=ns, s={
        "text": "A new job was mentioned.", "covers": [first_turn], "sessionId": "chat-1"})
    assert call("summary", {"session_id": "chat-1"}) == "A new job was mentioned."

    erased = call("forget", {"entity": "Dana"})
    assert erased.startswith("Erased ") and "verified: nothing of it is left" in erased
    assert call("about", {"entity": "Dana"}) == "Memory holds no current facts about Dana."
    erased = call("forget", {"episodes": [first_turn]})
    assert "1 " in erased and "verified" in erased
    assert ran == NAMES


def test_failures_come_back_as_text_the_model_can_act_on(
        memory: Memory, server_url: str) -> None:
    assert handle_tool_call(memory, "remember_everything", {}).startswith(
        "Error: there is no tool 'remember_everything'. Memory tools: recall, ")
    assert "not valid JSON" in handle_tool_call(memory, "about", '{"entity": ')
    missing = handle_tool_call(memory, "remember", {"subject": "Dana", "object": "Acme"})
    assert missing == ("Error: invalid arguments for remember: predicate: Field required. "
                       "Fix them and call remember again.")
    # A model cannot aim a call at another namespace: the argument does not exist.
    elsewhere = handle_tool_call(memory, "about", {"entity": "Dana", "namespace": "other/user"})
    assert elsewhere.startswith("Error: invalid arguments for about: namespace: Extra inputs")
    both = handle_tool_call(memory, "forget", {"entity": "Dana", "episodes": ["ep_1"]})
    assert "exactly one of entity or episodes" in both
    unknown = handle_tool_call(memory, "why", {"fact_id": "fact_none"})
    assert unknown.startswith("Error from why: NOT_FOUND"), unknown
    assert "about and search show what memory holds" in unknown
    with Memory(server_url, "gm_not_a_key", "test/nobody", retries=0) as stranger:
        refused = handle_tool_call(stranger, "about", {"entity": "Dana"})
    assert refused.startswith("Error from about: UNAUTHENTICATED"), refused
    with Memory("http://127.0.0.1:9/graphql", "gm_x", "test/nobody", retries=0) as nowhere:
        unreachable = handle_tool_call(nowhere, "recall", {"query": "hi"})
    assert unreachable.startswith("Error from recall: UNREACHABLE"), unreachable


async def test_the_async_dispatcher_answers_as_the_sync_one(
        server_url: str, admin_token: str, ns: str) -> None:
    async with AsyncMemory(server_url, admin_token, ns) as memory:
        remembered = await handle_tool_call_async(memory, "remember", {
            "subject": "user", "predicate": "lives_in", "object": "Porto"})
        assert remembered.startswith("Remembered: ") and "Porto" in remembered
        about = await handle_tool_call_async(memory, "about", '{"entity": "user"}')
        assert remembered.split(": ")[1] in about
        assert (await handle_tool_call_async(memory, "why", {})).startswith(
            "Error: invalid arguments for why: fact_id: Field required")


def _graphql(url: str, key: str, query: str, **variables: Any) -> dict[str, Any]:
    body = HTTP.post(url, json={"query": query, "variables": variables}, timeout=30,
                      headers={"Authorization": f"Bearer {key}"}).json()
    assert not body.get("errors"), body
    return dict(body["data"])
