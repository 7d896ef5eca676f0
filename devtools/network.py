"""Where ./run listens and how phones reach it (docs/field-network.md).

Plain: one port (PORT, else PUBLIC_URL's own port, else 8000). With `--https`, the
laptop serves https itself on PUBLIC_URL's port with the event's own certificate
(manage.py field_certificates), and plain http on PORT (default 8000) for the page that
installs the event's authority on phones (/field/ca/); everything else there redirects to
https. The links are printed only once every listener answers."""
from __future__ import annotations

import errno
import socket
import ssl
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from config.server import command as server_command

WILDCARDS = ("0.0.0.0", "::", "")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class NetworkError(Exception):
    """A setting that cannot work, said in the organiser's terms."""


@dataclass(frozen=True)
class Listener:
    name: str        # the supervised process' name
    port: int
    tls: bool


@dataclass(frozen=True)
class Plan:
    host: str
    public_url: str
    listeners: list[Listener]
    # https PUBLIC_URL without --https: a proxy on this laptop (Caddy) serves https.
    behind_proxy: bool = False

    @property
    def public_host(self) -> str:
        return urlsplit(self.public_url).hostname or ""


def plan(env: dict, *, https: bool) -> Plan:
    """The listeners for this environment; sets PUBLIC_URL in `env` when it is not set."""
    host = env.get("HOST", "0.0.0.0")
    public = urlsplit(env.get("PUBLIC_URL", ""))
    if public.scheme == "https":
        # No HSTS from a field laptop: it binds a name to https on every port, and the
        # certificate page stays on plain http at the same name for the next phones.
        env.setdefault("SECURE_HSTS_SECONDS", "0")
    if https:
        if public.scheme != "https" or not public.hostname:
            raise NetworkError("./run --https needs PUBLIC_URL=https://<this laptop's LAN address or "
                               "local name>:8443 (docs/field-network.md)")
        tls_port, http_port = public.port or 443, int(env.get("PORT") or 8000)
        if tls_port == http_port:
            raise NetworkError(f"PORT ({http_port}) serves plain http beside https: choose another "
                               "port than PUBLIC_URL's")
        return Plan(host, env["PUBLIC_URL"], [Listener("web", tls_port, True),
                                              Listener("web-http", http_port, False)])
    own_port = public.port if public.scheme == "http" else None
    port = int(env.get("PORT") or own_port or 8000)
    env.setdefault("PUBLIC_URL", f"http://127.0.0.1:{port}")
    return Plan(host, env["PUBLIC_URL"], [Listener("web", port, False)], behind_proxy=public.scheme == "https")


def web_commands(plan: Plan, *, workers: int, certificate: Path, key: Path) -> dict[str, list[str]]:
    """The server's command line per listener; the plain one beside https needs one process."""
    commands = {}
    for listener in plan.listeners:
        if listener.tls:
            commands[listener.name] = server_command(
                plan.host, listener.port, "--ssl-certfile", str(certificate), "--ssl-keyfile", str(key),
                workers=workers)
        else:
            # Behind a proxy on this laptop, the phone's address and the scheme are the
            # proxy's headers (uvicorn believes them from 127.0.0.1 only).
            proxy = ["--proxy-headers"] if plan.behind_proxy else []
            commands[listener.name] = server_command(
                plan.host, listener.port, *proxy, workers=1 if len(plan.listeners) > 1 else workers)
    return commands


def _answer(plan: Plan, listener: Listener, ca_file: Path) -> bytes:
    """The status line of /healthz asked as a phone would: to PUBLIC_URL's host (and, over
    https, checking the certificate for that name), connecting to this machine itself."""
    address = "127.0.0.1" if plan.host in WILDCARDS else plan.host
    with socket.create_connection((address, listener.port), timeout=5) as raw:
        sock = raw
        if listener.tls:
            context = ssl.create_default_context(cafile=str(ca_file))
            sock = context.wrap_socket(raw, server_hostname=plan.public_host)
        host = plan.public_host if ":" not in plan.public_host else f"[{plan.public_host}]"
        sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}:{listener.port}\r\n"
                     "Connection: close\r\n\r\n".encode())
        return sock.recv(64).split(b"\r\n")[0]


