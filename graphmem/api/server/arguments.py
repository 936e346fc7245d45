"""Arguments shared by many fields, described once (agents read these in introspection;
``namespace``, every root field's, is in scope.py)."""

from __future__ import annotations

from typing import Annotated

import strawberry

FirstArg = Annotated[int, strawberry.argument(
    description="How many items to return (1..server cap, 200 by default).")]
AfterArg = Annotated[str | None, strawberry.argument(
    description="The `endCursor` of the previous page, to continue after it.")]
