"""Mutation testing: break the rules one small change at a time (mutmut) and report the
changes that no test of the app's own folder notices.

    .venv/bin/python devtools/mutate.py [app …]      (after ./test has made .venv)

Each app is mutated in its own copy of the tracked files (var/mutation/<app>/), with the
tests of its own folder only: a rule guarded only from another folder counts as unguarded.
The report (var/mutation/<app>.txt) lists every surviving change as a diff; the kill rates
and the survivors judged harmless are kept in docs/testing.md."""
from __future__ import annotations

import argparse
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devtools.test import test_services  # noqa: E402

# What each app's mutation run breaks, and the folder whose tests must notice.
TARGETS: dict[str, tuple[list[str], str]] = {
    "rules": (["rulesets/engine.py", "rulesets/checks.py", "rulesets/elements.py",
               "rulesets/body.py", "rulesets/instants.py", "rulesets/contracts.py",
               "rulesets/loader.py"], "tests/rulesets/"),
    "health": (["health/services.py", "health/treatments.py", "health/checks.py", "health/undo.py",
                "health/outcomes.py", "health/holds.py", "health/body.py", "health/scheduling.py",
                "health/capabilities.py"], "tests/health/"),
    "combat": (["combat/services/*"], "tests/combat/"),
    "effects": (["effects/services/*"], "tests/effects/"),
    "race": (["race/services/*", "race/scoring.py"], "tests/race/"),
    "club": (["club/services/*"], "tests/club/"),
    "push": (["push/services.py"], "tests/push/"),
    "idempotency": (["common/idempotency.py"], "tests/common/test_idempotency*.py"),
}
# A test that failed caught the change. A timeout is listed with the survivors: a change
# that makes a test hang is caught, but a busy machine times out changes too.
CAUGHT = ("killed",)
# Tests that read the source text: mutmut's copy holds every change side by side in it.
READS_SOURCE = [
    "tests/common/test_error_codes_documented.py::test_every_code_in_the_source_has_a_row",
    "tests/rulesets/test_contracts.py::test_no_app_code_reads_options_with_a_silent_default",
    "tests/rulesets/test_contracts.py::test_each_feature_names_modules_that_use_its_keys",
]


def packages() -> list[str]:
    """The top-level Python packages: mutmut imports them all from its copy."""
    return sorted(p.parent.name for p in ROOT.glob("*/__init__.py")
                  if p.parent.name not in {"tests", "bench", "devtools"})


def prepare(app: str, fresh: bool) -> Path:
    """A copy of the last commit's files with a mutmut configuration for `app`: a run
    measures what is committed, whatever is being edited beside it."""
    work = ROOT / "var" / "mutation" / app
    if fresh and work.exists():
        shutil.rmtree(work)
    archive = subprocess.run(["git", "archive", "--format=tar", "HEAD"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    tracked = []
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            tracked.append(member.name)
            content, target = tar.extractfile(member).read(), work / member.name
            # Files changed since the last run are written again, with a new time: the
            # tests written for its survivors, or a rule simplified (mutmut tests the
            # changed functions anew).
            if not (target.exists() and target.read_bytes() == content):
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content)
                target.chmod(member.mode)
    files, tests = TARGETS[app]
    tests = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(tests)) if "*" in tests else [tests]
    tops = sorted({name.split("/")[0] for name in filter(None, tracked)} - set(packages()))
    settings = {
        "source_paths": packages(),
        "only_mutate": files,
        "pytest_add_cli_args_test_selection": tests,
        "also_copy": [t for t in tops if not t.startswith(".")],
        # One test database kept between mutants; the run ends at the first failure.
        "pytest_add_cli_args": ["--reuse-db", "-p", "no:rerunfailures",
                                *(f"--deselect={test}" for test in READS_SOURCE)],
    }
    lines = ["[tool.mutmut]"] + [f"{key} = {json.dumps(value)}" for key, value in settings.items()]
    (work / "pyproject.toml").write_text("\n".join(lines) + "\n")
    return work


def test_database_drop(database_url: str) -> None:
    """The app's test database is kept between mutants (--reuse-db), not between runs: a
    run stopped mid-test may have left rows in it."""
    from urllib.parse import urlsplit

    import psycopg
    url = urlsplit(database_url)
    with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "test_{url.path.lstrip("/")}" WITH (FORCE)')


def mutmut(work: Path, env: dict, *args: str) -> None:
    subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=work, env=env, check=False)


def in_sample(name: str, sample: int) -> bool:
    """One change in `sample`, chosen by its name: the same ones from run to run."""
    return sample == 1 or zlib.crc32(name.encode()) % sample == 0


