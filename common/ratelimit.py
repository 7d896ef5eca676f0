"""Failed logins are counted per client address in the shared cache (Redis), so every ASGI
process sees the same counts. A link holds 192 random bits, so guessing one is hopeless
anyway: the limit stops a script from hammering the database and shows up in the logs.

Windows are fixed and aligned on the clock (the counter is one Redis INCR, atomic across
processes, taken before the attempt): at most LOGIN_FAILURES_MAX failures per
LOGIN_FAILURES_WINDOW_S, then every attempt from that address, even with a good link,
waits for the next window. The admin's password login (common/admin_login.py) shares the
count."""
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
    a refusal of the attempt counts as a failure.

    The attempt is counted before it runs, in one atomic INCR, and given back if it
    succeeds: a burst of simultaneous tries cannot all read "19 failures" and all go
    through (checking, then counting, let 61 of 100 through)."""
    number, left = _window()
    key = f"login-failures:{client_key(ip)}:{number}"
    counted = _count_attempt(key)
    if counted is not None and counted > settings.LOGIN_FAILURES_MAX:
        raise TooManyLogins(left)
    try:
        result = attempt()
    except RuleRefused:
        if counted == settings.LOGIN_FAILURES_MAX:
            logger.warning("login failures from %s reached %d; refusing logins until the "
                           "window ends", ip, counted)
        raise
    if counted is not None:
        _give_back(key)
    return result


# A Redis outage must not lock every phone out during a game: the limit fails open.

def _count_attempt(key: str) -> int | None:
    """The attempts counted in this window, this one included; None without Redis."""
    try:
        cache.add(key, 0, timeout=settings.LOGIN_FAILURES_WINDOW_S)
        return cache.incr(key)
    except ValueError:  # the key expired between add and incr: the window just ended
        return None
    except RedisError:
        logger.exception("login rate limit unavailable; allowing the attempt")
        return None


def _give_back(key: str) -> None:
    """A successful login was not a failure."""
    try:
        cache.decr(key)
    except (ValueError, RedisError):   # the window ended meanwhile, or Redis is gone
        pass
