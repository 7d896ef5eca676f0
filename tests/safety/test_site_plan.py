"""The safety board's site plan over HTTP: an organiser uploads the event's map image and
places it with reference points; the board then gives each call's place on the plan.
Anything but a PNG, JPEG or WebP within the limits is refused, and nobody but the event's
organisers reads the image, the plan or a position."""
from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image

from players.models import JournalEntry
from safety.models import SitePlan

from test_site_plan_placement import LAT0, LON0, ground

POSITION = {"latitude": LAT0, "longitude": LON0, "accuracy_m": 12}


def image_bytes(size=(1000, 800), fmt="PNG", noise=False) -> bytes:
    image = Image.new("RGB", size, (40, 120, 60))
    if noise:       # a file that does not compress away
        image = Image.frombytes("RGB", size, random.Random(1).randbytes(size[0] * size[1] * 3))
    out = io.BytesIO()
    image.save(out, format=fmt)
    return out.getvalue()


def upload(api, event, data: bytes, content_type="image/png", key="plan-1", **headers):
    return api.post(f"/api/events/{event.pk}/safety/plan/", data=data, content_type=content_type,
                    HTTP_IDEMPOTENCY_KEY=key, **headers)


# Pixel (100, 700) is (LAT0, LON0); 2 pixels a metre, north up (as in the placement tests).
POINTS = [{"x": 100, "y": 700, "latitude": LAT0, "longitude": LON0},
          dict(zip(("x", "y", "latitude", "longitude"), (700, 200, *ground(300, 250))))]


def place(api, event, points=POINTS, key="points-1", **headers):
    return api.post(f"/api/events/{event.pk}/safety/plan/points/", {"points": points}, format="json",
                    HTTP_IDEMPOTENCY_KEY=key, **headers)


def board(api, event) -> dict:
    response = api.get(f"/api/events/{event.pk}/safety/")
    assert response.status_code == 200, response.content
    return response.json()


def test_an_organiser_uploads_and_places_the_plan_and_the_board_shows_where_a_call_is(
        clock, event, player, player_api, narrator_api):
    png = image_bytes()
    response = upload(narrator_api, event, png)
    assert response.status_code == 201, response.content
    plan = response.json()
    assert (plan["width"], plan["height"], plan["placed"]) == (1000, 800, False)
    image = narrator_api.get(plan["image_url"])
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert image.content == png

    placed = place(narrator_api, event)
    assert placed.status_code == 200, placed.content
    assert placed.json()["placed"] is True and len(placed.json()["points"]) == 2
    assert list(JournalEntry.objects.filter(kind="safety").values_list("what", flat=True)) == [
        "plan_uploaded", "plan_placed"]

    latitude, longitude = ground(150, 50)
    called = player_api.post(f"/api/events/{event.pk}/help/", {
        "kind": "lost", "position": {"latitude": latitude, "longitude": longitude, "accuracy_m": 20}},
        format="json", HTTP_IDEMPOTENCY_KEY="call-1")
    assert called.status_code == 201
    seen = board(narrator_api, event)
    assert seen["plan"]["placed"] and seen["plan"]["image_url"] == plan["image_url"]
    where = seen["calls"][0]["plan_position"]
    assert math.dist((where["x"], where["y"]), (400, 600)) < 2        # 150 m east, 50 m north
    assert where["radius_px"] == pytest.approx(40, abs=0.5) and where["inside"] is True
    # What the caller's phone hears of its own call never carries a position.
    assert "plan_position" not in called.json() and "position" not in called.json()


def test_a_call_off_the_plan_is_said_to_be_outside(clock, event, player, player_api, narrator_api):
    upload(narrator_api, event, image_bytes())
    place(narrator_api, event)
    latitude, longitude = ground(2000, 0)                       # 2 km east: off the image
    player_api.post(f"/api/events/{event.pk}/help/", {
        "kind": "lost", "position": {"latitude": latitude, "longitude": longitude}},
        format="json", HTTP_IDEMPOTENCY_KEY="call-1")
    call, = board(narrator_api, event)["calls"]
    assert call["plan_position"]["inside"] is False and call["plan_position"]["radius_px"] is None
    assert call["position"]["latitude"] == pytest.approx(latitude)


