"""Writes of the event's site plan: its image (uploaded by an organiser, checked with
Pillow) and its placement (two or three reference points, safety/placement.py). Both are
journalled without the image; open safety boards read the plan again."""
from __future__ import annotations

import hashlib
import io
import math
import warnings

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from PIL import Image, ImageOps, UnidentifiedImageError

from players.models import Event
from players.services import journal_write
from rulesets import RuleRefused

from . import publish
from .models import SitePlan
from .placement import Placement, Point

FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
JOURNAL = "safety"
EXIF_ORIENTATION = 0x0112


def _too_large() -> RuleRefused:
    return RuleRefused("plan_too_large", limit_mib=str(settings.SITE_PLAN_MAX_BODY // (1024 * 1024)),
                       max_side=str(settings.SITE_PLAN_MAX_SIDE))


def _opened(data: bytes) -> Image.Image:
    """The image, refused unless it is a whole PNG, JPEG or WebP within the bounds."""
    if len(data) > settings.SITE_PLAN_MAX_BODY:
        raise _too_large()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            if image.format not in FORMATS:
                raise RuleRefused("plan_not_image")
            if max(image.size) > settings.SITE_PLAN_MAX_SIDE:
                raise _too_large()
            image.load()          # a truncated or corrupt file fails here, not on a phone
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise RuleRefused("plan_not_image") from None
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise _too_large() from None
    return image


def _upright(image: Image.Image, data: bytes) -> tuple[bytes, int, int]:
    """A phone photo turned by its EXIF orientation is stored turned for real: browsers
    show it upright, and the reference points are pixels of what they show."""
    if image.getexif().get(EXIF_ORIENTATION, 1) == 1:
        return data, image.width, image.height
    turned = ImageOps.exif_transpose(image)
    out = io.BytesIO()
    turned.save(out, format=image.format)
    return out.getvalue(), turned.width, turned.height


@transaction.atomic
def plan_upload(*, event: Event, by, data: bytes) -> SitePlan:
    """The event's plan image, replacing the last one. A new image keeps no reference
    point: pixels of the old picture mean nothing on the new one."""
    image = _opened(data)
    kind = FORMATS[image.format]
    data, width, height = _upright(image, data)
    now = timezone.now()
    plan, _ = SitePlan.objects.update_or_create(event=event, defaults={
        "image": data, "content_type": kind, "digest": hashlib.sha256(data).hexdigest(),
        "width": width, "height": height, "points": [], "uploaded_at": now, "placed_at": None})
    journal_write(event=event, kind=JOURNAL, what="plan_uploaded", at=now, by=by,
                  detail={"width": width, "height": height, "bytes": len(data)})
    publish.board_changed_on_commit(event.pk)
    return plan


def _point(given: dict) -> Point:
    values = [given.get(k) for k in ("x", "y", "latitude", "longitude")]
    if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in values):
        raise RuleRefused("bad_input", detail="each point is {x, y, latitude, longitude}, numbers")
    x, y, latitude, longitude = (float(v) for v in values)
    if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
        raise RuleRefused("bad_input", detail="latitude is from -90 to 90, longitude from -180 to 180")
    return Point(x=x, y=y, latitude=latitude, longitude=longitude)


@transaction.atomic
def plan_place(*, event: Event, by, points: list[dict]) -> SitePlan:
    """Place the plan with two or three reference points (all of them, replacing the last
    ones). Points that cannot place it are refused with why, and nothing changes."""
    plan = SitePlan.objects.select_for_update().filter(event=event).first()
    if plan is None:
        raise RuleRefused("plan_missing")
    found = [_point(p) for p in points]
    Placement(found, plan.width, plan.height)       # refuses what cannot place the plan
    now = timezone.now()
    plan.points = [{"x": p.x, "y": p.y, "latitude": p.latitude, "longitude": p.longitude} for p in found]
    plan.placed_at = now
    plan.save(update_fields=["points", "placed_at"])
    journal_write(event=event, kind=JOURNAL, what="plan_placed", at=now, by=by,
                  detail={"points": len(found)})
    publish.board_changed_on_commit(event.pk)
    return plan