def results(sample: int):
    """Run in the app's copy: (file, change, status) of each change of the sample."""
    from mutmut.__main__ import SourceFileMutationData, walk_mutatable_files
    from mutmut.stats import status_by_exit_code

    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        for name, code in sorted(data.exit_code_by_key.items()):
            if in_sample(name, sample):
                yield path, name, status_by_exit_code[code]


def generate() -> None:
    """Run in the app's copy: write the changed copies of the code, as `mutmut run` starts
    by doing, so that a sample can be chosen among them before anything is tested."""
    import contextlib

    import mutmut.__main__ as m

    with contextlib.redirect_stdout(sys.stderr):     # the changes' names go to stdout
        _generate(m)


def _generate(m) -> None:
    m.set_mutant_under_test("mutant_generation")
    Path("mutants").mkdir(exist_ok=True)
    m.copy_src_dir()
    m.copy_also_copy_files()
    m.setup_source_paths()
    m.store_lines_covered_by_tests()
    m.create_mutants(1)


def to_test(sample: int, again: bool) -> list[str]:
    """Run in the app's copy: the changes of the sample still to test (with `again`, also
    those the last run did not catch)."""
    generate()
    return [name for _, name, status in results(sample)
            if status == "not checked" or (again and status not in CAUGHT)]


def survivors_report(app: str, sample: int) -> str:
    """Run in the app's copy (mutmut reads its configuration from the working folder): the
    kill count and each change that no test noticed, as the lines it changed."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    total, lines = 0, []
    for path, name, status in results(sample):
        total += 1
        if status in CAUGHT:
            continue
        diff = get_diff_for_mutant(name, path=path).splitlines()
        changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
        lines += [f"{name} ({path}): {status}", *(f"    {line}" for line in changed), ""]
    survived = sum(1 for line in lines if line and not line.startswith(" "))
    rate = 100 * (total - survived) / max(total, 1)
    of = f", a sample of one change in {sample}" if sample > 1 else ""
    return "\n".join([f"# {app}: {total - survived} of {total} changes caught ({rate:.1f} %{of})",
                      "", *lines])


def in_copy(work: Path, env: dict, *args: str) -> str:
    """This script run in the app's copy, where mutmut finds its configuration."""
    return subprocess.run([sys.executable, __file__, *args], cwd=work, env=env,
                          capture_output=True, text=True, check=True).stdout


def report(app: str, work: Path, env: dict, sample: int) -> str:
    """The summary line; the full report goes to var/mutation/<app>.txt."""
    text = in_copy(work, env, "--report", app, "--sample", str(sample))
    (work.parent / f"{app}.txt").write_text(text)
    return text.splitlines()[0].lstrip("# ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("apps", nargs="*", help=f"of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--fresh", action="store_true", help="forget the last run's results")
    parser.add_argument("--max-children", default="1",
                        help="mutants tested at once; they share one test database, and a test "
                             "that empties it (transaction=True) would kill another's mutant")
    parser.add_argument("--again", action="store_true",
                        help="test again only the changes the last run did not catch (after "
                             "writing tests for them); the other results stand")
    parser.add_argument("--sample", type=int, default=1, metavar="K",
                        help="test one change in K, chosen by name (the same ones each run): "
                             "a whole run of the rules core takes hours on two cores")
    parser.add_argument("--report", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--to-test", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.report:      # in the app's copy, from report()
        print(survivors_report(options.apps[0], options.sample))
        return 0
    if options.to_test:     # in the app's copy, from main()
        print("\n".join(to_test(options.sample, options.again)))
        return 0
    if options.again and options.fresh:
        parser.error("--again tests the last run's survivors: it cannot follow --fresh")
    if unknown := set(options.apps) - set(TARGETS):
        parser.error(f"unknown app(s): {', '.join(sorted(unknown))}")
    summary = []
    with test_services() as base_env:
        for app in options.apps or list(TARGETS):
            env = dict(base_env, DATABASE_URL=re.sub(r"/[^/]*$", f"/mutation_{app}", base_env["DATABASE_URL"]))
            work = prepare(app, options.fresh)
            test_database_drop(env["DATABASE_URL"])
            names = []
            if options.again or options.sample > 1:
                names = in_copy(work, env, "--to-test", app, "--sample", str(options.sample),
                                *(["--again"] if options.again else [])).split()
            if names or not (options.again or options.sample > 1):
                mutmut(work, env, "run", "--max-children", options.max_children, *names)
            summary.append(f"{report(app, work, env, options.sample)}: survivors in "
                           f"var/mutation/{app}.txt")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
