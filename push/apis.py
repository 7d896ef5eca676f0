"""The browser's side of Web Push: the server's public key, and its subscription."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent

from . import keys, services
from .answers import PushKeyAnswer, PushSubscribedAnswer


class PushKeyApi(APIView):
    @extend_schema(responses=PushKeyAnswer, summary="The VAPID public key (applicationServerKey) to subscribe with")
    def get(self, request):
        return answer(request, {"public_key": keys.public_key()})


class KeysInput(serializers.Serializer):
    p256dh = serializers.CharField(max_length=100)
    auth = serializers.CharField(max_length=50)


class SubscriptionInput(serializers.Serializer):
    endpoint = serializers.URLField(max_length=1000)
    keys = KeysInput()  # PushSubscription.toJSON()'s shape; expirationTime is ignored


class EndpointInput(serializers.Serializer):
    endpoint = serializers.URLField(max_length=1000)


class PushSubscriptionsApi(APIView):
    @extend_schema(responses={201: PushSubscribedAnswer}, request=SubscriptionInput,
                   summary="Register this browser for push (PushSubscription.toJSON()); "
                           "idempotent per endpoint")
    def post(self, request):
        data = SubscriptionInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            given = data.validated_data
            subscription, created = services.subscription_save(
                user=request.user, endpoint=given["endpoint"], **given["keys"])
            return answer(request, {"endpoint": subscription.endpoint, "created": created},
                          status=201)
        return idempotent(request, run)

    @extend_schema(responses={204: None}, request=EndpointInput,
                   summary="Stop pushing to this browser")
    def delete(self, request):
        data = EndpointInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.subscription_delete(user=request.user, endpoint=data.validated_data["endpoint"])
        return Response(status=204)
