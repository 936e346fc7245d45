"""Which episodes are worth an extraction call, and the reasons given (pure logic)."""

from __future__ import annotations

import pytest

from graphmem.pipelines.selection import Decision, decide


@pytest.mark.parametrize(("content", "reasons"), [
    ("Hi! I'm Dana. I just started a new job at Acme Robotics.", ("self_description",)),
    ("My wife and I are vegetarians", ("self_description",)),
    ("I love hiking and I can't stand mornings.", ("preference",)),
    ("my favourite colour is green", ("preference",)),
    ("Please always answer in Portuguese.", ("preference",)),
    ("Actually, it was Porto, not Lisbon.", ("correction",)),
    ("Not anymore.", ("correction",)),
    ("The meeting is at 3pm", ("numbers",)),
    ("dana@example.com", ("identifier",)),
    ("see https://example.org/docs", ("identifier",)),
    ("see you on Friday", ("date",)),
    ("Actually, I switched jobs in August: I'm at Globex now.",
     ("self_description", "correction", "date")),
    ("I'm 34 and my email is dana@example.com",
     ("self_description", "numbers", "identifier")),
])
def test_user_messages_with_signals_are_worth_it(content: str, reasons: tuple[str, ...]) -> None:
    assert decide("user_message", content) == Decision(True, reasons)


@pytest.mark.parametrize("content", [
    "hi", "Thanks!", "ok", "sounds good", "Great, thank you so much!", "lol",
    "I'm not sure", "I'm going to the store", "I have a question", "may I ask something?",
])
def test_greetings_and_acknowledgements_are_not(content: str) -> None:
    assert decide("user_message", content) == Decision(False, ("no_signal",))


@pytest.mark.parametrize("kind", ["agent_message", "tool_call", "tool_result", "error"])
def test_agent_side_kinds_are_never_worth_it(kind: str) -> None:
    # Even with signals: the agent's words are not the user's facts.
    assert decide(kind, "I live in Lisbon, my email is a@b.co") == Decision(
        False, (f"kind_{kind}",))


def test_documents_and_observations_need_signals_too() -> None:
    assert decide("document", "Invoice 2026-0042 for Acme") == Decision(True, ("numbers",))
    assert decide("observation", "The user seems happy.") == Decision(False, ("no_signal",))
    assert decide("observation", "User said: I moved to Porto").worth_it


def test_empty_and_unknown() -> None:
    assert decide("user_message", "   \n") == Decision(False, ("empty",))
    assert decide("telepathy", "I live in Lisbon") == Decision(False, ("kind_unknown",))


def test_typographic_apostrophes() -> None:
    assert decide("user_message", "I\u2019m allergic to nuts").reasons == ("self_description",)
