"""Every write from a phone may carry an `Idempotency-Key` header: a retry after a lost
answer (or a replay from the phone's offline outbox) gets the first answer back and
applies nothing twice.

The key is claimed before the work runs (a pending record, committed on its own), so
requests arriving together with one key do the work once: the first runs it, the others
wait for its stored answer and replay it."""
from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from datetime import timedelta
from functools import reduce
from operator import or_

from django.db import IntegrityError, transaction
from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from rest_framework.exceptions import APIException
from rest_framework.response import Response

from rulesets import RuleRefused

from common.errors import exception_handler, refusal_response
from common.models import IdempotencyRecord

PENDING = 0            # status_code of a claimed key whose answer is not stored yet
WAIT_S = 5.0           # how long a latecomer waits for the first request's answer
POLL_S = 0.05
# A pending claim older than this is a first attempt that died (process killed): the key
# is free again, or one crash would block the phone's outbox for ever.
STALE_AFTER = timedelta(seconds=30)


# An answer may carry a login secret, which must never rest in the table: the record keeps
# what is needed to issue a fresh one instead, and a replay gets that fresh one (issuing it
# revokes the one in the lost answer). Apps above register how, by kind.
SECRET_REISSUERS: dict[str, Callable[..., str]] = {}
SECRET = "_secret"


def carrying_secret(response: Response, *, field: str, kind: str, args: dict) -> Response:
    """Marks `response.data[field]` as a secret that `SECRET_REISSUERS[kind](**args, by=user)`
    can issue again."""
    response.secret = {"field": field, "kind": kind, "args": args}
    return response


def _stored_body(response: Response):
    secret = getattr(response, "secret", None)
    if secret is None:
        return response.data
    body = {k: v for k, v in response.data.items() if k != secret["field"]}
    body[SECRET] = secret
    return body


def _replayed_body(record: IdempotencyRecord, request):
    body = record.body
    if not isinstance(body, dict) or SECRET not in body:
        return body
    body = dict(body)
    secret = body.pop(SECRET)
    body[secret["field"]] = SECRET_REISSUERS[secret["kind"]](**secret["args"], by=request.user)
    return body


class KeyInProgress(RuleRefused):
    def __init__(self):
        super().__init__("idempotency_in_progress")
        self.retry_after = 1


def _digest(request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str)
    return hashlib.sha256(f"{request.method} {request.path} {body}".encode()).hexdigest()


def _replay(record: IdempotencyRecord, digest: str, request) -> Response:
    if record.request_hash != digest:
        return refusal_response(RuleRefused("idempotency_conflict"), request)
    response = Response(_replayed_body(record, request), status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def _claim(user, key: str, digest: str) -> IdempotencyRecord | None:
    """The pending record if this request won the key, None if another one holds it."""
    try:
        with transaction.atomic():
            return IdempotencyRecord.objects.create(user=user, key=key, request_hash=digest,
                                                    status_code=PENDING, body={})
    except IntegrityError:
        return None


def _is_stale(record: IdempotencyRecord) -> bool:
    return record.created_at <= timezone.now() - STALE_AFTER


def _take_over(record: IdempotencyRecord, digest: str) -> IdempotencyRecord | None:
    """A crashed attempt's claim passes to this request, or None if another copy took it
    first: one taker only (a conditional update)."""
    now = timezone.now()
    taken = IdempotencyRecord.objects.filter(
        pk=record.pk, status_code=PENDING, created_at=record.created_at,
    ).update(created_at=now, request_hash=digest)
    if not taken:
        return None
    record.created_at, record.request_hash = now, digest
    return record


def _claim_or_answer(user, key: str, digest: str, request) -> Response | IdempotencyRecord:
    """The key's claim for this request, or the answer it gets instead: the first request's
    stored answer once it is there, a conflict, or "in progress" after a bounded wait. A
    claim whose first attempt died passes to this request.
    Counted polls rather than a deadline: a test's frozen clock must not stop the wait."""
    for _ in range(int(WAIT_S / POLL_S)):
        record = IdempotencyRecord.objects.filter(user=user, key=key).first()
        if record is None:  # a new key, or its first attempt failed and released it
            claimed = _claim(user, key, digest)
            if claimed is not None:
                return claimed
            continue
        if record.status_code != PENDING:
            return _replay(record, digest, request)
        if _is_stale(record):
            taken = _take_over(record, digest)
            if taken is not None:
                return taken
            continue        # another copy took it over first: read what it holds now
        if record.request_hash != digest:  # no need to wait to know it is another request
            return refusal_response(RuleRefused("idempotency_conflict"), request)
        time.sleep(POLL_S)
    return refusal_response(KeyInProgress(), request)


def _run_and_store(record: IdempotencyRecord, request, run) -> Response:
    try:
        with transaction.atomic():
            response = run()
            # The answer commits with the work: either both are there or neither.
            _store(record, response)
            return response
    except (RuleRefused, APIException) as exc:
        # The refusal changed nothing (the block rolled back) but stays the key's answer.
        response = exception_handler(exc, {"request": request})
        _store(record, response)
        return response
    except BaseException:
        # Nothing was applied: free the key so that a retry does the work.
        IdempotencyRecord.objects.filter(pk=record.pk, status_code=PENDING).delete()
        raise


def _store(record: IdempotencyRecord, response: Response) -> None:
    IdempotencyRecord.objects.filter(pk=record.pk).update(
        status_code=response.status_code, body=_stored_body(response))


def idempotent(request, run) -> Response:
    key = request.headers.get("Idempotency-Key", "").strip()
    if not key:
        return run()
    # Printable: PostgreSQL cannot store the NUL a raw header may carry.
    if len(key) > 100 or not key.isprintable():
        raise RuleRefused("bad_input",
                          detail="Idempotency-Key must be at most 100 printable characters")
    outcome = _claim_or_answer(request.user, key, _digest(request), request)
    if isinstance(outcome, Response):
        return outcome
    return _run_and_store(outcome, request, run)


# -- personal data (players/privacy_services.py) ---------------------------------------------

def records_forget(*, user) -> int:
    """An erased account's stored answers go with it: nobody can retry as it any more."""
    return IdempotencyRecord.objects.filter(user=user).delete()[0]


def records_scrub(*, words, scrub: Callable) -> int:
    """Stored answers of others that name someone erased (an organiser's check-in of them)
    keep answering a retry, without the names. Returns how many changed."""
    # Each word as stored: JSON text may escape what is not ASCII.
    forms = {form for word in words for form in (word, json.dumps(word)[1:-1]) if form}
    if not forms:
        return 0
    found = IdempotencyRecord.objects.annotate(text=Cast("body", TextField())).filter(
        reduce(or_, (Q(text__contains=form) for form in forms)))
    changed = 0
    for record in found:
        body = scrub(record.body)
        if body != record.body:
            IdempotencyRecord.objects.filter(pk=record.pk).update(body=body)
            changed += 1
    return changed
