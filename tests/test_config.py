"""One typed settings object: env first, secrets masked, errors name the key."""

from __future__ import annotations

import pytest

from graphmem.config import Settings, get_settings
from graphmem.errors import ConfigError


def test_secret_is_masked_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", "hunter2-very-secret")
    settings = Settings()
    assert "hunter2-very-secret" not in repr(settings)
    assert settings.neo4j_password is not None
    assert settings.neo4j_password.get_secret_value() == "hunter2-very-secret"


def test_invalid_value_names_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_PORT", "not-a-port")
    get_settings.cache_clear()
    try:
        with pytest.raises(ConfigError, match="GRAPHMEM_PORT"):
            get_settings()
    finally:
        get_settings.cache_clear()


def test_unknown_uri_scheme_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_NEO4J_URI", "http://example.invalid")
    get_settings.cache_clear()
    try:
        with pytest.raises(ConfigError, match="GRAPHMEM_NEO4J_URI"):
            get_settings()
    finally:
        get_settings.cache_clear()
