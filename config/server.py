"""How an ASGI server process (HTTP and websockets) is started: the one command line that
production (docs/operations.md), ./run, the fault tests and the benchmarks share.

    .venv/bin/python -m config.server -b 127.0.0.1 -p 8001 [-w 2] [--proxy-headers ...]

The server is uvicorn with httptools, chosen by measurement against daphne and granian
(`python -m bench.servers`, docs/performance.md). Any option after the address
goes to uvicorn as is and wins over the defaults below (`--access-log`, `--proxy-headers`,
`--forwarded-allow-ips ...`). Its options for crowds, and why, are in docs/operations.md
("Crowds of phones").
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

APPLICATION = "config.asgi:application"
# Connections the kernel queues before the server accepts them. Twisted's default, 50,
# dropped the SYNs of a crowd beyond it, and each dropped phone waits a TCP retransmission
# (1 s, then 3 s...) before it is even seen. Linux caps it at net.core.somaxconn.
LISTEN_BACKLOG = 1024
# A websocket's keepalive, as daphne had it: a ping after 20 s of silence, and a phone
# that does not answer within 30 s (gone into a dead zone without closing) is closed, so
# its socket and group memberships do not linger. The phone's own heartbeat is every 30 s.
WS_PING_INTERVAL_S = 20
WS_PING_TIMEOUT_S = 30
# The largest message a phone may send, as daphne had it (the consumer refuses anything
# over 64 KiB itself, live/consumers.py).
WS_MAX_SIZE = 1024 * 1024
# The sans-I/O websocket implementation sets no deadline on the application's accept: a
# crowd's handshakes are never cut while their work runs (daphne cut them after 5 s by
# default, 60 s here); the phone or the proxy (nginx: 60 s) gives up on its own.
WS_IMPLEMENTATION = "websockets-sansio"
# Python's own event loop: with uvloop, uvicorn's httptools protocol writes a response to
# a connection the client has just closed and logs a traceback for it (uvloop's transport
# raises where asyncio's ignores the write); the CPU per request was the same within noise.
LOOP = "asyncio"
# uvicorn's httptools protocol, which answers an upgrade to the live socket itself when the
# process is full: the busy refusal for a fraction of a bare connect (live/busy_http.py).
HTTP_PROTOCOL = "live.busy_http:BusyHttpProtocol"
# On SIGTERM, open websockets are closed (1012, "service restart": phones reconnect) and
# requests still running get this long to finish.
GRACEFUL_SHUTDOWN_S = 5


def command(host: str, port: int, *options: str, workers: int = 1,
            application: str = APPLICATION) -> list[str]:
    """The server's command line, listening on host:port with `workers` processes that
    share the port (uvicorn's own supervisor above one); `options` are added as given."""
    return [str(Path(sys.executable).parent / "uvicorn"),
            "--host", host, "--port", str(port), "--workers", str(workers),
            "--loop", LOOP, "--http", HTTP_PROTOCOL, "--backlog", str(LISTEN_BACKLOG),
            "--ws", WS_IMPLEMENTATION, "--ws-max-size", str(WS_MAX_SIZE),
            "--ws-ping-interval", str(WS_PING_INTERVAL_S), "--ws-ping-timeout", str(WS_PING_TIMEOUT_S),
            # No compression, as with daphne: a zlib context per websocket would cost more
            # memory than the rest of an idle phone, for snapshots of a few KB.
            "--ws-per-message-deflate", "false",
            "--lifespan", "on", "--timeout-graceful-shutdown", str(GRACEFUL_SHUTDOWN_S),
            # X-Forwarded-For/-Proto are believed only when asked (behind a proxy), as
            # with daphne: a phone reaching the server directly must not pick its address.
            "--no-proxy-headers",
            # A line per request costs CPU on every constant answer; the proxy logs them.
            "--no-access-log",
            *options, application]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m config.server",
                                     description=__doc__.split("\n\n")[0],
                                     epilog="Other options go to uvicorn as given (uvicorn --help).",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-b", "--bind", default="127.0.0.1", help="address to listen on")
    parser.add_argument("-p", "--port", type=int, required=True)
    parser.add_argument("-w", "--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "1")),
                        help="processes sharing the port (default: WEB_CONCURRENCY, else 1)")
    args, options = parser.parse_known_args(argv)
    line = command(args.bind, args.port, *options, workers=args.workers)
    # The server replaces this process: a supervisor (systemd, ./run) watches it directly.
    os.execv(line[0], line)


if __name__ == "__main__":
    main()
