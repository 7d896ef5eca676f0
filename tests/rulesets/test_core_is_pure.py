"""The rules core stays free of Django: its refusals are codes, worded elsewhere."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_rules_core_imports_no_django():
    code = ("import sys, pkgutil, importlib, rulesets\n"
            "for m in pkgutil.iter_modules(rulesets.__path__): importlib.import_module('rulesets.' + m.name)\n"
            "rulesets.get_ruleset('gn_fr')\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] == 'django'))")
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.strip()
    assert found == "[]"
