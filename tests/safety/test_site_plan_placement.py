"""Placing the site plan: two reference points make a similarity, three an affine map; a
position goes to the plan's pixel and back within a metre; points that cannot place the
plan are refused with why. Distances are checked with the haversine formula, not with the
projection under test."""
from __future__ import annotations

import math

import pytest

from rulesets import RuleRefused
from safety.placement import EARTH_RADIUS_M, Placement, Point

LAT0, LON0 = 45.7612, 4.8321
M_PER_DEG_LAT = math.pi * EARTH_RADIUS_M / 180


def ground(east_m: float, north_m: float) -> tuple[float, float]:
    """The point this many metres east and north of (LAT0, LON0)."""
    return (LAT0 + north_m / M_PER_DEG_LAT,
            LON0 + east_m / (M_PER_DEG_LAT * math.cos(math.radians(LAT0))))


def metres_between(a: tuple[float, float], b: tuple[float, float]) -> float:
    (lat1, lon1), (lat2, lon2) = (tuple(map(math.radians, p)) for p in (a, b))
    h = (math.sin((lat2 - lat1) / 2) ** 2
         + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2)
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(h))


def point(x, y, east, north) -> Point:
    return Point(x, y, *ground(east, north))


# A plan of 1000 x 800 pixels, north up, 2 pixels a metre; its pixel (100, 700) is at (LAT0, LON0).
def true_pixel(east, north, sx=2.0, sy=2.0):
    return 100 + sx * east, 700 - sy * north


def test_two_points_place_a_plan_drawn_to_scale():
    placement = Placement([point(*true_pixel(0, 0), 0, 0), point(*true_pixel(300, 250), 300, 250)], 1000, 800)
    assert placement.pixels_per_metre() == pytest.approx(2, rel=1e-3)
    for east, north in ((150, 0), (0, 200), (420, 330), (-40, 20)):
        x, y = placement.to_pixel(*ground(east, north))
        expected = true_pixel(east, north)
        assert math.dist((x, y), expected) < 2, (east, north)       # under a metre
        back = placement.to_latlon(x, y)
        assert metres_between(back, ground(east, north)) < 1


def test_two_points_follow_a_plan_turned_on_its_page():
    # North points to the image's right: east is down the page.
    def turned(east, north):
        return 100 + 2 * north, 100 + 2 * east
    placement = Placement([point(*turned(0, 0), 0, 0), point(*turned(200, 300), 200, 300)], 1000, 800)
    x, y = placement.to_pixel(*ground(100, 50))
    assert math.dist((x, y), turned(100, 50)) < 2


def test_three_points_place_a_stretched_plan_that_two_cannot():
    # A photo of a paper plan: 2 pixels a metre across, 1 up the page.
    def stretched(east, north):
        return true_pixel(east, north, sx=2.0, sy=1.0)
    points = [point(*stretched(0, 0), 0, 0), point(*stretched(400, 0), 400, 0),
              point(*stretched(100, 500), 100, 500)]
    placement = Placement(points, 1000, 800)
    for east, north in ((200, 200), (350, 600), (10, 10)):
        x, y = placement.to_pixel(*ground(east, north))
        assert abs(x - stretched(east, north)[0]) < 2 and abs(y - stretched(east, north)[1]) < 1
        assert metres_between(placement.to_latlon(x, y), ground(east, north)) < 1
    two = Placement(points[:2], 1000, 800)
    x, y = two.to_pixel(*ground(350, 600))
    assert math.dist((x, y), stretched(350, 600)) > 100


def test_inside_says_whether_a_position_falls_on_the_image():
    placement = Placement([point(*true_pixel(0, 0), 0, 0), point(*true_pixel(300, 250), 300, 250)], 1000, 800)
    assert placement.inside(*placement.to_pixel(*ground(200, 100)))
    assert not placement.inside(*placement.to_pixel(*ground(600, 100)))     # 1300 px: off the right
    assert not placement.inside(*placement.to_pixel(*ground(0, -100)))      # below the bottom


@pytest.mark.parametrize("points, code", [
    ([point(100, 700, 0, 0)], "plan_points_count"),
    ([point(100, 700, 0, 0), point(200, 700, 50, 0), point(300, 700, 100, 0), point(1, 1, 1, 1)],
     "plan_points_count"),
    ([point(100, 700, 0, 0), point(104, 703, 300, 250)], "plan_points_too_close"),     # 5 px
    ([point(100, 700, 0, 0), point(700, 200, 2, 2)], "plan_points_too_close"),         # 3 m
    ([point(100, 700, 0, 0), point(300, 500, 100, 100), point(500, 301, 200, 200)], "plan_points_in_line"),
    ([point(100, 700, 0, 0), point(300, 700, 100, 0), point(200, 200, 50, 1)], "plan_points_in_line"),
    ([point(100, 700, 0, 0), point(700, 700, 300, 0), point(100, 100, 0, -300)], "plan_points_mirrored"),
    ([point(100, 700, 0, 0), point(1200, 300, 300, 250)], "plan_point_outside"),
    ([point(-1, 700, 0, 0), point(600, 300, 300, 250)], "plan_point_outside"),
])
def test_points_that_cannot_place_the_plan_are_refused(points, code):
    with pytest.raises(RuleRefused) as refused:
        Placement(points, 1000, 800)
    assert refused.value.code == code
