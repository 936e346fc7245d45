"""The browser libraries the pages load, pinned in ``package-lock.json`` and installed into
``node_modules/`` by ``bin/_bootstrap.sh`` (``npm ci``). Only the files named here are
served, each under a short name: nothing is fetched from the internet at run time."""

from __future__ import annotations

from pathlib import Path

# Where npm put them: the checkout's node_modules (graphmem/console/ -> the repository root).
NODE_MODULES = Path(__file__).resolve().parents[2] / "node_modules"

VENDOR = {
    "cytoscape.min.js": "cytoscape/dist/cytoscape.min.js",
    "react.production.min.js": "react/umd/react.production.min.js",
    "react-dom.production.min.js": "react-dom/umd/react-dom.production.min.js",
    "graphiql.min.js": "graphiql/graphiql.min.js",
    "graphiql.min.css": "graphiql/graphiql.min.css",
}
STATIC = Path(__file__).resolve().parent / "static"


def missing() -> list[str]:
    """The named files npm has not (or no longer) put in place."""
    return [relative for relative in VENDOR.values() if not (NODE_MODULES / relative).is_file()]


def vendor_file(name: str) -> Path | None:
    """The installed file behind a short name, or None (unknown name, or not installed)."""
    relative = VENDOR.get(name)
    if relative is None:
        return None
    path = NODE_MODULES / relative
    return path if path.is_file() else None


if __name__ == "__main__":  # bin/_bootstrap.sh: exit 1 when npm ci must run again
    raise SystemExit(1 if missing() else 0)
