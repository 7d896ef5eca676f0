from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Events, characters and players"

    def ready(self):
        from common.models import IdempotencyRecord

        from . import privacy
        from .models import (Character, Event, Invitation, JournalEntry, LoginToken, Membership, PhoneReadiness,
                             SetupToken, Team)

        # Every text column, for erasures (players/privacy.py).
        privacy.texts_declare(Event, scrubbed=("name", "announcement"), event="pk",
                              not_personal=("ruleset", "options", "language", "time_zone",
                                            "display"))
        privacy.texts_declare(Team, scrubbed=("name",))
        privacy.texts_declare(Character, scrubbed=("sheet",), handled=("name",),   # another's notes
                              not_personal=("code", "kits"))
        privacy.texts_declare(Membership, not_personal=("role",))
        privacy.texts_declare(LoginToken, not_personal=("token_hash", "kind", "salt"))
        privacy.texts_declare(SetupToken, not_personal=("token_hash",), event=None)
        privacy.texts_declare(Invitation, not_personal=("role", "token_hash"))
        # A phone's self-check: what the browser can do, nothing about a person.
        privacy.texts_declare(PhoneReadiness, not_personal=("checks", "failing"), event="character__event_id")
        # Rewritten by journal_pseudonymise and records_scrub (players/privacy_services.py).
        privacy.texts_declare(JournalEntry, handled=("actor_label", "before", "after", "detail"),
                              not_personal=("kind", "what"))
        privacy.texts_declare(IdempotencyRecord, handled=("body",), not_personal=("key", "request_hash"))
