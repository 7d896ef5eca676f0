"""The admin speaks the organiser's language: the one they chose in the app's language menu
(the `django_language` cookie, which LocaleMiddleware already reads), else their events'
(a French GN's organiser reads French), else their browser's."""
from __future__ import annotations

from django.conf import settings
from django.utils import translation

from .models import Membership

LANGUAGES = {code for code, _ in settings.LANGUAGES}


class AdminLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (request.path.startswith("/admin/") and request.user.is_authenticated
                and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) not in LANGUAGES):
            lang = (Membership.objects.filter(user=request.user, role=Membership.NARRATOR)
                    .order_by("-event__created_at").values_list("event__language", flat=True).first())
            if lang in LANGUAGES:
                translation.activate(lang)
                request.LANGUAGE_CODE = lang
        return self.get_response(request)
