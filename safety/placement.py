"""Where a latitude/longitude falls on the event's site plan (an image), from two or three
reference points the organiser placed: a pixel of the image and its latitude/longitude.

The ground is flattened by a local equirectangular projection around the points (metres
east and north of their centre): over a site of a few kilometres it is off by far less
than a phone's accuracy. Image pixels have y going down, so the image is seen as the
plane (x, -y). Two points fix a similarity (scale, rotation, shift: the plan is taken as
drawn to scale); three fix an affine map (a plan stretched or sheared a little, a photo of
a paper map). Points too close, in a line or mirrored are refused: they cannot place it."""
from __future__ import annotations

import math
from dataclasses import dataclass

from rulesets import RuleRefused

EARTH_RADIUS_M = 6_371_008.8
MIN_PIXELS_APART = 10
MIN_METRES_APART = 5
# Three points "in a line": twice their triangle's area over its longest side squared (an
# equilateral triangle is 0.87; points within a couple of degrees of a line, under 0.03).
MIN_SPREAD = 0.03


@dataclass(frozen=True)
class Point:
    x: float            # pixels from the image's left edge
    y: float            # pixels from its top edge
    latitude: float
    longitude: float


class Placement:
    """The plan's map from the ground to its pixels, and back."""

    def __init__(self, points: list[Point], width: int, height: int):
        if len(points) not in (2, 3):
            raise RuleRefused("plan_points_count")
        self.width, self.height = width, height
        for n, p in enumerate(points, start=1):
            if not (0 <= p.x <= width and 0 <= p.y <= height):
                raise RuleRefused("plan_point_outside", n=str(n), width=str(width), height=str(height))
        self.lat0 = sum(p.latitude for p in points) / len(points)
        self.lon0 = sum(p.longitude for p in points) / len(points)
        self.cos0 = math.cos(math.radians(self.lat0))
        ground = [self._metres(p.latitude, p.longitude) for p in points]
        image = [(p.x, -p.y) for p in points]
        _apart(ground, image)
        if len(points) == 2:
            self.matrix, self.shift = _similarity(ground, image)
        else:
            self.matrix, self.shift = _affine(ground, image)
        (a, b), (c, d) = self.matrix
        self.det = a * d - b * c
        if self.det <= 0:
            raise RuleRefused("plan_points_mirrored")

    def _metres(self, latitude: float, longitude: float) -> tuple[float, float]:
        east = math.radians(longitude - self.lon0) * self.cos0 * EARTH_RADIUS_M
        north = math.radians(latitude - self.lat0) * EARTH_RADIUS_M
        return east, north

    def pixels_per_metre(self) -> float:
        """The plan's scale (the mean of its two axes for an affine placement)."""
        return math.sqrt(self.det)

    def to_pixel(self, latitude: float, longitude: float) -> tuple[float, float]:
        east, north = self._metres(latitude, longitude)
        (a, b), (c, d) = self.matrix
        u = a * east + b * north + self.shift[0]
        v = c * east + d * north + self.shift[1]
        return u, -v

    def to_latlon(self, x: float, y: float) -> tuple[float, float]:
        (a, b), (c, d) = self.matrix
        u, v = x - self.shift[0], -y - self.shift[1]
        east = (d * u - b * v) / self.det
        north = (-c * u + a * v) / self.det
        latitude = self.lat0 + math.degrees(north / EARTH_RADIUS_M)
        longitude = self.lon0 + math.degrees(east / (EARTH_RADIUS_M * self.cos0))
        return latitude, longitude

    def inside(self, x: float, y: float) -> bool:
        return 0 <= x <= self.width and 0 <= y <= self.height


def _apart(ground, image) -> None:
    for i in range(len(ground)):
        for j in range(i + 1, len(ground)):
            if math.dist(image[i], image[j]) < MIN_PIXELS_APART or math.dist(ground[i], ground[j]) < MIN_METRES_APART:
                raise RuleRefused("plan_points_too_close", first=str(i + 1), second=str(j + 1),
                                  pixels=str(MIN_PIXELS_APART), metres=str(MIN_METRES_APART))
    if len(ground) == 3 and min(_spread(ground), _spread(image)) < MIN_SPREAD:
        raise RuleRefused("plan_points_in_line")


def _spread(points) -> float:
    (x1, y1), (x2, y2), (x3, y3) = points
    twice_area = abs((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1))
    longest = max(math.dist(points[0], points[1]), math.dist(points[1], points[2]),
                  math.dist(points[0], points[2]))
    return twice_area / longest ** 2


def _similarity(ground, image):
    """z_image = k * z_ground + s, in complex numbers: scale and rotation in k."""
    g1, g2 = (complex(*g) for g in ground)
    w1, w2 = (complex(*w) for w in image)
    k = (w2 - w1) / (g2 - g1)
    s = w1 - k * g1
    return ((k.real, -k.imag), (k.imag, k.real)), (s.real, s.imag)


def _affine(ground, image):
    """The affine map through three pairs (Cramer's rule on the two 3x3 systems)."""
    rows = [(e, n, 1.0) for e, n in ground]
    det = _det3(rows)
    solved = []
    for axis in (0, 1):
        values = [w[axis] for w in image]
        solved.append([_det3([tuple(values[r] if c == col else rows[r][c] for c in range(3))
                              for r in range(3)]) / det for col in range(3)])
    (a, b, tx), (c, d, ty) = solved
    return ((a, b), (c, d)), (tx, ty)


def _det3(m) -> float:
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
