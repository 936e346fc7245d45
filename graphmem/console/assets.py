"""The browser libraries the pages load, pinned in ``package-lock.json``. Only the files named
here are served, each under a short name: nothing is fetched from the internet at run time.

Where they are found: an installed wheel carries them in ``graphmem/console/vendor/`` (with
their licences), copied there from ``node_modules/`` when the wheel was built
(``hatch_build.py``); a checkout serves them from its ``node_modules/``, where
``bin/_bootstrap.sh`` puts them (``npm ci``)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
# In a wheel: the files themselves, by their short names.
PACKAGED = HERE / "vendor"
# In a checkout: where npm put them (graphmem/console/ -> the repository root).
NODE_MODULES = HERE.parents[1] / "node_modules"

VENDOR = {
    "cytoscape.min.js": "cytoscape/dist/cytoscape.min.js",
    "react.production.min.js": "react/umd/react.production.min.js",
    "react-dom.production.min.js": "react-dom/umd/react-dom.production.min.js",
    "graphiql.min.js": "graphiql/graphiql.min.js",
    "graphiql.min.css": "graphiql/graphiql.min.css",
}
STATIC = HERE / "static"
MISSING_HINT = ("in a checkout, run bin/serve or bin/test once (they install them with npm ci); "
                "a wheel carries them when it is built from a checkout that has node_modules/")


def _found(name: str) -> Path | None:
    for path in (PACKAGED / name, NODE_MODULES / VENDOR[name]):
        if path.is_file():
            return path
    return None


def missing() -> list[str]:
    """The short names of the files neither the package nor node_modules/ holds."""
    return [name for name in VENDOR if _found(name) is None]


def vendor_file(name: str) -> Path | None:
    """The file behind a short name, or None (unknown name, or not installed)."""
    return _found(name) if name in VENDOR else None


if __name__ == "__main__":  # bin/_bootstrap.sh: exit 1 when npm ci must run again
    raise SystemExit(1 if missing() else 0)
