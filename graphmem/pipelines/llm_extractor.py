"""Fact extraction by a language model: one call per job for the episodes worth it, with
what memory already believes about the speakers in the prompt, so that a change becomes an
update or a correction instead of a duplicate. The answer is validated; anything that does
not fit (an unknown message number, a bad date) is dropped and counted, never guessed at."""

from __future__ import annotations

from datetime import UTC, date, datetime

from pydantic import BaseModel, Field

from graphmem.episodes.store import Episode
from graphmem.facts import policies
from graphmem.facts.model import Fact
from graphmem.pipelines import prompts
from graphmem.pipelines.candidates import Candidate
from graphmem.pipelines.llm import LLM, Usage

# Facts worth remembering are stated in a message's first few thousand characters; a
# pasted document must not blow the model's context window.
MAX_EPISODE_CHARS = 4_000


class ExtractedFact(BaseModel):
    episode: int = Field(description="The number of the message it comes from.")
    subject: str = Field(min_length=1, max_length=300)
    predicate: str = Field(min_length=1, max_length=64)
    object: str = Field(min_length=1, max_length=300)
    object_is_entity: bool = True
    confidence: float = Field(ge=0, le=1)
    valid_from: str | None = None
    corrects: str | None = None
    quote: str = ""


class Extraction(BaseModel):
    facts: list[ExtractedFact] = Field(max_length=200)


async def extract(llm: LLM, episodes: list[Episode], speakers: dict[str, str],
                  current: list[Fact], max_confidence: float) -> tuple[list[Candidate], Usage]:
    """``speakers``: episode id -> the speaker's entity name."""
    system = prompts.EXTRACT_SYSTEM.format(predicates=", ".join(sorted(policies.DEFAULTS)))
    user = prompts.EXTRACT_USER.format(
        current="\n".join(f"- [{f.id}] {f.text}" for f in current) or "(nothing yet)",
        messages="\n".join(
            f"[{n}] ({e.occurred_at.isoformat()}, {speakers[e.id]}) "
            f"{e.content[:MAX_EPISODE_CHARS]}" for n, e in enumerate(episodes, start=1)))
    answer, usage = await llm.json(system, user, "extraction", Extraction)
    believed = {f.id for f in current}
    candidates = []
    for item in answer.facts:
        if not 1 <= item.episode <= len(episodes):
            continue
        episode = episodes[item.episode - 1]
        candidates.append(Candidate(
            episode_id=episode.id, subject=item.subject, predicate=item.predicate,
            object=item.object, object_is_entity=item.object_is_entity,
            confidence=min(item.confidence, max_confidence), quote=item.quote,
            valid_from=_date(item.valid_from),
            correction=item.corrects in believed,
            corrects_fact_id=item.corrects if item.corrects in believed else None))
    return candidates, usage


def _date(text: str | None) -> datetime | None:
    """An ISO date or datetime from the model, as an aware instant; None if unreadable."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        try:
            moment = datetime.combine(date.fromisoformat(text[:10]), datetime.min.time())
        except ValueError:
            return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
