"""The browser tests' server: Daphne serving the project's ASGI application in a process
started afresh (spawned), as production starts it, on the test database.

Not forked from the test process: by the time the browser tests run, that process holds
threads (the database pool's, a fake push service's, a test's output readers). A fork
copies their locks as they stand, and a lock held at that instant is held for ever in
the server: now and then a request waited there until the test gave up."""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import traceback

SPAWN = multiprocessing.get_context("spawn")

# What the test process changes in the settings for its tests, and the server must share:
# the test database's name, the cache's settings, the hosts a test allows.
SHARED_SETTINGS = ("DATABASES", "CACHES", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS")


class ServerProcess(SPAWN.Process):
    def __init__(self, settings_values: dict):
        super().__init__(daemon=True)
        self.settings_values = settings_values
        self.port = SPAWN.Value("i", 0)
        self.ready = SPAWN.Event()
        self.errors = SPAWN.Queue()

    def run(self) -> None:
        if sys.platform == "linux":
            # A run that ends without its teardown (a stuck test ends it at its timeout)
            # must not leave the server holding the run's output open: the kernel ends it.
            pr_set_pdeathsig = 1
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
        try:
            self._serve()
        except BaseException as error:
            self.errors.put((repr(error), traceback.format_exc()))
            raise

    def _serve(self) -> None:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        from django.conf import settings
        for name, value in self.settings_values.items():
            setattr(settings, name, value)
        import django
        django.setup()

        from channels.testing.live import make_application
        from daphne.endpoints import build_endpoint_description_strings
        from daphne.server import Server
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        server = Server(application=make_application(static_wrapper=ASGIStaticFilesHandler),
                        endpoints=build_endpoint_description_strings(host="127.0.0.1", port=0),
                        signal_handlers=False)
        from twisted.internet import reactor

        def tell_the_port():
            if server.listening_addresses:
                self.port.value = server.listening_addresses[0][1]
                self.ready.set()
            else:
                reactor.callLater(0.1, tell_the_port)

        reactor.callLater(0.1, tell_the_port)
        server.run()


def server_start() -> ServerProcess:
    from django.conf import settings
    process = ServerProcess({name: getattr(settings, name) for name in SHARED_SETTINGS})
    process.start()
    if not process.ready.wait(timeout=60):
        error = process.errors.get(timeout=1)[1] if not process.errors.empty() else ""
        process.terminate()
        raise RuntimeError(f"the test server did not start\n{error}")
    return process
