"""A call for help on the responders' locked phones (Web Push): the narrators' and the
safety team's. Best effort beside their open screens: a push service that fails is logged
by push/ and the call stands."""
from __future__ import annotations

from django.contrib.auth import get_user_model

from push.services import push_to_user

from . import texts
from .models import HelpCall
from .selectors import safety_responder_ids

# A call an hour old is no news for a phone that comes back online: the push expires.
HELP_TTL_S = 3600


def help_push(*, call_id: int) -> int:
    """How many browsers the push services accepted; nothing once the call is closed."""
    call = HelpCall.objects.select_related("event", "character").filter(pk=call_id).first()
    if call is None or call.status == HelpCall.CLOSED:
        return 0
    event = call.event
    name = call.character.name if call.character else call.caller_label
    users = get_user_model().objects.filter(pk__in=safety_responder_ids(event)).exclude(pk=call.caller_id)
    return sum(push_to_user(user=user, title=texts.help_title(event.language),
                            body=texts.help_body(event.language, name=name, kind=call.kind),
                            tag=f"help-{call.pk}", url=f"/#/safety/{event.pk}", ttl=HELP_TTL_S,
                            kind="help_call", urgent=True)
               for user in users)
