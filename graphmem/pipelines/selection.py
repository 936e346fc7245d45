"""Which episodes are worth an extraction call.

Extraction may be an LLM call per episode, and most episodes hold nothing durable: the agent's
own replies, tool traffic, errors, "thanks!". This gate is a cheap, deterministic look for the
signals that facts about a person come with: first-person self-description, preferences,
corrections, and numbers, identifiers or dates. It leans towards recall (a wasted call costs
less than a lost fact); the extractors themselves decide what, if anything, is a fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Text the agent side produced: facts about the user are not asserted there, and extracting
# from it would feed the agent's own guesses back into memory as if the user had said them.
_SKIPPED_KINDS = frozenset({"agent_message", "tool_call", "tool_result", "error"})
_SIGNAL_KINDS = frozenset({"user_message", "document", "observation"})

_MONTHS = "january|february|april|june|july|august|september|october|november|december"
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"

# Checked in this order, so reasons come out in a stable order.
_SIGNALS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("self_description", re.compile(
        # "I'm sure", "I'm going to…", "I have a question" say nothing about the speaker.
        r"\bI(?:'?m|\s+am)\b(?!\s+(?:not\s+)?(?:sure|fine|good|ok|okay|sorry|glad|done|ready|"
        r"here|back|going|just|on\s+it|happy\s+to|looking\s+for)\b)"
        r"|\bI(?:'ve|\s+have)\b(?!\s+(?:a|one|another)?\s*(?:quick\s+)?question)"
        r"|\bI\s+(?:(?:just|recently|also|still|now|currently)\s+)?"
        r"(?:live|lived|work|worked|moved|relocated|started|joined|switched|turned|grew\s+up|"
        r"was\s+born|used\s+to|got)\b"
        r"|\bmy\s+(?:name|wife|husband|partner|boyfriend|girlfriend|son|daughter|kids?|children|"
        r"mom|mum|mother|dad|father|sister|brother|parents|family|boss|job|birthday|email|"
        r"e-mail|phone|number|address|dog|cat|home|company|doctor)\b"
        r"|\bcall\s+me\b|\ballergic\b",
        re.IGNORECASE)),
    ("preference", re.compile(
        r"\bI\s+(?:(?:really|absolutely|also|just|do|don't|do\s+not|totally)\s+)?"
        r"(?:like|love|hate|prefer|enjoy|dislike|adore|detest|loathe)\b"
        r"|\bI(?:'d|\s+would)\s+(?:prefer|rather)\b|\bcan'?t\s+stand\b|\bcannot\s+stand\b"
        r"|\bfavou?rite\b|\bfan\s+of\b"
        # Standing instructions to the agent are preferences too.
        r"|\bplease\s+(?:always|never|don't|do\s+not|stop)\b|\bfrom\s+now\s+on\b",
        re.IGNORECASE)),
    ("correction", re.compile(
        r"\bactually\b|\bnot\s+anymore\b|\bno\s+longer\b|\banymore\b|\bI\s+meant\b"
        r"|\bcorrection\b|\bI\s+misspoke\b|\bthat'?s\s+(?:wrong|incorrect|not\s+right)\b",
        re.IGNORECASE)),
    ("numbers", re.compile(r"\d")),
    # An address starts where a run of its characters starts: tried at every character of
    # the run instead, 200,000 letters or dots without an "@" took a minute (quadratic).
    ("identifier", re.compile(
        r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://|\bwww\.|(?<![\w@])@\w{2,}",
        re.IGNORECASE)),
    ("date", re.compile(
        # "may" and "march" are words first: only as months after a preposition.
        rf"\b(?:{_MONTHS}|{_WEEKDAYS})\b|\b(?:in|on|since|by|until)\s+(?:may|march)\b"
        r"|\b(?:yesterday|tomorrow|ago)\b|\b(?:last|next)\s+(?:week|month|year)\b",
        re.IGNORECASE)),
)


@dataclass(frozen=True)
class Decision:
    worth_it: bool
    reasons: tuple[str, ...]  # the signals found, or why it was skipped ("no_signal", "kind_…")


def decide(kind: str, content: str) -> Decision:
    """Whether an episode of ``kind`` saying ``content`` is worth extracting, and why."""
    if kind in _SKIPPED_KINDS:
        return Decision(False, (f"kind_{kind}",))
    if kind not in _SIGNAL_KINDS:
        # A fixed reason rather than the raw kind: reasons end up as metric labels.
        return Decision(False, ("kind_unknown",))
    if not content.strip():
        return Decision(False, ("empty",))
    reasons = signals(content)
    if not reasons:
        return Decision(False, ("no_signal",))
    return Decision(True, reasons)


def signals(content: str) -> tuple[str, ...]:
    """The names of the signals ``content`` carries, in a fixed order."""
    text = content.replace("\u2019", "'").replace("\u2018", "'")  # typographic apostrophes
    return tuple(name for name, pattern in _SIGNALS if pattern.search(text))
