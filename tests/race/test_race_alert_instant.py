"""The overdue alert on a clock that runs, as on the night (race/services/alerts.py): the
journal says it rang at the very instant the entry records and the organisers' screens
show, not a moment later."""
from __future__ import annotations

import pytest
import time_machine

from players.models import JournalEntry
from race.models import Entry
from race.tasks import sweep_overdue_alerts
from racekit import at, start

pytestmark = pytest.mark.django_db


def test_the_alerts_journal_line_is_at_the_instant_it_rang(clock, enrol, organiser_api):
    lucie = enrol("Lucie", 101, phone="06 11 22 33 44")
    start(organiser_api, lucie)                       # famille: 90 min; threshold 15 min
    with time_machine.travel(at(106), tick=True):     # the clock runs while it rings
        assert sweep_overdue_alerts() == 1
    rang = Entry.objects.get(pk=lucie.pk).alerted_at
    line = JournalEntry.objects.get(character=lucie.character, what="entry:overdue_alert")
    assert rang >= at(106) and line.at == rang
    assert line.detail["overdue_s"] == pytest.approx(16 * 60, abs=1)
