"""How an ASGI server process (HTTP and websockets) is started: the one command line that
production (docs/operations.md), ./run, the fault tests and the benchmarks share.

    .venv/bin/python -m config.server -b 127.0.0.1 -p 8001 [--proxy-headers ...]

Any option after the address goes to the server as is. Its options for crowds, and why,
are in docs/operations.md ("Crowds of phones").
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

APPLICATION = "config.asgi:application"
# Connections the kernel queues before the server accepts them. Twisted's default, 50,
# drops the SYNs of a crowd beyond it, and each dropped phone waits a TCP retransmission
# (1 s, then 3 s...) before it is even seen. Linux caps it at net.core.somaxconn.
LISTEN_BACKLOG = 1024
# How long a websocket may wait for the server to accept it. daphne's default of 5 s cuts
# the handshakes at the end of a crowd's queue (the server just restarted, everyone
# reconnects) while their work still runs: each cut phone retries and the server does it
# all again. 60 s is nginx's default proxy_read_timeout, past which the proxy cuts anyway.
WEBSOCKET_CONNECT_TIMEOUT_S = 60


def command(host: str, port: int, *options: str) -> list[str]:
    """The server's command line, listening on host:port; `options` are added as given."""
    from daphne.endpoints import build_endpoint_description_strings

    (endpoint,) = build_endpoint_description_strings(host=host, port=port)
    return [str(Path(sys.executable).parent / "daphne"),
            "--endpoint", f"{endpoint}:backlog={LISTEN_BACKLOG}",
            "--websocket_connect_timeout", str(WEBSOCKET_CONNECT_TIMEOUT_S),
            *options, APPLICATION]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m config.server",
                                     description=__doc__.split("\n\n")[0],
                                     epilog="Other options go to daphne as given (daphne --help).",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-b", "--bind", default="127.0.0.1", help="address to listen on")
    parser.add_argument("-p", "--port", type=int, required=True)
    args, options = parser.parse_known_args(argv)
    line = command(args.bind, args.port, *options)
    # The server replaces this process: a supervisor (systemd, ./run) watches it directly.
    os.execv(line[0], line)


if __name__ == "__main__":
    main()
