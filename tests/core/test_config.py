"""One typed settings object: env first, secrets masked, errors name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.core.config import Settings, get_settings
from graphmem.core.errors import ConfigError


def test_secret_is_masked_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", "hunter2-very-secret")
    settings = Settings()
    assert "hunter2-very-secret" not in repr(settings)
    assert settings.neo4j_password is not None
    assert settings.neo4j_password.get_secret_value() == "hunter2-very-secret"


def test_invalid_value_names_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_PORT", "not-a-port")
    with pytest.raises(ConfigError, match="GRAPHMEM_PORT"):
        get_settings()


def test_unknown_uri_scheme_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_NEO4J_URI", "http://example.invalid")
    with pytest.raises(ConfigError, match="GRAPHMEM_NEO4J_URI"):
        get_settings()


@pytest.mark.parametrize("options", ["-Xss1m 'unclosed", "-Xss1m com.example.Main", "-cp /x"])
def test_jvm_options_are_only_jvm_options(monkeypatch: pytest.MonkeyPatch, options: str) -> None:
    """An unclosed quote, or a word that is no option (a main class, a classpath), is a
    configuration error naming the key, not a Neo4j that fails to start."""
    monkeypatch.setenv("GRAPHMEM_LOCAL_JVM_OPTIONS", options)
    with pytest.raises(ConfigError, match="GRAPHMEM_LOCAL_JVM_OPTIONS"):
        get_settings()


def test_the_env_file_is_read_from_the_home(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    """$GRAPHMEM_HOME/graphmem.env, whatever the working directory (it was read relative to
    the directory the process started in)."""
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    (home / "graphmem.env").write_text("GRAPHMEM_PORT=8123\n")
    monkeypatch.setenv("GRAPHMEM_HOME", str(home))
    monkeypatch.delenv("GRAPHMEM_PORT", raising=False)
    monkeypatch.chdir(elsewhere)
    assert get_settings().port == 8123
