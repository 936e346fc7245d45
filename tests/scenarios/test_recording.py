"""Recording a conversation: what makes sending it again safe (README: *record*)."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime, timedelta

import pytest
from graphmem_client import AsyncMemory, NotResumable

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def transcript(with_times: bool) -> list[dict[str, object]]:
    lines = ["Hi, I'm Sam.", "Hello Sam!", "I adopted a dog, Biscuit."]
    return [{"role": "user" if i % 2 == 0 else "assistant", "content": line}
            | ({"occurred_at": START + timedelta(minutes=i)} if with_times else {})
            for i, line in enumerate(lines)]


async def test_an_upload_with_times_sent_twice_is_written_once(memory: AsyncMemory) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a resumable upload gives no warning
        first = await memory.record(transcript(with_times=True), session_id="import")
        again = await memory.record(transcript(with_times=True), session_id="import")
    assert (first.created, again.created, again.duplicates) == (3, 0, 3)
    assert again.episode_ids == first.episode_ids


async def test_an_upload_without_times_warns_that_it_is_not_resumable(
        memory: AsyncMemory) -> None:
    with pytest.warns(NotResumable, match="3 of 3 turns have no occurred_at"):
        await memory.record(transcript(with_times=False), session_id="import")


async def test_one_turn_at_a_time_keeps_every_turn_even_when_words_repeat(
        memory: AsyncMemory) -> None:
    """A live chat records each turn as it happens, without times: "yes" said twice is two
    turns (the log is lossless), and no warning nags about it."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for line in ("Do you like dogs?", "yes", "Cats too?", "yes"):
            await memory.record([{"role": "user", "content": line}], session_id="live")
    hits = await memory.search("yes", kinds=["episode"], limit=10)
    assert [hit.text for hit in hits].count("yes") == 2