def test_a_call_before_the_plan_is_placed_has_no_plan_position(clock, event, player, player_api, narrator_api):
    upload(narrator_api, event, image_bytes())
    player_api.post(f"/api/events/{event.pk}/help/", {"kind": "lost", "position": POSITION},
                    format="json", HTTP_IDEMPOTENCY_KEY="call-1")
    call, = board(narrator_api, event)["calls"]
    assert call["plan_position"] is None and call["position"]["latitude"] == LAT0


def test_a_jpeg_sent_as_a_multipart_file_is_kept_and_a_new_image_drops_the_points(
        clock, event, narrator_api):
    upload(narrator_api, event, image_bytes())
    place(narrator_api, event)
    jpeg = io.BytesIO(image_bytes((600, 400), "JPEG"))
    jpeg.name = "plan.jpg"
    response = narrator_api.post(f"/api/events/{event.pk}/safety/plan/", {"file": jpeg},
                                 format="multipart", HTTP_IDEMPOTENCY_KEY="plan-2")
    assert response.status_code == 201, response.content
    assert (response.json()["width"], response.json()["points"]) == (600, [])
    assert SitePlan.objects.get().content_type == "image/jpeg"


@pytest.mark.parametrize("data, content_type", [
    (b"name,team\nAlice,Rouges\n", "image/png"),
    (image_bytes()[:400], "image/png"),                       # cut short
    (image_bytes(fmt="GIF"), "image/gif"),
    (b'{"image": "not one"}', "application/json"),
])
def test_what_is_not_an_image_is_refused(clock, event, narrator_api, data, content_type):
    response = upload(narrator_api, event, data, content_type=content_type, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "plan_not_image"
    assert "PNG, JPEG ou WebP" in response.json()["detail"]
    assert not SitePlan.objects.exists()


def test_a_file_over_the_limit_is_refused_with_the_limit(clock, event, narrator_api, settings):
    settings.SITE_PLAN_MAX_BODY = 64 * 1024
    response = upload(narrator_api, event, image_bytes((300, 300), noise=True))
    assert response.status_code == 413, response.content
    assert response.json()["error"] == "body_too_large" and "64 KiB" in response.json()["detail"]
    settings.SITE_PLAN_MAX_SIDE = 500
    response = upload(narrator_api, event, image_bytes((600, 100)), key="plan-2", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 413, response.content
    assert response.json()["error"] == "plan_too_large"
    assert "500 píxeles" in response.json()["detail"]
    assert not SitePlan.objects.exists()


def test_points_that_cannot_place_the_plan_are_refused_and_nothing_changes(clock, event, narrator_api):
    assert place(narrator_api, event, key="points-0").json()["error"] == "plan_missing"
    upload(narrator_api, event, image_bytes())
    place(narrator_api, event)
    close = [POINTS[0], {**POINTS[1], "x": 105, "y": 703}]
    response = place(narrator_api, event, close, key="points-2", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    assert response.json()["error"] == "plan_points_too_close"
    assert "trop proches" in response.json()["detail"]
    assert place(narrator_api, event, POINTS[:1], key="points-3").json()["error"] == "plan_points_count"
    assert SitePlan.objects.get().points[1]["x"] == 700


def test_a_player_reads_neither_the_plan_nor_its_image_and_cannot_change_it(
        clock, event, player, player_api, narrator_api):
    plan = upload(narrator_api, event, image_bytes()).json()
    place(narrator_api, event)
    player_api.post(f"/api/events/{event.pk}/help/", {"kind": "lost", "position": POSITION},
                    format="json", HTTP_IDEMPOTENCY_KEY="call-1")
    assert player_api.get(plan["image_url"]).status_code == 404
    assert player_api.get(f"/api/events/{event.pk}/safety/").status_code == 404
    assert upload(player_api, event, image_bytes((10, 10)), key="p-1").status_code == 404
    assert place(player_api, event, key="p-2").status_code == 404
    own = player_api.get(f"/api/events/{event.pk}/help/").json()
    assert own["organiser"] is False and "plan_position" not in own["calls"][0]
    assert SitePlan.objects.get().width == 1000
