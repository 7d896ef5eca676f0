"""A lost or stolen phone cut off by the organisers of its event: every session of the
character's login ends, and a new login QR code is issued for the player's new phone."""
from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import SECRET_REISSUERS, carrying_secret, idempotent

from . import access_services, services
from .answers import LostPhoneAnswer
from .apis import login_url
from .models import Character, Event
from .selectors import event_for_narrator


def _login(raw: str) -> dict:
    """The new login: its link and the same link as a QR code (SVG) to scan."""
    url = login_url(raw)
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage)
    return {"url": url, "qr_svg": image.to_string(encoding="unicode")}


def _login_reissue(*, event: int, user: int, by) -> dict:
    """A replay of the cut-off's answer: a fresh link (the sessions are not ended again:
    the new phone may have logged in meanwhile)."""
    return _login(services.login_token_issue(event=Event.objects.get(pk=event),
                                             user=get_user_model().objects.get(pk=user), by=by))


SECRET_REISSUERS["lost_phone_login"] = _login_reissue


class LostPhoneApi(APIView):
    @extend_schema(responses=LostPhoneAnswer, request=None, summary="A lost or stolen phone "
                   "(organisers of the character's event): every session of the character's login "
                   "ends at once (its requests answer 401 logged_out, its open websockets close "
                   "with 4403) and a new login link is issued, as a URL and a QR code (SVG). "
                   "Idempotency-Key header: a replay issues a fresh link and ends nothing again.")
    def post(self, request, character_id):
        character = get_object_or_404(Character.objects.select_related("event"), pk=character_id)
        event_for_narrator(request.user, character.event_id)

        def run():
            raw = access_services.character_login_cut(character=character, by=request.user)
            response = answer(request, {"character": character.pk, "sessions_ended": True,
                                        "login": _login(raw)})
            return carrying_secret(response, field="login", kind="lost_phone_login",
                                   args={"event": character.event_id, "user": character.user_id})
        return idempotent(request, run)
