"""Which admin pages an organiser needs, read from their events' rulesets: a GN's
organiser has no use for a race's punches or an airsoft club's register. A model not
named here (characters, effects, the journal...) serves every ruleset."""
from __future__ import annotations

from rulesets import get_ruleset

from .models import Event


def _interaction(name):
    return lambda ruleset: name in ruleset.interactions


def _feature(*names):
    return lambda ruleset: any(ruleset.has(n) for n in names)


NEEDED_BY = {
    "combat.duel": _interaction("duel"),
    "combat.union": _interaction("union"),
    "combat.unionmember": _interaction("union"),
    "combat.acharnement": _interaction("acharnement"),
    "combat.heal": _interaction("heal"),
    "club.club": _feature("club_sanctions", "chrony"),
    "club.clubevent": _feature("club_sanctions", "chrony"),
    "club.member": _feature("club_sanctions", "chrony"),
    "club.checkin": _feature("club_sanctions", "chrony"),
    "club.sanction": _feature("club_sanctions"),
    "club.replica": _feature("chrony"),
    "club.chronycheck": _feature("chrony"),
    "schedule.game": _feature("games"),
    "schedule.gameday": _feature("days"),
    "race.course": _feature("race"),
    "race.checkpoint": _feature("race"),
    "race.entry": _feature("race"),
    "race.punch": _feature("race"),
    "race.lifeloss": _feature("race"),
    "race.infraction": _feature("race"),
}


def model_needed(model, event_ids) -> bool:
    """Whether a model's page serves one of these events (None: every event, a server's
    administrator without events of their own)."""
    needed = NEEDED_BY.get(model._meta.label_lower)
    if needed is None or event_ids is None:
        return True
    rulesets = set(Event.objects.filter(pk__in=event_ids).values_list("ruleset", flat=True))
    return any(needed(get_ruleset(key)) for key in rulesets)
