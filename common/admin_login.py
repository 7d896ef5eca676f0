"""The admin's password login (organisers' staff accounts), limited like the login links:
the same count per client address (common/ratelimit.py), counted before the password is
checked, so that no burst and no script can try passwords faster than the phones may try
links."""
from __future__ import annotations

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied, ValidationError

from rulesets import RuleRefused

from .errors import request_language
from .i18n import refusal_text
from .ratelimit import TooManyLogins, attempt_limited


class RateLimitedModelBackend(ModelBackend):
    """Listed before Django's ModelBackend (which stays for the sessions that name it): a
    password that fails raises PermissionDenied, which stops Django trying the next one."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None or password is None:
            return None

        def attempt():
            user = super(RateLimitedModelBackend, self).authenticate(
                request, username=username, password=password, **kwargs)
            if user is None:
                raise RuleRefused("invalid_login")
            return user
        try:
            return attempt_limited(ip=request.META.get("REMOTE_ADDR", ""), attempt=attempt)
        except TooManyLogins as refused:
            request.login_refused = refused
            raise PermissionDenied from None
        except RuleRefused:
            raise PermissionDenied from None


class LimitedAdminLoginForm(AdminAuthenticationForm):
    """The admin's login form, saying why when the address has failed too often."""

    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            refused = getattr(self.request, "login_refused", None)
            if refused is not None:
                raise ValidationError(refusal_text(refused, request_language(self.request)),
                                      code="too_many_logins") from None
            raise
