"""The targets table of docs/performance.md as `python -m bench table` writes it from the
JSON summaries of `python -m bench all`: what a reader of the page checks (one row per
figure, each run's figure, its load, whether it holds), not the benchmarks themselves."""
from __future__ import annotations

import json

import pytest

from bench import summary
from bench.__main__ import main

PAGE = """# Performance

Introduction.

<!-- bench:table:start -->
an old table
<!-- bench:table:end -->

## Targets

Another section, kept as it is.
"""


def _figure(key, figure, target, display, holds, load=(0.5, 1.3), status="ok", **extra):
    return {"key": key, "figure": figure, "target": target, "display": display, "holds": holds,
            "status": status, "note": None, "load": {"start": load[0], "end": load[1]}, **extra}


def _summary(tmp_path, name, figures, elapsed=512.3):
    path = tmp_path / name
    path.write_text(json.dumps({"file": f"var/bench/{name}", "started_at": "2026-12-02T01:00:00+00:00",
                                "elapsed_s": elapsed, "commit": "abc1234", "quick": False,
                                "figures": figures}))
    return path


@pytest.fixture
def page(tmp_path):
    path = tmp_path / "performance.md"
    path.write_text(PAGE)
    return path


def _rows(text):
    return [line for line in text.splitlines() if line.startswith("|")]


def test_one_summary_fills_run_1_and_keeps_the_rest_of_the_page(tmp_path, page):
    first = _summary(tmp_path, "summary-1.json", [
        _figure("memory", "memory per idle websocket", "≤ 50 KiB", "42.6 KiB (1,000 phones held)", True),
        _figure("push_2000", "push to everyone p99, 2,000 phones", "≤ 300 ms", "448 ms (p50 210)", False,
                load=(2.0, 3.5)),
    ])

    assert main(["table", str(first), "--doc", str(page)]) == 0

    text = page.read_text()
    assert "an old table" not in text
    assert text.startswith("# Performance\n\nIntroduction.\n\n<!-- bench:table:start -->\n")
    assert text.endswith("<!-- bench:table:end -->\n\n## Targets\n\nAnother section, kept as it is.\n")
    header, rule, push, memory = _rows(text)
    assert header == "| figure | target | run 1 | run 2 | load | holds? |"
    assert rule == "|---|---|---|---|---|---|"
    assert memory == "| memory per idle websocket | ≤ 50 KiB | 42.6 KiB (1,000 phones held) | — | 0.5→1.3 | **yes** |"
    assert push == "| push to everyone p99, 2,000 phones | ≤ 300 ms | 448 ms (p50 210) | — | 2.0→3.5 (busy) | **no** |"
    assert "Run 1: `var/bench/summary-1.json`, 2026-12-02T01:00:00+00:00, commit abc1234, 512 s in all." in text


def test_two_summaries_show_both_runs_their_loads_and_whether_each_holds(tmp_path, page):
    first = _summary(tmp_path, "summary-1.json", [
        _figure("memory", "memory per idle websocket", "≤ 50 KiB", "42.6 KiB", True),
        _figure("push_2000", "push p99", "≤ 300 ms", "280 ms", True),
        _figure("timers", "deadline p99", "≤ 1 s", "", None, status="failed", error="exit status 1"),
    ])
    second = _summary(tmp_path, "summary-2.json", [
        _figure("memory", "memory per idle websocket", "≤ 50 KiB", "43.0 KiB", True, load=(1.0, 2.0)),
        _figure("push_2000", "push p99", "≤ 300 ms", "320 ms", False, load=(1.0, 2.0)),
        _figure("timers", "deadline p99", "≤ 1 s", "0.80 s", True, note="stand-in: journal time"),
    ])

    summary.write_table([first, second], page)

    push, memory, timers = _rows(page.read_text())[2:]
    assert memory == "| memory per idle websocket | ≤ 50 KiB | 42.6 KiB | 43.0 KiB | 0.5→1.3 / 1.0→2.0 | **yes** |"
    assert push == "| push p99 | ≤ 300 ms | 280 ms | 320 ms | 0.5→1.3 / 1.0→2.0 | 1 of 2 runs |"
    assert timers == ("| deadline p99 | ≤ 1 s | **failed**: exit status 1 | 0.80 s (stand-in: journal time) "
                      "| 0.5→1.3 / 0.5→1.3 | **yes** (1 of 2 runs measured) |")
    assert "Run 2: `var/bench/summary-2.json`" in page.read_text()


def test_a_figure_taken_on_a_busy_machine_is_marked_and_does_not_count_as_holding(tmp_path, page):
    first = _summary(tmp_path, "summary-1.json", [
        _figure("memory", "memory per idle websocket", "≤ 50 KiB", "41.0 KiB", True, load=(1.6, 1.2))])
    second = _summary(tmp_path, "summary-2.json", [
        _figure("memory", "memory per idle websocket", "≤ 50 KiB", "42.0 KiB", True, load=(1.5, 2.4))])

    summary.write_table([first, second], page)

    memory, = _rows(page.read_text())[2:]
    assert memory == ("| memory per idle websocket | ≤ 50 KiB | 41.0 KiB | 42.0 KiB "
                      "| 1.6→1.2 (busy) / 1.5→2.4 | 1 of 2 runs |")
    assert '"(busy)": above 1.5 at its start, so it does not count as holding.' in page.read_text()


def test_a_figure_not_measured_says_why_and_holds_is_open(tmp_path, page):
    first = _summary(tmp_path, "summary-1.json", [
        _figure("storm", "phones retrying every second | all connected", "≤ 90 s", "", None,
                status="not measured", note="no every-second retry mode yet"),
    ])

    summary.write_table([first], page)

    (storm,) = _rows(page.read_text())[2:]
    assert storm == ("| phones retrying every second \\| all connected | ≤ 90 s "
                     "| not measured: no every-second retry mode yet | — | 0.5→1.3 | ? |")


def test_a_page_without_the_markers_is_left_alone(tmp_path):
    page = tmp_path / "performance.md"
    page.write_text("# Performance\n\nno block here\n")
    first = _summary(tmp_path, "summary-1.json", [])

    with pytest.raises(SystemExit, match="no '<!-- bench:table:start -->'"):
        summary.write_table([first], page)

    assert page.read_text() == "# Performance\n\nno block here\n"
