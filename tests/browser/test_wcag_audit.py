"""axe-core's WCAG 2.2 A and AA rules on every screen of the phone app, in the state that
shows the most of it, at a phone's width (390 px) and a portrait tablet's (820 px), in
French, Spanish and English: no violation (docs/accessibility.md). Each screen's title
names it, as its top-bar link does (2.4.2, which a machine cannot judge)."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from test_reflow_and_targets import SCREENS, open_screen

pytestmark = pytest.mark.django_db(transaction=True)

AXE = (Path(__file__).parent / "vendor" / "axe-core-4.14.1" / "axe.min.js").read_text()
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
RUN = """async (tags) => {
  const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ` +
    v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " " + (n.failureSummary || "").split("\\n")[1]).join(" | "));
}"""


def violations(page, width: int) -> list[str]:
    page.set_viewport_size({"width": width, "height": 844 if width < 600 else 1180})
    page.wait_for_timeout(300)          # the redraw at the new width
    return page.evaluate(RUN, WCAG_22_AA)


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
@pytest.mark.parametrize(("ruleset", "who"), SCREENS, ids=[f"{r}-{w}" for r, w in SCREENS])
def test_a_screen_has_no_wcag_violation_on_a_phone_and_a_tablet(server_url, phone, ruleset, who, lang):
    page = open_screen(phone, server_url, ruleset, who, lang, init_script=AXE)
    assert violations(page, 390) == []
    assert violations(page, 820) == []
    shown = page.locator("#topbar a[aria-current=page]")
    expect(shown).to_have_count(1)
    assert page.title().startswith(f"{shown.text_content()} · "), page.title()
    assert page.errors == []
