"""The API docs without Internet, on a phone and a tablet: /api/docs/ loads Swagger UI from
the app's own static files, under the app's Content-Security-Policy, and lists the
operations while every request to another host fails."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("tablet", [False, True], ids=["phone", "tablet"])
def test_the_api_docs_work_with_no_internet(server_url, phone, tablet):
    page = phone("en", tablet=tablet)
    elsewhere, refused = [], []

    def only_this_server(route):
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:                                   # no Internet: nothing answers out there
            elsewhere.append(route.request.url)
            route.abort("internetdisconnected")
    page.context.route("**/*", only_this_server)
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)

    page.goto(f"{server_url}/api/docs/")

    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Live game companion API")
    characters = page.locator(".opblock-summary-path", has_text="/api/events/{event_id}/characters/")
    expect(characters.first).to_be_visible()
    assert page.locator(".opblock").count() > 50           # every operation is listed
    characters.first.click()                               # and opens to its details
    expect(page.locator(".opblock.is-open .parameters-container").first).to_be_visible()
    assert elsewhere == [] and refused == [] and page.errors == []
