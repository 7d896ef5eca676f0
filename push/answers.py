"""The wire format of push's answers (push/apis.py), as /api/schema/ shows them and the
tests check them (tests/wire.py)."""
from __future__ import annotations

from rest_framework import serializers


class PushKeyAnswer(serializers.Serializer):
    public_key = serializers.CharField(help_text="The VAPID public key (base64url), the browser's "
                                                 "applicationServerKey")


class PushSubscribedAnswer(serializers.Serializer):
    endpoint = serializers.CharField()
    created = serializers.BooleanField(help_text="false: this endpoint was already registered")
