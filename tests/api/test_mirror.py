"""``mirror``: how every API type's ``.of`` makes its object from a domain one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from graphmem.api.episodes import Episode
from graphmem.api.server.fields import mirror
from graphmem.episodes import store as domain


def _episode() -> domain.Episode:
    now = datetime(2026, 1, 2, tzinfo=UTC)
    return domain.Episode(
        id="ep_1", namespace="a/b", content="I moved to Porto",
        kind=domain.EpisodeKind.USER_MESSAGE,
        occurred_at=now, recorded_at=now, external_id="m1", session_id="s1", seq=3,
        actor="user", metadata={"k": 1}, importance=0.5,
        sensitivity=domain.Sensitivity.PERSONAL, content_hash="h", archived_at=now)


def test_each_field_comes_from_the_same_name_unless_given() -> None:
    stored = _episode()
    made = Episode.of(stored)
    assert (made.id, made.namespace, made.external_id, made.session_id, made.seq) == \
        ("ep_1", "a/b", "m1", "s1", 3)
    assert (made.text, made.meta, made.archived_at) == \
        (stored.content, stored.metadata, stored.archived_at)
    assert made.redacted_at is None
    # the domain's own `content` and `metadata` never take the resolvers' places
    assert not isinstance(made.__dict__.get("content"), str)


def test_a_field_the_source_lacks_or_an_unknown_one_fails() -> None:
    @dataclass
    class Short:
        id: str

    with pytest.raises(AttributeError):
        Episode.of(Short("ep_1"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        mirror(Episode, _episode(), text="t", meta={}, nonsense=1)
