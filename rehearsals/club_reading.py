"""The club's register in a rehearsal file (docs/rehearse.md, "The airsoft register"):
the `members:` and `referees:` of the header, the steps at the desk (a check-in, a
sanction, a revocation) and the `members` of an `expect:`, checked before anything is
played. club_playing.ClubSteps plays them.

A member is also a character key: its character exists from its first check-in on.
"""
from __future__ import annotations

from club.models import ChronyCheck, Replica, Sanction

from rehearsals.script import (CLOCK, ITEMS, MEMBERS, NARRATOR, REPLICAS, SAFETY,
                               checked_mapping, is_number, parse_time)

MEMBER_KEYS = {"name", "licence", "team"}
MEMBER_CHECKS = {"sanctions", "checked_in", "barred", "repeats"}
SANCTION_KEYS = {"member", "kind", "reason", "cheating", "ends_after", "category"}
KINDS = tuple(kind for kind, _ in Sanction.KINDS)
CATEGORIES = tuple(category for category, _ in Sanction.CATEGORIES)
RESERVED = (NARRATOR, CLOCK, SAFETY, ITEMS, MEMBERS, REPLICAS)
REPLICA_KEYS = {"member", "name", "type", "calibre", "full_auto_capable"}
REPLICA_TYPES = tuple(t for t, _ in Replica.TYPES)
CHRONY_KEYS = {"replica", "kind", "energy", "speed", "bb_weight", "calibre", "full_auto_used"}
CHRONY_CHECKS = ("check_in", "recheck")
REPLICA_CHECKS = {"passed", "checks"}


def read_members(data: dict, ruleset, characters: dict) -> tuple[dict, dict]:
    """(members, referees). Members join `characters` (as checked-in characters to be)."""
    members, referees = {}, {}
    if ("members" in data or "referees" in data) and not ruleset.has("club_sanctions"):
        raise ValueError(f"members: the ruleset {ruleset.key} has no club register")
    for key, spec in checked_mapping(data.get("members"), "members").items():
        where = f"members.{key}"
        _key(key, where, characters)
        spec = checked_mapping(spec, where, MEMBER_KEYS)
        licence = spec.get("licence", f"R-{key}")
        if not isinstance(licence, str) or not licence.strip():
            raise ValueError(f"{where}.licence: the licence number, as a text")
        members[key] = {"name": str(spec.get("name") or key), "licence": licence,
                        "team": spec.get("team")}
        characters[key] = {"name": members[key]["name"], "team": spec.get("team"), "sheet": {},
                           "kits": {}, "member": True}
    for key, spec in checked_mapping(data.get("referees"), "referees").items():
        _key(key, f"referees.{key}", characters)
        if key in members:
            raise ValueError(f"referees.{key}: already a member's key")
        referees[key] = {"name": str(checked_mapping(spec, f"referees.{key}", {"name"})
                                     .get("name") or key)}
    return members, referees


def _key(key, where: str, characters: dict) -> None:
    if not isinstance(key, str) or key in RESERVED or key in characters:
        raise ValueError(f"{where}: '{key}' cannot be a key (reserved, or already a character's)")


def read_club_step(reader, kind: str, raw: dict) -> tuple[str, dict]:
    by = raw.get("by", NARRATOR)
    if by != NARRATOR and by not in reader.referees:
        raise ValueError(f"{kind} is done by an organiser (by: narrator) or a referee of "
                         f"`referees:`, not by {by!r}")
    if "on" in raw:
        raise ValueError(f"{kind} takes no 'on': name the member inside it")
    if kind == "chrony":
        return read_chrony(reader, raw, by)
    value = raw[kind]
    if kind == "check_in":
        return by, {"member": _member(reader, value, "check_in")}
    spec = {"member": value} if isinstance(value, str) else \
        dict(checked_mapping(value, kind, SANCTION_KEYS if kind == "sanction" else {"member", "reason"}))
    member = _member(reader, spec.get("member"), f"{kind}.member")
    reason = spec.get("reason", "rehearsal")
    if not isinstance(reason, str) or not reason.strip():
        raise ValueError(f"{kind}.reason: a text")
    if kind == "revoke":
        return by, {"member": member, "reason": reason}
    if spec.get("kind") not in KINDS:
        raise ValueError(f"sanction.kind: one of {', '.join(KINDS)}")
    if not isinstance(spec.get("cheating", False), bool):
        raise ValueError("sanction.cheating: true or false")
    if spec.get("category", "") not in ("", *CATEGORIES):
        raise ValueError(f"sanction.category: one of {', '.join(CATEGORIES)}")
    ends = spec.get("ends_after")
    return by, {"member": member, "kind": spec["kind"], "reason": reason,
                "cheating": spec.get("cheating", False), "category": spec.get("category", ""),
                "ends_after_s": parse_time(ends, "sanction.ends_after") if ends else None}


def _member(reader, key, where: str) -> str:
    if key not in reader.members:
        raise ValueError(f"{where}: unknown member {key!r} "
                         f"(members: {', '.join(reader.members) or 'none'})")
    return key