def wait_until_answering(plan: Plan, processes: dict, *, ca_file: Path, timeout_s: float = 120) -> None:
    """Until every listener answers HTTP for PUBLIC_URL's host; a listener's process that
    stops, a refused host or a certificate the phones would refuse is an error."""
    deadline = time.monotonic() + timeout_s
    for listener in plan.listeners:
        while True:
            if processes[listener.name].poll() is not None:
                raise NetworkError(f"the server on port {listener.port} stopped while starting")
            try:
                status = _answer(plan, listener, ca_file)
            except ssl.SSLCertVerificationError as error:
                raise NetworkError(f"port {listener.port}: the certificate does not fit "
                                   f"{plan.public_host}: {error.verify_message}") from None
            except OSError:
                if time.monotonic() > deadline:
                    raise NetworkError(f"nothing answers on port {listener.port} after {timeout_s:.0f} s") from None
                time.sleep(0.2)     # a process starting to listen, not the app's time
                continue
            if status.split(b" ")[1:2] not in ([b"200"], [b"301"]):
                raise NetworkError(f"port {listener.port} answers {status.decode(errors='replace')} "
                                   f"for {plan.public_host}")
            break


def address_warning(plan: Plan) -> str | None:
    """PUBLIC_URL's address when this machine does not have it: phones would never reach it.
    Binding a socket to it (nothing is sent) says whether it is one of ours."""
    try:
        socket.inet_pton(socket.AF_INET6 if ":" in plan.public_host else socket.AF_INET, plan.public_host)
    except OSError:
        return None      # a name: its DNS is the organisers' router's
    family = socket.AF_INET6 if ":" in plan.public_host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((plan.public_host, 0))
        except OSError as error:
            if error.errno != errno.EADDRNOTAVAIL:
                return None
            return (f"Warning: {plan.public_host} (PUBLIC_URL) is not an address of this machine: "
                    "phones will not reach the links. Use the laptop's address on the players' "
                    "Wi-Fi (ip addr, or ipconfig getifaddr en0 on a Mac).")
    return None


def describe(plan: Plan) -> str:
    where = "every address of this machine" if plan.host in WILDCARDS else plan.host
    lines = []
    for listener in plan.listeners:
        if listener.tls:
            lines.append(f"Listening on {plan.host}:{listener.port} ({where}): https with the event's "
                         f"certificate for {plan.public_host}")
        elif len(plan.listeners) > 1:
            lines.append(f"Listening on {plan.host}:{listener.port} ({where}): plain http, the page "
                         "that installs the event's certificate, and a redirect to https")
        else:
            lines.append(f"Listening on {plan.host}:{listener.port} ({where})")
    if plan.public_host in LOOPBACK:
        lines.append(f"{plan.public_url} opens on this machine only: for phones, set PUBLIC_URL to this "
                     "laptop's LAN address (docs/field-network.md)")
    else:
        lines.append(f"Phones open {plan.public_url}")
    plain = [listener for listener in plan.listeners if not listener.tls]
    if plan.public_url.startswith("https://") and any(listener.tls for listener in plan.listeners):
        host = plan.public_host if ":" not in plan.public_host else f"[{plan.public_host}]"
        lines.append(f"Each phone installs the event's certificate first, once: "
                     f"http://{host}:{plain[0].port}/field/ca/")
    elif plan.public_url.startswith("http://") and plan.public_host not in LOOPBACK:
        lines.append("Phones on plain http get no offline app and no camera scanning "
                     "(docs/field-network.md says how to serve https on a LAN)")
    return "\n".join(lines)
