"""Web Push: browsers' subscriptions, sending, and the two notifications a player gets
on a locked phone: a state change, and a warning one minute before a deadline that
changes the state. Best effort on top of the phone's own countdown: a failed push is
logged on its subscription and never reaches the caller."""
from __future__ import annotations

import json
import logging
from urllib.parse import urlparse

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from pywebpush import WebPushException, webpush

from health.models import HealthState
from rulesets import RuleRefused

from . import keys, texts
from .models import PushSubscription, SentWarning

log = logging.getLogger(__name__)

WARN_BEFORE_S = 60
# The task may run a hair before its eta on a worker whose clock differs by a little.
WARN_EARLY_S = 1.0
GONE = (404, 410)  # the push service says this subscription no longer exists
SEND_TIMEOUT_S = 10
APP_URL = "/"


def _key_bytes(value: str, name: str) -> bytes:
    try:
        return keys.b64url_decode(value)
    except ValueError as exc:
        raise RuleRefused("bad_input", detail=f"keys.{name} is not base64url") from exc


def _check_subscription(endpoint: str, p256dh: str, auth: str) -> None:
    url = urlparse(endpoint)
    # Browsers' push services are all https; plain http only where a test plays the service
    # (the server POSTs to this URL, so it must not become a way to reach anything else).
    allow_http = getattr(settings, "PUSH_ALLOW_HTTP_ENDPOINTS", settings.DEBUG)
    if url.scheme != "https" and not (allow_http and url.scheme == "http"):
        raise RuleRefused("bad_input", detail="endpoint must be an https URL")
    point = _key_bytes(p256dh, "p256dh")
    if len(point) != 65 or point[0] != 4:
        raise RuleRefused("bad_input", detail="keys.p256dh must be an uncompressed P-256 point")
    if len(_key_bytes(auth, "auth")) != 16:
        raise RuleRefused("bad_input", detail="keys.auth must be 16 bytes")


@transaction.atomic
def subscription_save(*, user, endpoint: str, p256dh: str,
                      auth: str) -> tuple[PushSubscription, bool]:
    """Idempotent per endpoint: the same browser subscribing again updates its row, and a
    browser whose phone now logs in as another player follows that player."""
    _check_subscription(endpoint, p256dh, auth)
    saved = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "last_error": ""})
    # Deadlines already running get their warning now (a warning is sent once at most).
    from . import hooks
    for health in HealthState.objects.filter(character__user=user).select_related("character", "event"):
        hooks.deadline_warnings_on_commit(health=health, event=health.event)
    return saved


@transaction.atomic
def subscription_delete(*, user, endpoint: str) -> bool:
    """Only the caller's own subscription: another user's endpoint is left alone, silently."""
    return PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0] > 0


def _send_one(subscription: PushSubscription, payload: str, ttl: int) -> bool:
    try:
        webpush(subscription_info=subscription.info(), data=payload, vapid_private_key=keys.vapid(),
                # A fresh dict each time: pywebpush writes the endpoint's `aud` into it.
                vapid_claims={"sub": keys.subject()}, ttl=ttl, timeout=SEND_TIMEOUT_S,
                # High urgency: a phone in its pocket, saving battery, still wakes for it.
                headers={"Urgency": "high"})
    except WebPushException as exc:
        if exc.response is not None and exc.response.status_code in GONE:
            subscription.delete()
            return False
        return _failed(subscription, exc)
    except Exception as exc:  # unreachable service, bad key...: never into the caller
        return _failed(subscription, exc)
    if subscription.last_error:
        PushSubscription.objects.filter(pk=subscription.pk).update(last_error="")
    return True


def _failed(subscription: PushSubscription, exc: Exception) -> bool:
    log.warning("push to subscription %s failed: %s", subscription.pk, exc)
    error = f"{timezone.now().isoformat()} {type(exc).__name__}: {exc}"[:1000]
    PushSubscription.objects.filter(pk=subscription.pk).update(last_error=error)
    return False


def push_to_user(*, user, title: str, body: str, tag: str, url: str, ttl: int = 600,
                 kind: str = "state", urgent: bool = False) -> int:
    """Encrypt and send to every browser of this user; how many push services accepted.
    `kind`: what it means, which names its vibration (frontend/static/frontend/haptics.js,
    the same as the open app's). `urgent`: the notification stays until it is touched (a
    call for help, safety/)."""
    message = {"title": title, "body": body, "tag": tag, "url": url, "kind": kind}
    if urgent:
        message["urgent"] = True
    payload = json.dumps(message)
    return sum(_send_one(s, payload, ttl) for s in PushSubscription.objects.filter(user=user))


def _load(character_id: int) -> HealthState | None:
    return (HealthState.objects.select_related("character__user", "event")
            .filter(pk=character_id).first())


def _notify(health: HealthState, body: str, ttl: int, kind: str) -> int:
    character = health.character
    if character.user is None:
        return 0
    # One tag per character: the coma notification replaces its 1-minute warning.
    return push_to_user(user=character.user, title=health.event.name, body=body,
                        tag=f"health-{character.pk}", url=APP_URL, ttl=ttl, kind=kind)


def state_alert_kind(state: dict) -> str:
    """The buzz of entering a state: the gravest (coma, death, unconscious: lying, severity
    3 and over) their own, as on the open app (js/banners.js)."""
    return "grave" if state.get("inert") and state.get("severity", 0) >= 3 else "state"


def state_notify(*, character_id: int, version: int, status: str) -> int:
    """The character entered `status` at `version`. Skipped when a later change already
    left that status: the later change sends its own notification."""
    health = _load(character_id)
    if health is None or (health.version > version and health.status != status):
        return 0
    ruleset = health.event.rules().ruleset
    if status not in ruleset.states:
        return 0
    body = texts.state_now(health.event.language, name=health.character.name,
                           state_label=ruleset.states[status]["labels"])
    return _notify(health, body, ttl=15 * 60, kind=state_alert_kind(ruleset.states[status]))


def deadline_warn(*, character_id: int, timer: str, due_game_s: float) -> int:
    """One minute before `timer` expires at `due_game_s`: sent only if that deadline still
    stands (no first aid moved it), the game runs, and it is time; once per deadline."""
    health = _load(character_id)
    if health is None or not health.event.running:
        return 0
    event, rules = health.event, health.event.rules()
    game_s = event.game_time(timezone.now())
    # The stored row may lag behind a deadline nobody applied yet: read it as a phone would.
    state = rules.advance(health.as_core(), health.character.sheet, game_s).state
    due = state.timers.get(timer)
    if due is None or abs(due - due_game_s) > 1e-6:
        return 0
    if not due - WARN_BEFORE_S - WARN_EARLY_S <= game_s < due:
        return 0  # queued before a pause, or too late: a fresh task or the transition covers it
    target = rules.ruleset.leads_to(timer, state.status)
    if target is None or target == state.status or target not in rules.ruleset.states:
        return 0
    _, created = SentWarning.objects.get_or_create(character_id=character_id, timer=timer,
                                                   due_game_s=due_game_s)
    if not created:
        return 0
    body = texts.state_soon(event.language, name=health.character.name,
                            state_label=rules.ruleset.states[target]["labels"])
    return _notify(health, body, ttl=int(due - game_s) + 1, kind="minute")


def push_person_erase(*, person, scrub) -> None:
    """An erased account's browsers get nothing more (players/privacy.py); an account kept
    for another game keeps them."""
    if person.account_erased:
        PushSubscription.objects.filter(user=person.user).delete()
