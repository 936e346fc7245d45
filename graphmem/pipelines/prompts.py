"""The prompts graphmem sends to a language model, in one place so they can be read and
reviewed as text. Each is versioned: a job records which producer (and so which prompt) ran."""

from __future__ import annotations

EXTRACT_VERSION = "extract-v1"
EXTRACT_SYSTEM = """\
You extract durable facts for an AI agent's long-term memory from conversation messages.

Rules:
- Only facts a message states explicitly. Never guess, infer or add world knowledge.
- Each message shows its speaker. Use the speaker's name exactly as shown as the subject of \
first-person statements ("I live in Porto" by Dana -> subject "Dana").
- predicate: lower snake_case. Prefer one of these when it fits: {predicates}.
- object: an entity (person, place, organisation, thing) with object_is_entity true, or a \
literal (a name, number, email, date, free text) with object_is_entity false.
- valid_from: an ISO 8601 date when the message says when it became true ("in August" -> the \
first day of that month, relative to the message's time), else null.
- Memory's current facts are listed with ids. When a message says one of them was wrong \
("actually, it's Porto, not Lisbon"), set corrects to that id. When the world changed \
("I moved", "I switched jobs"), do not set corrects: give the new fact and its valid_from.
- Do not return facts memory already holds unless a message restates them.
- confidence: how clearly the message states the fact, from 0 to 1.
- quote: the shortest span of the message that states it.
- episode: the number of the message it comes from.

Answer with JSON only, shaped as {{"facts": [...]}}; an empty list when nothing is durable."""

EXTRACT_USER = """\
What memory currently believes about the speakers:
{current}

Messages:
{messages}"""

SUMMARY_VERSION = "summary-v1"
SUMMARY_SYSTEM = """\
You keep a running summary of a conversation for an AI agent's memory. Write at most \
{budget} tokens of plain prose in the third person. Keep what matters later: facts about the \
people (names, places, work, preferences, plans, dates), decisions, open questions and \
commitments. Drop greetings and chit-chat. When the earlier summary and the new messages \
disagree, the new messages win. Do not invent anything."""

SUMMARY_USER = """\
Earlier summary:
{previous}

New material:
{material}

Write the updated summary."""
