"""The targets table of docs/performance.md, written from one or two JSON summaries of
`python -m bench all`: one row per figure, one column per run, the load average of each
run's measurement, and whether the target holds in every run.

    python -m bench table var/bench/summary-A.json [var/bench/summary-B.json] [--doc PATH]

Only the block between the two markers below is replaced; the rest of the file is kept.
"""
from __future__ import annotations

import json
from pathlib import Path

from bench.figures import BY_KEY
from bench.stack import ROOT

START = "<!-- bench:table:start -->"
END = "<!-- bench:table:end -->"
DOC = ROOT / "docs" / "performance.md"
NOT_RUN = "—"
# Above this 1-minute load when a figure began, the machine was shared: the figure is
# marked "(busy)" and does not count as holding (2 cores: 1.5 is a second core's worth
# of other work half the time).
LOADED = 1.5


def load(paths: list) -> list[dict]:
    return [json.loads(Path(path).read_text()) for path in paths]


def _cell(figure: dict | None) -> str:
    if figure is None:
        return NOT_RUN
    if figure["status"] == "failed":
        return f"**failed**: {figure.get('error', '?')}"
    if figure["status"] == "not measured":
        return f"not measured: {figure.get('note', '')}".rstrip(": ")
    text = figure["display"]
    if figure.get("note"):
        text += f" ({figure['note']})"
    return text


def _load(figure: dict | None) -> str:
    if figure is None or not figure.get("load"):
        return NOT_RUN
    mark = " (busy)" if loaded(figure) else ""
    return f"{figure['load']['start']:.1f}→{figure['load']['end']:.1f}{mark}"


def loaded(figure: dict) -> bool:
    """Taken on a busy machine: the 1-minute load above LOADED when it began."""
    return bool(figure.get("load")) and figure["load"]["start"] > LOADED


def _holds(figures: list[dict | None]) -> str:
    """yes / no over the runs that measured it; a run that failed or was not measured
    leaves the answer open; a figure taken on a busy machine does not count as holding."""
    measured = [f for f in figures if f is not None and f["status"] == "ok"]
    if not measured or any(f.get("holds") is None for f in measured):
        return "?"
    held = sum(1 for f in measured if f["holds"] and not loaded(f))
    if held == len(measured):
        answer = "**yes**"
    elif held == 0:
        answer = "**no**"
    else:
        answer = f"{held} of {len(measured)} runs"
    if len(measured) < len(figures):
        answer += f" ({len(measured)} of {len(figures)} runs measured)"
    return answer


def _escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(summaries: list[dict]) -> str:
    """The markdown of the block: the table, then one line per run saying what it was."""
    order, by_key = [], [{f["key"]: f for f in s["figures"]} for s in summaries]
    for summary in summaries:
        order += [f for f in summary["figures"] if f["key"] not in {o["key"] for o in order}]
    # The order, whatever each run measured; figures it does not name come last.
    rank = {key: i for i, key in enumerate(BY_KEY)}
    order.sort(key=lambda f: rank.get(f["key"], len(rank)))
    columns = max(2, len(summaries))          # run 2 stays empty until a second run
    heads = [f"run {i + 1}" for i in range(columns)]
    lines = ["| figure | target | " + " | ".join(heads) + " | load | holds? |",
             "|---|---|" + "---|" * len(heads) + "---|---|"]
    for row in order:
        figures = [keyed.get(row["key"]) for keyed in by_key]
        cells = [_cell(f) for f in figures] + [NOT_RUN] * (columns - len(figures))
        loads = " / ".join(_load(f) for f in figures)
        lines.append("| " + " | ".join(_escape(c) for c in
                     [row["figure"], row["target"], *cells, loads, _holds(figures)]) + " |")
    lines.append("")
    for i, summary in enumerate(summaries):
        lines.append(f"Run {i + 1}: `{summary['file']}`, {summary['started_at']}, commit "
                     f"{summary.get('commit') or '?'}, {summary['elapsed_s']:.0f} s in all"
                     + (" (quick sizes, not the targets' sizes)" if summary.get("quick") else "")
                     + ".")
    lines.append("Load: the 1-minute load average (`/proc/loadavg`) at the start → end of "
                 "each figure's measurement, one per run; \"(busy)\": above "
                 f"{LOADED} at its start, so it does not count as holding.")
    return "\n".join(lines)


def rewrite(doc: Path, block: str) -> None:
    """Replace what lies between the markers; fails if they are missing (nothing is
    written at a guessed place)."""
    text = doc.read_text()
    if START not in text or END not in text or text.index(START) > text.index(END):
        raise SystemExit(f"{doc}: no '{START}' … '{END}' block to rewrite")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    doc.write_text(f"{head}{START}\n{block}\n{END}{tail}")


def write_table(paths: list, doc: Path = DOC) -> str:
    summaries = load(paths)
    for path, summary in zip(paths, summaries):
        summary.setdefault("file", Path(path).name)
    block = table(summaries)
    rewrite(Path(doc), block)
    return block
