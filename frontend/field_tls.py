"""HTTPS on a site with no internet: the event's own certificate authority and the server
certificate it signs for the laptop's LAN address or local name (docs/field-network.md).

A phone gets a secure context (service worker, camera, install, wake lock) only from an
https page whose certificate it trusts. With no internet on the day, no public authority
can be asked, so the organisers' laptop is its own: each phone installs the authority's
certificate once (from /field/ca/, on plain http), and trusts every server certificate it
signs.

Installing an authority is a large trust to ask of a player. So the authority is
name-constrained: it can sign certificates only for private and loopback addresses and for
the local names it was created with (and their subdomains), never for a bank or a mail
provider, even if its key were stolen. Its key never leaves `var/field-tls/`.
"""
from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

# The addresses a LAN (or this machine) can have: the authority signs for these only.
PRIVATE_NETWORKS = [ipaddress.ip_network(net) for net in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "100.64.0.0/10",
    "169.254.0.0/16", "fc00::/7", "fe80::/10", "::1/128")]
# An authority outlives several events (phones keep it installed); a server certificate
# stays within the 398 days that Apple's and Chrome's rules accept.
CA_DAYS = 5 * 365
SERVER_DAYS = 397
RENEW_DAYS = 30
KEY_BITS = 2048     # RSA 2048: what every phone accepts, old Androids included


@dataclass(frozen=True)
class FieldTls:
    """The files of the event's authority and its server certificate."""
    folder: Path

    @property
    def ca_cert(self) -> Path:
        return self.folder / "ca.pem"

    @property
    def ca_key(self) -> Path:
        return self.folder / "ca-key.pem"

    @property
    def server_cert(self) -> Path:
        return self.folder / "server.pem"

    @property
    def server_key(self) -> Path:
        return self.folder / "server-key.pem"


def field_tls_folder(var_dir: Path) -> FieldTls:
    return FieldTls(Path(var_dir) / "field-tls")


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _refuse_public_addresses(names: list[str]) -> None:
    for name in names:
        if is_address(name) and not any(ipaddress.ip_address(name) in net for net in PRIVATE_NETWORKS):
            raise ValueError(f"{name} is a public address: the event's authority signs only for "
                             "private LAN addresses and local names (use a real certificate there)")


def _save_key(key, path: Path) -> None:
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    path.chmod(0o600)


def _names_constraint(local_names: list[str]) -> x509.NameConstraints:
    permitted = [x509.IPAddress(net) for net in PRIVATE_NETWORKS]
    # With no name of a kind listed, that kind would be unconstrained (RFC 5280): an
    # authority for addresses only permits the reserved `.invalid` names alone.
    permitted += [x509.DNSName(name) for name in local_names or ["invalid"]]
    return x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None)


def ca_create(*, tls: FieldTls, event_name: str, local_names: list[str]) -> x509.Certificate:
    """A new authority for `local_names` (and private addresses); it replaces any other."""
    tls.folder.mkdir(parents=True, exist_ok=True)
    key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    subject = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, event_name[:64]),
                         x509.NameAttribute(NameOID.COMMON_NAME, f"{event_name[:40]} field authority")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                         content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False,
                                         encipher_only=False, decipher_only=False), critical=True)
            .add_extension(_names_constraint(local_names), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    _save_key(key, tls.ca_key)
    tls.ca_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert


def ca_load(tls: FieldTls) -> x509.Certificate | None:
    if not (tls.ca_cert.exists() and tls.ca_key.exists()):
        return None
    return x509.load_pem_x509_certificate(tls.ca_cert.read_bytes())


def ca_permits(ca: x509.Certificate, names: list[str]) -> bool:
    """Whether the authority may sign for every name (its constraints allow them)."""
    constraint = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    dns = [entry.value for entry in constraint.permitted_subtrees if isinstance(entry, x509.DNSName)]
    for name in names:
        if is_address(name):
            continue    # private addresses are always permitted (public ones are refused)
        if not any(name == allowed or name.endswith("." + allowed) for allowed in dns):
            return False
    return True


def server_names(cert_path: Path) -> set[str]:
    """The names the server certificate is good for; none when it is missing or ends
    within RENEW_DAYS (made again before a phone sees it expired)."""
    if not cert_path.exists():
        return set()
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    if cert.not_valid_after_utc < datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=RENEW_DAYS):
        return set()
    sans = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return {str(value) for value in sans.get_values_for_type(x509.IPAddress)} | set(
        sans.get_values_for_type(x509.DNSName))


def server_certificate_create(*, tls: FieldTls, names: list[str]) -> x509.Certificate:
    """The laptop's certificate for `names` (LAN addresses and local names), signed by the
    authority: what the phones see when they open the https links."""
    ca = x509.load_pem_x509_certificate(tls.ca_cert.read_bytes())
    ca_key = serialization.load_pem_private_key(tls.ca_key.read_bytes(), password=None)
    key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    alternatives = [x509.IPAddress(ipaddress.ip_address(name)) if is_address(name) else x509.DNSName(name)
                    for name in names]
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
            .issuer_name(ca.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    _save_key(key, tls.server_key)
    tls.server_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert


def field_certificates_ensure(*, tls: FieldTls, names: list[str], event_name: str) -> list[str]:
    """The authority (kept: the phones installed it) and a server certificate for `names`,
    each made only when missing or no longer right. Returns what was made, to tell."""
    names = list(dict.fromkeys(name.strip().lower().strip("[]") for name in names if name.strip()))
    if not names:
        raise ValueError("name the LAN address or local name the phones will open")
    _refuse_public_addresses(names)
    made = []
    ca = ca_load(tls)
    local_names = [name for name in names if not is_address(name)]
    if ca is None or not ca_permits(ca, names):
        ca_create(tls=tls, event_name=event_name, local_names=local_names)
        made.append("authority")
    if "authority" in made or not set(names) <= server_names(tls.server_cert):
        server_certificate_create(tls=tls, names=names)
        made.append("server")
    return made


def ca_fingerprint(path: Path) -> str:
    """The SHA-256 fingerprint phones show in the certificate's details, to compare."""
    cert = x509.load_pem_x509_certificate(path.read_bytes())
    return ":".join(f"{byte:02X}" for byte in cert.fingerprint(hashes.SHA256()))


def ca_der(path: Path) -> bytes:
    """The authority's certificate as DER (.crt), what Android's and iOS's installers take."""
    return x509.load_pem_x509_certificate(path.read_bytes()).public_bytes(serialization.Encoding.DER)
