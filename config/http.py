"""The HTTP side of the ASGI application: Django's handler, with the middleware chain and
the view run in one thread hop, on threads kept from one request to the next.

Every view and every middleware here is synchronous. Django's ASGI handler builds the
chain for an event loop: each middleware that can run there does, and hops to a thread
for its own `process_request` and `process_response`; a synchronous-only one hops to a
thread for the rest of the chain, which hops back to the loop to find the view and to a
thread again to run it. And each request gets a thread of its own, started for it and
stopped after it. A constant answer spent most of its CPU on those hops and threads
(docs/performance.md, "ASGI server and the floor"). Built as for WSGI instead, the whole
chain and the view run in one call, with the same middleware in the same order: what
each one does is unchanged, only where it runs.
"""
from __future__ import annotations

import os
import weakref
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.exception import convert_exception_to_response
from django.utils.module_loading import import_string

# Threads kept idle for the next requests; more are started while more requests run at
# once (as many as Django would have), and stopped when they finish beyond this many.
IDLE_THREADS_KEPT = 16

_ALL_REQUEST_THREADS: weakref.WeakSet[RequestThreads] = weakref.WeakSet()


def _forget_idle_threads_after_fork() -> None:
    """A forked process (a server that loads the app before it forks its workers, the
    browser tests' server) inherits the idle executors but not their threads: each such
    executor would take a request and never run it."""
    for threads in _ALL_REQUEST_THREADS:
        threads.idle.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_idle_threads_after_fork)


class RequestThreads:
    """One-thread executors, each lent to one request at a time: a request's start
    signal, middleware, view and end signal run on the same thread (its database
    connection is the one given back to the pool at its end), as Django requires, but the
    thread is not started and joined for every request. Used from the event loop only."""

    def __init__(self, keep: int = IDLE_THREADS_KEPT):
        self.keep = keep
        self.idle: deque[ThreadPoolExecutor] = deque()
        _ALL_REQUEST_THREADS.add(self)

    def lend(self) -> ThreadPoolExecutor:
        # The longest idle first: a request whose client left is given back while its
        # view may still run on the thread (a thread cannot be stopped); the next request
        # lent that executor would queue behind it, so it is lent last.
        return self.idle.popleft() if self.idle else ThreadPoolExecutor(1, thread_name_prefix="request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self.idle) < self.keep:
            self.idle.append(executor)
        else:
            executor.shutdown(wait=False)


class OneHopASGIHandler(ASGIHandler):
    def __init__(self, middleware: list[str] | None = None):
        """`middleware`: a route's own shorter chain instead of settings.MIDDLEWARE."""
        base.BaseHandler.__init__(self)
        self.middleware = middleware
        # The synchronous chain (`_get_response` at its core), as WSGI would build it.
        self.load_middleware(is_async=False)
        self.threads = RequestThreads()

    def load_middleware(self, is_async=False):
        if self.middleware is None:
            return super().load_middleware(is_async=False)
        self._view_middleware, self._template_response_middleware, self._exception_middleware = [], [], []
        handler = convert_exception_to_response(self._get_response)
        for path in reversed(self.middleware):
            instance = import_string(path)(handler)
            # A route's chain takes middleware that only wrap the request and response:
            # the hooks Django calls around the view would be lost here.
            hooks = ("process_view", "process_exception", "process_template_response")
            if any(hasattr(instance, hook) for hook in hooks):
                raise ValueError(f"{path} has hooks around the view: keep it in settings.MIDDLEWARE")
            handler = convert_exception_to_response(instance)
        self._middleware_chain = handler

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self.threads.lend()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self.threads.give_back(executor)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_asgi_application():
    """Django's HTTP application, each route with the middleware it needs."""
    import django
    django.setup(set_prefix=False)
    from django.conf import settings
    everything = OneHopASGIHandler()
    lighter = {path: OneHopASGIHandler(chain) for path, chain in settings.MIDDLEWARE_BY_PATH.items()}

    async def application(scope, receive, send):
        handler = lighter.get(scope.get("path"), everything)
        await handler(scope, receive, send)
    return application
