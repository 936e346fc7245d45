"""Background sync's settings, read once at start: off unless an interval and namespaces are
given, and a half-set one stops the service naming what is missing. (The sync itself runs
end to end in tests/portability/test_federation.py.)"""

from __future__ import annotations

import pytest

from graphmem.core.config import Settings
from graphmem.core.errors import ConfigError, InvalidInput
from graphmem.portability.federation import Content
from graphmem.portability.syncing import Background


def test_background_sync_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_SYNC_NAMESPACES", "acme/user-42")
    assert Background.of(Settings()) is None  # no interval
    monkeypatch.setenv("GRAPHMEM_SYNC_INTERVAL_S", "60")
    monkeypatch.delenv("GRAPHMEM_SYNC_NAMESPACES")
    assert Background.of(Settings()) is None  # no namespace


def test_background_sync_reads_its_namespaces_comma_separated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in (("INTERVAL_S", "60"), ("NAMESPACES", " acme/user-42, acme/team ,"),
                        ("URL", "https://memory.example.com/"), ("KEY", "gm_x_y"),
                        ("DEVICE", "laptop"), ("CONTENT", "facts")):
        monkeypatch.setenv(f"GRAPHMEM_SYNC_{name}", value)
    plan = Background.of(Settings())
    assert plan is not None
    assert plan.namespaces == ("acme/user-42", "acme/team")
    assert (plan.url, plan.device, plan.content, plan.every_s, plan.page) == \
        ("https://memory.example.com", "laptop", Content.FACTS, 60.0, 500)
    assert "gm_x_y" not in repr(plan.namespaces) + repr(Settings())


def test_a_half_set_background_sync_names_what_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_SYNC_INTERVAL_S", "60")
    monkeypatch.setenv("GRAPHMEM_SYNC_NAMESPACES", "acme/user-42")
    monkeypatch.setenv("GRAPHMEM_SYNC_URL", "https://memory.example.com")
    with pytest.raises(ConfigError, match="GRAPHMEM_SYNC_KEY, GRAPHMEM_SYNC_DEVICE"):
        Background.of(Settings())
    monkeypatch.setenv("GRAPHMEM_SYNC_KEY", "gm_x_y")
    monkeypatch.setenv("GRAPHMEM_SYNC_DEVICE", "a laptop")  # not a device's name
    with pytest.raises(InvalidInput):
        Background.of(Settings())
