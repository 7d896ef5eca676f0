from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from players.services import login_token_redeem
from rulesets import RuleRefused
from players.errors import request_language


@require_GET
def login_link(request, token):
    """The link printed (as a QR code) on a character sheet: opens a session on the phone."""
    try:
        user, _event = login_token_redeem(raw=token)
    except RuleRefused as refused:
        return render(request, "frontend/login_failed.html",
                      {"message": refused.message(request_language(request))}, status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("/")


@require_GET
def home(request):
    return render(request, "frontend/home.html", {"lang": request_language(request)})
