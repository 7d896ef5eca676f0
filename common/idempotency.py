"""Every write from a phone may carry an `Idempotency-Key` header: a retry after a lost
answer (or a replay from the phone's offline outbox) gets the first answer back and
applies nothing twice."""
from __future__ import annotations

import hashlib
import json

from django.db import IntegrityError, transaction
from rest_framework.exceptions import APIException
from rest_framework.response import Response

from rulesets import RuleRefused

from common.errors import exception_handler, refusal_response
from common.models import IdempotencyRecord


def _digest(request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str)
    return hashlib.sha256(f"{request.method} {request.path} {body}".encode()).hexdigest()


def _replay(record: IdempotencyRecord, digest: str, request) -> Response:
    if record.request_hash != digest:
        return refusal_response(RuleRefused("idempotency_conflict"), request)
    response = Response(record.body, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def idempotent(request, run) -> Response:
    key = request.headers.get("Idempotency-Key", "").strip()
    if not key:
        return run()
    # Printable: PostgreSQL cannot store the NUL a raw header may carry.
    if len(key) > 100 or not key.isprintable():
        raise RuleRefused("bad_input",
                          detail="Idempotency-Key must be at most 100 printable characters")
    digest = _digest(request)
    found = IdempotencyRecord.objects.filter(user=request.user, key=key).first()
    if found:
        return _replay(found, digest, request)
    try:
        with transaction.atomic():
            response = run()
            IdempotencyRecord.objects.create(user=request.user, key=key, request_hash=digest,
                                             status_code=response.status_code, body=response.data)
            return response
    except IntegrityError:
        # The same key arrived twice at once: the other request won; answer as it did.
        winner = IdempotencyRecord.objects.filter(user=request.user, key=key).first()
        if winner is None:
            raise
        return _replay(winner, digest, request)
    except (RuleRefused, APIException) as exc:
        # The refusal changed nothing (the block rolled back) but stays the key's answer.
        response = exception_handler(exc, {"request": request})
        IdempotencyRecord.objects.get_or_create(
            user=request.user, key=key,
            defaults={"request_hash": digest, "status_code": response.status_code,
                      "body": response.data})
        return response
