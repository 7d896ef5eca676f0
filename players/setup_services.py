"""Setting a server and an event up from the browser: the first organiser's account (from
the link `./run` prints), the event itself, and the co-narrators and referees invited by a
link. Every secret is stored as a hash only."""
from __future__ import annotations

import secrets
from datetime import date, timedelta
from zoneinfo import available_timezones

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from rulesets import RuleRefused, RulesetError, available_rulesets, get_ruleset

from .models import Event, Invitation, Membership, SetupToken
from .services import event_create, journal_write
from .tokens import token_hash

SETUP_TTL = timedelta(days=1)
INVITATION_TTL = timedelta(days=30)
LANGUAGES = ("fr", "es", "en")


def event_settings_check(*, ruleset: str, options: dict, language: str, time_zone: str,
                         display: str = "dark") -> None:
    """What an event may be made with: an installed ruleset, options its contract declares
    with values it allows, a language of the app, a real time zone. Refused with bad_option
    (the form, the API and the admin all ask here)."""
    if ruleset not in available_rulesets():
        raise RuleRefused("bad_option", option="ruleset",
                          detail=f"'{ruleset}' is not an installed ruleset "
                                 f"({', '.join(sorted(available_rulesets()))})")
    try:
        get_ruleset(ruleset).merged_options(options)
    except RulesetError as exc:
        raise RuleRefused("bad_option", option=next(iter(options), ruleset), detail=str(exc)) from exc
    if language not in LANGUAGES:
        raise RuleRefused("bad_option", option="language", detail="fr, es or en")
    if time_zone not in available_timezones():
        raise RuleRefused("bad_option", option="time_zone", detail=f"'{time_zone}' is not a time zone")
    if display not in dict(Event.DISPLAYS):
        raise RuleRefused("bad_option", option="display", detail=", ".join(dict(Event.DISPLAYS)))


@transaction.atomic
def event_set_up(*, name: str, ruleset: str, options: dict, language: str, time_zone: str,
                 starts_on: date | None, by, start_clock: bool = False, display: str = "dark") -> Event:
    """An event made by its organiser: paused until they start the game (unless a script
    asks for `start_clock`)."""
    event_settings_check(ruleset=ruleset, options=options, language=language, time_zone=time_zone,
                         display=display)
    event = event_create(name=name, ruleset=ruleset, options=options, language=language, by=by,
                         start_clock=start_clock)
    event.time_zone, event.starts_on, event.display = time_zone, starts_on, display
    event.save(update_fields=["time_zone", "starts_on", "display"])
    return event


def server_has_administrator() -> bool:
    return get_user_model().objects.filter(is_superuser=True, is_active=True).exists()


@transaction.atomic
def setup_token_issue() -> str | None:
    """A first-run link while the server has no administrator (None once it has one);
    an older unused one stops working."""
    if server_has_administrator():
        return None
    now = timezone.now()
    SetupToken.objects.filter(used_at__isnull=True, expires_at__gt=now).update(expires_at=now)
    raw = secrets.token_urlsafe(24)
    SetupToken.objects.create(token_hash=token_hash(raw), expires_at=now + SETUP_TTL)
    return raw


def setup_token_valid(raw: str) -> bool:
    return SetupToken.objects.filter(token_hash=token_hash(raw or ""), used_at__isnull=True,
                                     expires_at__gt=timezone.now()).exists()


@transaction.atomic
def setup_token_redeem(*, raw: str, name: str):
    """The first organiser: a staff and superuser account named `name`, once."""
    now = timezone.now()
    token = (SetupToken.objects.select_for_update()
             .filter(token_hash=token_hash(raw or ""), used_at__isnull=True, expires_at__gt=now).first())
    if token is None or server_has_administrator():
        raise RuleRefused("invalid_login")
    user = _new_person(name, is_staff=True, is_superuser=True)
    token.used_at = now
    token.save(update_fields=["used_at"])
    return user


def _new_person(name: str, **flags):
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise RuleRefused("bad_input", detail="a name of 1 to 100 characters")
    User = get_user_model()
    username = name if not User.objects.filter(username=name).exists() else f"{name}-{secrets.token_hex(3)}"
    return User.objects.create(username=username[:150], first_name=name[:150],
                               password=make_password(None), **flags)


@transaction.atomic
def invitation_create(*, event: Event, role: str, by) -> str:
    if role not in dict(Invitation.ROLES):
        raise RuleRefused("bad_input", detail="role is narrator, referee or safety")
    raw = secrets.token_urlsafe(24)
    now = timezone.now()
    Invitation.objects.create(event=event, role=role, token_hash=token_hash(raw), created_by=by,
                              expires_at=now + INVITATION_TTL)
    journal_write(event=event, kind="team", what="invited", at=now, by=by, detail={"role": role})
    return raw


def invitation_open(raw: str) -> Invitation | None:
    return (Invitation.objects.select_related("event")
            .filter(token_hash=token_hash(raw or ""), used_at__isnull=True,
                    expires_at__gt=timezone.now()).first())


@transaction.atomic
def invitation_accept(*, raw: str, name: str):
    """The invited person's account and membership; the link is then used up."""
    now = timezone.now()
    invitation = (Invitation.objects.select_for_update().select_related("event")
                  .filter(token_hash=token_hash(raw or ""), used_at__isnull=True,
                          expires_at__gt=now).first())
    if invitation is None:
        raise RuleRefused("invalid_login")
    user = _new_person(name)
    Membership.objects.create(event=invitation.event, user=user, role=invitation.role)
    invitation.used_at, invitation.used_by = now, user
    invitation.save(update_fields=["used_at", "used_by"])
    journal_write(event=invitation.event, kind="team", what="joined", at=now, by=user,
                  detail={"role": invitation.role})
    return user, invitation.event


@transaction.atomic
def team_member_remove(*, event: Event, membership_id: int, by) -> None:
    """An organiser removes a narrator, referee or safety team member from their event
    (never themselves): their next request is refused, since every check reads the
    memberships."""
    membership = (Membership.objects.filter(event=event, pk=membership_id,
                                            role__in=dict(Invitation.ROLES))
                  .exclude(user=by).select_related("user").first())
    if membership is None:
        raise RuleRefused("bad_input", detail="no such narrator, referee or safety team member in this event")
    membership.delete()
    journal_write(event=event, kind="team", what="removed", at=timezone.now(), by=by,
                  detail={"role": membership.role, "user": membership.user.get_username()})


@transaction.atomic
def invitation_cancel(*, event: Event, invitation_id: int, by) -> None:
    deleted, _ = Invitation.objects.filter(event=event, pk=invitation_id, used_at__isnull=True).delete()
    if not deleted:
        raise RuleRefused("bad_input", detail="no such open invitation in this event")
    journal_write(event=event, kind="team", what="invitation_cancelled", at=timezone.now(), by=by)
