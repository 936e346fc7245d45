"""An LLM endpoint that answers with hostile JSON (a prompt-injected turn can steer what the
model writes): the job fails with a clear, retryable error that quotes no memory, and
nothing is written."""

from __future__ import annotations

import pytest

from graphmem.db.database import Database
from graphmem.jobs.queue import JobState
from tests.support.chat_endpoint import Reply, chat_endpoint
from tests.support.graph import namespace_contents
from tests.support.llm import extract_with, llm_settings, record_turns

pytestmark = pytest.mark.hostile("extraction")


@pytest.mark.parametrize("content", [
    '{"facts": ' + "[" * 100_000 + "]" * 100_000 + "}",  # past the parser's stack
    '{"facts": [{"episode": 1, "subject": ' + '{"a": ' * 5_000 + "1" + "}" * 5_000 + "}]}",
])
async def test_json_nested_past_the_parser_is_a_clear_error(db: Database, ns: str,
                                                             content: str) -> None:
    episodes = await record_turns(db, ns, "I live in Lisbon.")
    before = [n for n in await namespace_contents(db, ns) if "'Job'" not in n]
    with chat_endpoint(Reply(content=content)) as llm:
        job = await extract_with(db, ns, llm_settings(llm.url), episodes)
    assert (job.state, job.attempts) == (JobState.QUEUED, 1), job  # retried, as malformed JSON
    assert job.error is not None and "JSON" in job.error and "Lisbon" not in job.error
    assert [n for n in await namespace_contents(db, ns) if "'Job'" not in n] == before
