"""strawberry's validation cache, leaving alone a document refused before validation."""

from __future__ import annotations

from collections.abc import Iterator

from strawberry.extensions import ValidationCache


class RefusalKeepingValidationCache(ValidationCache):
    """strawberry's cache validates every document it has not seen, overwriting errors found
    before it: a document the cost limit refused must not be walked by the validators."""

    def on_validate(self) -> Iterator[None]:
        if self.execution_context.pre_execution_errors:
            yield
            return
        yield from super().on_validate()
