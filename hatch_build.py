"""The wheel carries the console's browser libraries: at build time, the files
graphmem/console/assets.py serves are copied from node_modules/ (npm ci from
package-lock.json) into graphmem/console/vendor/, with the licence of every package in the
lockfile (graphiql.min.js bundles many of them). An editable install serves node_modules/
itself, so it copies nothing."""

from __future__ import annotations

import importlib.util
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent
TARGET = "graphmem/console/vendor"


def _vendor() -> dict[str, str]:
    """assets.VENDOR, read from its file: the one list of what is served."""
    spec = importlib.util.spec_from_file_location("_assets", ROOT / "graphmem/console/assets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.VENDOR)


def _licences(node_modules: Path) -> str:
    """Every locked package's name, version, licence and licence text (when it ships one)."""
    lock = json.loads((ROOT / "package-lock.json").read_text("utf-8"))
    parts = []
    for key, entry in sorted(lock["packages"].items()):
        if not key:
            continue
        folder = ROOT / key
        name = key.removeprefix("node_modules/")
        parts.append(f"{'=' * 78}\n{name} {entry.get('version', '')}: "
                     f"{entry.get('license', 'see its package.json')}\n")
        texts = sorted(p for p in folder.iterdir()
                       if p.name.lower().startswith(("license", "licence")) and p.is_file())
        parts.extend(t.read_text("utf-8", "replace") for t in texts[:1])
    return "\n".join(parts)


class VendorHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        node_modules = ROOT / "node_modules"
        vendor = _vendor()
        absent = [rel for rel in vendor.values() if not (node_modules / rel).is_file()]
        if absent:
            raise RuntimeError(f"node_modules/ lacks {', '.join(absent)}: run "
                               "`npm ci --ignore-scripts` (or bin/test once) before building")
        for name, rel in vendor.items():
            build_data["force_include"][str(node_modules / rel)] = f"{TARGET}/{name}"
        self._scratch = Path(tempfile.mkdtemp(prefix="graphmem-wheel-"))
        licences = self._scratch / "LICENSES.txt"
        licences.write_text(_licences(node_modules), "utf-8")
        build_data["force_include"][str(licences)] = f"{TARGET}/LICENSES.txt"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
