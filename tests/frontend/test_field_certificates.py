"""The event's certificate authority (frontend/field_tls.py) and the page that installs it
on phones (/field/ca/): what a phone's verifier accepts and refuses, and what it reads."""
from __future__ import annotations

import datetime
import ipaddress

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError
from django.core.management import CommandError, call_command
from django.test import Client, override_settings

from frontend.field_tls import ca_fingerprint, field_certificates_ensure, field_tls_folder


def _verify(tls, name: str, leaf: x509.Certificate | None = None):
    """The chain checked as a browser does, with the authority as the only trusted root."""
    ca = x509.load_pem_x509_certificate(tls.ca_cert.read_bytes())
    leaf = leaf or x509.load_pem_x509_certificate(tls.server_cert.read_bytes())
    subject = x509.IPAddress(ipaddress.ip_address(name)) if name[0].isdigit() else x509.DNSName(name)
    verifier = PolicyBuilder().store(Store([ca])).build_server_verifier(subject)
    return verifier.verify(leaf, [])


def _signed_by_the_authority(tls, name: str) -> x509.Certificate:
    """What a thief of the authority's key could make: a certificate for any name."""
    ca = x509.load_pem_x509_certificate(tls.ca_cert.read_bytes())
    ca_key = serialization.load_pem_private_key(tls.ca_key.read_bytes(), password=None)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    now = datetime.datetime.now(datetime.UTC)
    return (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
            .issuer_name(ca.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))


def test_the_server_certificate_is_trusted_for_the_lan_address_and_the_local_name(tmp_path):
    tls = field_tls_folder(tmp_path)
    assert field_certificates_ensure(tls=tls, names=["192.168.1.10", "game.lan"], event_name="Le Manoir") == [
        "authority", "server"]
    assert _verify(tls, "192.168.1.10") and _verify(tls, "game.lan")
    with pytest.raises(VerificationError):
        _verify(tls, "192.168.1.11")            # another laptop's address
    assert oct(tls.ca_key.stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize("names, stolen", [(["game.lan"], "accounts.google.com"),
                                           (["192.168.1.10"], "bank.example")])
def test_the_authority_cannot_vouch_for_another_site_even_with_its_key(tmp_path, names, stolen):
    tls = field_tls_folder(tmp_path)
    field_certificates_ensure(tls=tls, names=names, event_name="Le Manoir")
    with pytest.raises(VerificationError):
        _verify(tls, stolen, _signed_by_the_authority(tls, stolen))
    assert _verify(tls, "x.game.lan", _signed_by_the_authority(tls, "x.game.lan")) if names == ["game.lan"] else True


def test_the_authority_is_kept_across_runs_and_a_new_address_gets_a_new_server_certificate(tmp_path):
    """Phones installed the authority once: it is not replaced while it still fits."""
    tls = field_tls_folder(tmp_path)
    field_certificates_ensure(tls=tls, names=["192.168.1.10"], event_name="Le Manoir")
    fingerprint = ca_fingerprint(tls.ca_cert)
    assert field_certificates_ensure(tls=tls, names=["192.168.1.10"], event_name="Le Manoir") == []
    assert field_certificates_ensure(tls=tls, names=["10.0.0.2"], event_name="Le Manoir") == ["server"]
    assert ca_fingerprint(tls.ca_cert) == fingerprint and _verify(tls, "10.0.0.2")
    # A new local name is outside the authority's names: a new authority, to install again.
    assert field_certificates_ensure(tls=tls, names=["jeu.lan"], event_name="Le Manoir") == ["authority", "server"]
    assert ca_fingerprint(tls.ca_cert) != fingerprint


def test_a_server_certificate_near_its_end_is_made_again(tmp_path, time_machine):
    tls = field_tls_folder(tmp_path)
    field_certificates_ensure(tls=tls, names=["192.168.1.10"], event_name="Le Manoir")
    time_machine.move_to(datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=360), tick=False)
    assert field_certificates_ensure(tls=tls, names=["192.168.1.10"], event_name="Le Manoir") == []
    time_machine.move_to(datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=10), tick=False)
    assert field_certificates_ensure(tls=tls, names=["192.168.1.10"], event_name="Le Manoir") == ["server"]


def test_a_public_address_is_refused_with_its_reason(tmp_path, settings):
    settings.VAR_DIR = tmp_path
    with pytest.raises(CommandError, match="203.0.113.7 is a public address"):
        call_command("field_certificates", "203.0.113.7")
    assert not (tmp_path / "field-tls" / "ca.pem").exists()


WORDS = {"fr": ("Installer le certificat de l'événement", "Réglages de confiance des certificats",
                "Installer quand même"),
         "es": ("Instalar el certificado del evento", "Ajustes de confianza de certificados",
                "Instalar de todas formas"),
         "en": ("Install the event's certificate", "Certificate Trust Settings", "Install anyway")}


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_the_page_serves_the_authority_with_each_platforms_steps(tmp_path, lang):
    tls = field_tls_folder(tmp_path)
    field_certificates_ensure(tls=tls, names=["192.168.1.10"], event_name="Le Manoir")
    phone = Client(HTTP_ACCEPT_LANGUAGE=lang)
    with override_settings(FIELD_CA_CERT=tls.ca_cert, ALLOWED_HOSTS=["192.168.1.10"]):
        page = phone.get("/field/ca/", HTTP_HOST="192.168.1.10:8000")
        crt = phone.get("/field/ca.crt", HTTP_HOST="192.168.1.10:8000")
        pem = phone.get("/field/ca.pem", HTTP_HOST="192.168.1.10:8000")
    html = page.content.decode()
    title, ios, android = WORDS[lang]
    assert page.status_code == 200 and title in html.replace("&#x27;", "'")
    assert ios in html and android in html and ca_fingerprint(tls.ca_cert) in html
    assert "<svg" in html          # the QR code of this page, for the next phone
    assert crt["Content-Type"] == "application/x-x509-ca-cert"
    assert x509.load_der_x509_certificate(crt.content) == x509.load_pem_x509_certificate(tls.ca_cert.read_bytes())
    assert pem.content == tls.ca_cert.read_bytes()
    assert 'filename="event-authority.crt"' in crt["Content-Disposition"]


def test_without_an_authority_the_page_says_so(tmp_path):
    with override_settings(FIELD_CA_CERT=tmp_path / "none.pem"):
        page = Client(HTTP_ACCEPT_LANGUAGE="en").get("/field/ca/")
        crt = Client().get("/field/ca.crt")
    assert page.status_code == 404 and "no certificate authority of its own" in page.content.decode()
    assert crt.status_code == 404
