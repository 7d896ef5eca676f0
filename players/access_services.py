"""Writes that take access away from someone: a lost or stolen phone cut off, a role
removed, an account deactivated. Each one tells the phones at once (observers.access_revoked:
live/ closes the open sockets that lost their access, with 4403, once the transaction
commits).

A lost phone is cut off by ending every session of the character's login: Django's own
session check compares each session with a hash of the account's password field, so a new
unusable password (players log in by link and never had one) ends every session there is,
on every device, and nothing else. The new login link issued in the same transaction opens
a session with the new hash: the player's new phone is not touched by anything done
before it logged in, and re-enabling nothing brings the old phone back (unlike
deactivating the account, then reactivating it).
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from rulesets import RuleRefused

from . import observers
from .models import Character, Membership
from .services import journal_write, login_token_issue


@transaction.atomic
def character_login_cut(*, character: Character, by) -> str:
    """Every session of the character's login ends now (HTTP answers 401, open sockets
    close with 4403); returns a new login link's secret, the person's older links revoked.
    An organiser's staff account is refused: its password is managed in the admin."""
    if character.user_id is None:
        raise RuleRefused("character_without_login", name=character.name)
    user = get_user_model().objects.select_for_update().get(pk=character.user_id)
    if user.is_staff or user.is_superuser:
        raise RuleRefused("lost_phone_staff_account", name=character.name)
    user.set_unusable_password()        # a new random value: a new session hash
    user.save(update_fields=["password"])
    journal_write(event=character.event, kind="login", what="sessions_ended", at=timezone.now(),
                  by=by, character=character, detail={"user": user.get_username()})
    observers.access_revoked.notify(user_ids=[user.pk])
    return login_token_issue(event=character.event, user=user, by=by)


@transaction.atomic
def membership_remove(*, membership: Membership, by) -> None:
    """A role taken away (a narrator, a referee, a zombie): journalled, and the person's
    open sockets check their access again."""
    journal_write(event=membership.event, kind="role", what="removed", at=timezone.now(), by=by,
                  detail={"user": membership.user.get_username(), "role": membership.role})
    user_id = membership.user_id
    membership.delete()
    observers.access_revoked.notify(user_ids=[user_id])


@transaction.atomic
def membership_store(*, membership: Membership, by) -> Membership:
    """A role granted or changed (from the admin). A change may take a role away from the
    person it named before: both people's sockets check their access again."""
    before = (Membership.objects.select_for_update().filter(pk=membership.pk)
              .values("user_id", "role").first() if membership.pk else None)
    membership.save()
    journal_write(event=membership.event, kind="role", what="changed" if before else "granted",
                  at=timezone.now(), by=by,
                  detail={"user": membership.user.get_username(), "role": membership.role,
                          **({"before": before["role"]} if before else {})})
    if before is not None:
        observers.access_revoked.notify(user_ids=sorted({before["user_id"], membership.user_id}))
    return membership


@transaction.atomic
def account_store(*, user, by) -> None:
    """An account edited by a server administrator (the admin's user page): deactivated,
    its staff rights or groups taken away. Its open sockets check their access again
    (deactivated: they close)."""
    user.save()
    observers.access_revoked.notify(user_ids=[user.pk])
