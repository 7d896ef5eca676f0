"""Failed logins are counted per client address in the shared cache (Redis), so every ASGI
process sees the same counts. A link holds 192 random bits, so guessing one is hopeless
anyway: the limit stops a script from hammering the database and shows up in the logs.

Windows are fixed and aligned on the clock (the counter is one Redis INCR, atomic across
processes): at most LOGIN_FAILURES_MAX failures per LOGIN_FAILURES_WINDOW_S, then every
attempt from that address, even with a good link, waits for the next window."""
from __future__ import annotations

import ipaddress
import logging
import math
import time

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

from rulesets import RuleRefused

logger = logging.getLogger(__name__)


class TooManyLogins(RuleRefused):
    def __init__(self, retry_after: int):
        super().__init__("too_many_logins", minutes=str(math.ceil(retry_after / 60)))
        self.retry_after = retry_after  # seconds, for the Retry-After header


def client_key(ip: str) -> str:
    """An IPv6 client owns a whole /64 and could rotate through it: count it as one."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip or "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _window() -> tuple[int, int]:
    """The current window's number and the whole seconds left in it."""
    length = settings.LOGIN_FAILURES_WINDOW_S
    now = time.time()
    number = int(now // length)
    return number, max(1, math.ceil((number + 1) * length - now))


def attempt_limited(*, ip: str, attempt):
    """Run `attempt` (a login), refused with 429 once the address has failed too often;
    a refusal of the attempt counts as a failure."""
    number, left = _window()
    key = f"login-failures:{client_key(ip)}:{number}"
    if _failures(key) >= settings.LOGIN_FAILURES_MAX:
        raise TooManyLogins(left)
    try:
        return attempt()
    except RuleRefused:
        _count_failure(key, ip)
        raise


# A Redis outage must not lock every phone out during a game: the limit fails open.

def _failures(key: str) -> int:
    try:
        return cache.get(key, 0)
    except RedisError:
        logger.exception("login rate limit unavailable; allowing the attempt")
        return 0


def _count_failure(key: str, ip: str) -> None:
    try:
        cache.add(key, 0, timeout=settings.LOGIN_FAILURES_WINDOW_S)
        failures = cache.incr(key)
    except ValueError:  # the key expired between add and incr: a new window has begun
        return
    except RedisError:
        logger.exception("login rate limit unavailable; failure not counted")
        return
    if failures == settings.LOGIN_FAILURES_MAX:
        logger.warning("login failures from %s reached %d; refusing logins until the window "
                       "ends", ip, failures)