def read_member_checks(reader, raw) -> None:
    """`members: {ben: {sanctions: [warning, removed_from_game], checked_in: true}}`."""
    for key, checks in checked_mapping(raw, "expect.members").items():
        where = f"expect.members.{key}"
        _member(reader, key, where)
        checks = checked_mapping(checks, where, MEMBER_CHECKS)
        kinds = checks.get("sanctions", [])
        if not isinstance(kinds, list) or any(k not in KINDS for k in kinds):
            raise ValueError(f"{where}.sanctions: a list among {', '.join(KINDS)}")
        for flag in ("checked_in", "barred"):
            if flag in checks and not isinstance(checks[flag], bool):
                raise ValueError(f"{where}.{flag}: true or false")
        if "repeats" in checks and (not isinstance(checks["repeats"], int)
                                    or isinstance(checks["repeats"], bool) or checks["repeats"] < 0):
            raise ValueError(f"{where}.repeats: a count (sanctions repeating an earlier fault "
                             "of the same category)")


# -- the chrony ------------------------------------------------------------------------
def read_replicas(data: dict, ruleset, members: dict) -> dict:
    """`replicas: {m4: {member: ben, type: rifle, calibre: 6}}`, registered at the chrony
    station before the first step."""
    if "replicas" in data and not ruleset.has("chrony"):
        raise ValueError(f"replicas: the ruleset {ruleset.key} has no chrony station")
    out = {}
    for key, spec in checked_mapping(data.get("replicas"), "replicas").items():
        where = f"replicas.{key}"
        if not isinstance(key, str) or key in RESERVED or key in members:
            raise ValueError(f"{where}: '{key}' cannot be a replica's key")
        spec = checked_mapping(spec, where, REPLICA_KEYS)
        if spec.get("member") not in members:
            raise ValueError(f"{where}.member: the owner, a key of `members:`")
        if spec.get("type", "rifle") not in REPLICA_TYPES:
            raise ValueError(f"{where}.type: one of {', '.join(REPLICA_TYPES)}")
        calibre = spec.get("calibre", 6)
        if not is_number(calibre) or calibre <= 0:
            raise ValueError(f"{where}.calibre: the calibre in mm (6)")
        if not isinstance(spec.get("full_auto_capable", False), bool):
            raise ValueError(f"{where}.full_auto_capable: true or false")
        out[key] = {"member": spec["member"], "name": str(spec.get("name") or key),
                    "type": spec.get("type", "rifle"), "calibre": float(calibre),
                    "full_auto_capable": spec.get("full_auto_capable", False)}
    return out


def read_chrony(reader, raw: dict, by: str) -> tuple[str, dict]:
    """`chrony: {replica: m4, kind: recheck, energy: 1.21}` (or `speed` in m/s with the
    `bb_weight` in g, 0.20 unless given)."""
    spec = checked_mapping(raw["chrony"], "chrony", CHRONY_KEYS)
    if spec.get("replica") not in reader.replicas:
        raise ValueError(f"chrony.replica: unknown replica {spec.get('replica')!r} "
                         f"(replicas: {', '.join(reader.replicas) or 'none'})")
    if spec.get("kind", "check_in") not in CHRONY_CHECKS:
        raise ValueError(f"chrony.kind: one of {', '.join(CHRONY_CHECKS)}")
    if ("energy" in spec) == ("speed" in spec):
        raise ValueError("chrony: give the energy (joules) or the speed (m/s), not both")
    for field in ("energy", "speed", "bb_weight", "calibre"):
        if field in spec and (not is_number(spec[field]) or spec[field] <= 0):
            raise ValueError(f"chrony.{field}: a number above 0")
    if not isinstance(spec.get("full_auto_used", False), bool):
        raise ValueError("chrony.full_auto_used: true or false")
    return by, {"replica": spec["replica"], "kind": spec.get("kind", ChronyCheck.CHECK_IN),
                "energy_j": spec.get("energy"), "speed_mps": spec.get("speed"),
                "bb_weight_g": spec.get("bb_weight", 0.20), "calibre_mm": spec.get("calibre"),
                "full_auto_used": spec.get("full_auto_used", False)}


def read_replica_checks(reader, raw) -> None:
    """`replicas: {m4: {passed: false, checks: 2}}`: its latest verdict, how many checks."""
    for key, checks in checked_mapping(raw, "expect.replicas").items():
        where = f"expect.replicas.{key}"
        if key not in reader.replicas:
            raise ValueError(f"{where}: unknown replica {key!r}")
        checks = checked_mapping(checks, where, REPLICA_CHECKS)
        if checks.get("passed") is not None and not isinstance(checks["passed"], bool):
            raise ValueError(f"{where}.passed: true, false, or null (never checked)")
        if "checks" in checks and (not isinstance(checks["checks"], int)
                                   or isinstance(checks["checks"], bool) or checks["checks"] < 0):
            raise ValueError(f"{where}.checks: a count")
