"""A real event's size for the browser tests: 300 characters in 12 teams, made with the
same services an organiser's set-up uses, some of them already wounded or in a coma so
that the narrators' view has deadlines to sort."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from browser_helpers import off_the_browser_thread
from players.models import Character, Event
from players.services import character_create, event_create, login_token_issue, team_get_or_create

TEAMS = ["Corbeaux", "Loups", "Hiboux", "Renards", "Cerfs", "Ours", "Lynx", "Sangliers",
         "Faucons", "Blaireaux", "Belettes", "Vipères"]
MEDIC = {"sheet": {"combat_base": 2, "skills": {"first_aid": "novice"}}, "kits": {"kps": 2}}


@dataclass
class Crowd:
    event: Event
    narrator_link: str
    characters: list[Character]
    narrator: object = None

    def link_for(self, character: Character, server_url: str) -> str:
        return f"{server_url}/login/{login_token_issue(event=self.event, user=character.user)}"


def crowd_event(server_url: str, characters: int = 300, ruleset: str = "gn_fr",
                wounded_every: int = 7, medics: int = 0, options: dict | None = None,
                playing_for: timedelta | None = None, language: str = "fr") -> Crowd:
    """`characters` players named "Joueur 001"...; every `wounded_every`-th is wounded by
    a narrator's effect at a staggered game time, so that "next to fall" has an order.
    The first `medics` of the others (Joueur 002...) know first aid and carry two kits
    (gn_fr). `playing_for`: the game has been running that long already.

    One transaction: each service's commit would otherwise be a disk flush of its own, and
    the snapshots of the wounded are published together once the crowd is there (from a
    thread of its own, where publishing may run)."""
    return off_the_browser_thread(_crowd_event, server_url, characters, ruleset, wounded_every,
                                  medics, options or {}, playing_for, language)


@transaction.atomic
def _crowd_event(server_url, characters, ruleset, wounded_every, medics, options, playing_for,
                 language):
    from effects.services.effects import effect_push

    narrator = get_user_model().objects.create_user(username="orga", is_staff=True)
    event = event_create(name="Le Grand Bal", ruleset=ruleset, by=narrator, start_clock=True,
                         options=options, language=language)
    if playing_for:   # set-up of the test's time, as the clock would have run
        Event.objects.filter(pk=event.pk).update(clock_running_since=timezone.now() - playing_for)
        event.refresh_from_db()
    teams = [team_get_or_create(event=event, name=name) for name in TEAMS]
    healers = {i for i in range(1, characters + 1) if (i - 1) % wounded_every}
    healers = set(sorted(healers)[:medics])
    made = [character_create(event=event, name=f"Joueur {i:03d}", team=teams[i % len(teams)],
                             **(MEDIC if i in healers else {"sheet": {"combat_base": 2}}))
            for i in range(1, characters + 1)]
    for character in made[::wounded_every]:
        effect_push(event=event, characters=[character], text="Effet : une flèche",
                    duration_s=None, set_state="wounded", by=narrator)
    link = f"{server_url}/login/{login_token_issue(event=event, user=narrator)}"
    return Crowd(event, link, made, narrator)
