"""The hostile cases: tests marked ``@pytest.mark.hostile("category")`` attack the service as an
outsider would (another tenant, a revoked key, a poisoned import, a stalling receiver). Every
run of the suite ends with a table of them by category (cases, held, failed), and
``bin/abuse`` runs only them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Generator

import pytest

_cases: dict[str, tuple[str, bool]] = {}  # test id -> (category, failed)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "hostile(category): an attack on the service; counted by category")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None],
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report: pytest.TestReport = yield
    marker = item.get_closest_marker("hostile")
    if marker is None or report.skipped:
        return report
    category = str(marker.args[0]) if marker.args else "other"
    failed = report.failed or _cases.get(item.nodeid, (category, False))[1]
    _cases[item.nodeid] = (category, failed)  # failed in any phase: failed
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _cases:
        return
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # category -> [held, failed]
    for category, case_failed in _cases.values():
        table[category][int(case_failed)] += 1
    write = terminalreporter.write_line
    terminalreporter.section("hostile cases")
    write(f"{'category':<24}{'cases':>7}{'held':>7}{'failed':>8}")
    for category, (held, failed) in sorted(table.items()):
        write(f"{category:<24}{held + failed:>7}{held:>7}{failed:>8}")
    held_all, failed_all = sum(h for h, _ in table.values()), sum(f for _, f in table.values())
    write(f"{'all':<24}{held_all + failed_all:>7}{held_all:>7}{failed_all:>8}")
