"""The ``graphmem`` command and ``python -m graphmem``.

The CLI is imported when the command runs, not when this module is imported. The embedding
backlog runs in a spawned process (`graphmem.retrieval.background`), and spawning re-imports
the parent's main script: with the CLI imported at the top of that script, the background
process loaded the whole service (about 50 MB it never uses) only to embed."""

from __future__ import annotations


def main() -> None:
    from graphmem.cli import main as run  # here, not above: see the module's docstring

    run()


if __name__ == "__main__":
    main()
