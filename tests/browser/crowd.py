"""A real event's size for the browser tests: 300 characters in 12 teams, made with the
same services an organiser's set-up uses, some of them already wounded or in a coma so
that the narrators' view has deadlines to sort."""
from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

from players.models import Character, Event
from players.services import character_create, event_create, login_token_issue, team_get_or_create

TEAMS = ["Corbeaux", "Loups", "Hiboux", "Renards", "Cerfs", "Ours", "Lynx", "Sangliers",
         "Faucons", "Blaireaux", "Belettes", "Vipères"]


@dataclass
class Crowd:
    event: Event
    narrator_link: str
    characters: list[Character]

    def link_for(self, character: Character, server_url: str) -> str:
        return f"{server_url}/login/{login_token_issue(event=self.event, user=character.user)}"


def crowd_event(server_url: str, characters: int = 300, ruleset: str = "gn_fr",
                wounded_every: int = 7, language: str = "fr") -> Crowd:
    """`characters` players named "Joueur 001"...; every `wounded_every`-th is wounded by
    a narrator's effect at a staggered game time, so that "next to fall" has an order."""
    from effects.services.effects import effect_push

    narrator = get_user_model().objects.create_user(username="orga", is_staff=True)
    event = event_create(name="Le Grand Bal", ruleset=ruleset, by=narrator, start_clock=True,
                         language=language)
    teams = [team_get_or_create(event=event, name=name) for name in TEAMS]
    made = [character_create(event=event, name=f"Joueur {i:03d}", team=teams[i % len(teams)],
                             sheet={"combat_base": 2})
            for i in range(1, characters + 1)]
    for character in made[::wounded_every]:
        effect_push(event=event, characters=[character], text="Effet : une flèche",
                    duration_s=None, set_state="wounded", by=narrator)
    link = f"{server_url}/login/{login_token_issue(event=event, user=narrator)}"
    return Crowd(event, link, made)
