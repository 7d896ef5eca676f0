"""Rule elements for rulesets that track damage by body location, armour per Conflict and
scores that go up as well as down (Septenario de Normas).

A hit is declared with its location, weapon class and whether it was solid; `take_hit`
works out what it did (absorbed by armour, a useless limb, an incapacitating wound, a
knock-out for wooden weapons) and runs the list the ruleset gives for that result in the
character's current state. The numbers all come from options.
"""
# Rule codes: docs/rules/septenario_es-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from .elements import Work, clear_timer, element, run_elements, set_timer, set_values
from .messages import RuleRefused

LIMBS = ("left_arm", "right_arm", "left_leg", "right_leg")
PIERCING = {"missile", "firearm"}
RANGED = {"missile", "firearm"}
WOODEN = "wooden"


ARMOUR_OPTIONS = {"light": "armour_light", "heavy": "armour_heavy"}


def armour_base(rules, sheet: dict) -> int:
    """The armour points per Conflict of the sheet's armour (none: 0), before losses."""
    option = ARMOUR_OPTIONS.get(sheet.get("armour") or "none")
    return int(rules.option(option)) if option else 0


def _armour_base(work: Work) -> int:
    return armour_base(work.rules, work.sheet)


@element("conflict_touch")
def conflict_touch(work: Work) -> None:
    """A combat event: a Conflict lasts until `conflict_gap_s` after the last one (S1).
    A new Conflict refreshes the armour, minus what it lost for good (§4.4)."""
    until = work.values.get("conflict_until")
    if until is None or work.at >= until:
        set_values(work, armour_left=max(0, _armour_base(work) - int(work.values.get("armour_lost", 0))),
                   conflict_wounded=False, conflict_started=work.at)
    set_values(work, conflict_until=work.at + float(work.rules.option("conflict_gap_s")))


@element("romper", required={"breakers_exclude", "lead_s"})
def romper(work: Work, breakers_exclude, lead_s) -> None:
    """E6 "Romper" [L33]: a wooden-only weapon breaks when struck by a weapon that is not
    of those kinds (S11: wooden, polearm, dagger / knife) whose bearer shouted "Romper"
    one second before the blow. Said how many seconds before, a shout too late is refused;
    not said, the player's declaration stands."""
    excluded = work.resolve(breakers_exclude) or []
    breaker = work.params.get("breaker") or "standard"
    if breaker in excluded:
        choices = work.rules.ruleset.actions["weapon_broken"]["params"]["breaker"]["choices"]
        raise RuleRefused("romper_breaker", excluded=[choices.get(k, {"en": k}) for k in excluded])
    shouted = work.params.get("shouted_s_before")
    lead = float(work.resolve(lead_s))
    if shouted is not None and shouted < lead:
        raise RuleRefused("romper_too_late", lead=f"{lead:g}")


@element("conflict_end")
def conflict_end(work: Work) -> None:
    """A narrator closes the Conflict by hand: the next blow starts a new one."""
    if work.values.get("conflict_until") is not None:
        set_values(work, conflict_until=None)


def _where(work: Work) -> tuple[str, str, int]:
    """Location, weapon class and amount of the declared hit, per the rulebook [L29-32]:
    a blow may land on a zone with no status of its own (`body.zones`: head, neck, the
    hand holding a weapon); a melee blow there does not count when the option excludes
    the zone, a ranged one lands where the zone `counts_as` ("la cabeza se considera
    torso"; a hand is its arm)."""
    location = work.params.get("location") or "unspecified"
    weapon = work.params.get("weapon") or "standard"
    if weapon == "firearm":
        return "torso", weapon, int(work.rules.option("firearm_damage"))
    zone = (work.rules.ruleset.body.get("zones") or {}).get(location)
    if zone is not None:
        if weapon not in RANGED and zone["zone"] in work.rules.option("valid_melee_excludes"):
            raise RuleRefused("hit_not_valid", where=zone["labels"])
        location = zone["counts_as"]
    if location == "unspecified":
        location = "torso"
    return location, weapon, int(work.rules.option("weapon_damage"))


def _absorb(work: Work, weapon: str, amount: int) -> int:
    """What the armour leaves of the damage. Heavy weapons disable a point before the
    rest is absorbed (S8); piercing damage goes through without wearing it (L32)."""
    if weapon in PIERCING or _armour_base(work) == 0:
        return amount
    left = int(work.values.get("armour_left") or 0)
    if weapon == "heavy" and left > 0:
        left -= 1
    absorbed = min(amount, left)
    set_values(work, armour_left=left - absorbed)
    return amount - absorbed


def _wear_armour(work: Work, weapon: str) -> None:
    """The armour loses a point for future Conflicts once per Conflict in which its
    wearer is wounded (S7); piercing damage does not wear it unless the option says so."""
    if _armour_base(work) == 0 or work.values.get("conflict_wounded"):
        return
    if weapon in PIERCING and not work.rules.option("piercing_degrades_armour"):
        return
    set_values(work, conflict_wounded=True,
               armour_lost=int(work.values.get("armour_lost", 0)) + 1)


def _record(work: Work, location: str, weapon: str, amount: int) -> int:
    """Add the damage points and return how many are active now (S21: they last until
    the wounds heal; wooden ones expire with their five minutes, S9). A wooden blow
    stuns its limb for five minutes whatever the option says [L33] (`stunned_until`);
    `wooden_points_expire: false` only keeps the point counting after that."""
    stunned_until = expires = None
    if weapon == WOODEN:
        stunned_until = work.at + float(work.rules.option("wooden_limb_stun_s"))
        if work.rules.option("wooden_points_expire"):
            expires = stunned_until
    points = list(work.values.get("damage") or [])
    points += [{"location": location, "weapon": weapon, "at": work.at, "expires_at": expires,
                "stunned_until": stunned_until} for _ in range(amount)]
    set_values(work, damage=points)
    if stunned_until is not None:
        set_timer(work, "wooden", float(work.rules.option("wooden_limb_stun_s")), keep="min")
    return len(points)


def _stunned_until(point: dict) -> float | None:
    return point.get("stunned_until", point.get("expires_at"))


@element("take_hit", optional={"protected", "limb", "limb_wooden", "incapacitating",
                               "knockout", "record"},
         nested={"protected", "limb", "limb_wooden", "incapacitating", "knockout"})
def take_hit(work: Work, protected=None, limb=None, limb_wooden=None, incapacitating=None,
             knockout=None, record: bool = True) -> None:
    """Resolve a declared hit (spec §4.4) and run the list for its result."""
    if not work.params.get("solid", True):   # "sólo cuentan los golpes sólidos": nothing at all
        work.events.append({"kind": "hit_result", "result": "not_solid", "at": work.at})
        return
    location, weapon, amount = _where(work)
    conflict_touch(work)
    amount = _absorb(work, weapon, amount)
    if amount == 0:
        work.events.append({"kind": "hit_result", "result": "protected", "at": work.at})
        run_elements(work, protected or [])
        return
    _wear_armour(work, weapon)
    if not record:   # H06, H21: more damage on someone already down changes nothing
        work.events.append({"kind": "hit_result", "result": "no_more_damage",
                            "location": location, "weapon": weapon, "at": work.at})
        return
    active = _record(work, location, weapon, amount)
    wooden = weapon == WOODEN
    if location in LIMBS:
        limbs = dict(work.values.get("limbs") or {})
        limbs[location] = "stunned" if wooden else "useless"
        set_values(work, limbs=limbs)
    if location in LIMBS and active == 1:
        result = "limb_wooden" if wooden else "limb"
    else:
        result = "knockout" if wooden else "incapacitating"
        if location == "torso" and not wooden:
            set_values(work, torso_wound=True)
    work.events.append({"kind": "hit_result", "result": result, "location": location,
                        "weapon": weapon, "at": work.at})
    run_elements(work, {"limb": limb, "limb_wooden": limb_wooden,
                        "incapacitating": incapacitating, "knockout": knockout}[result] or [])


@element("expire_wooden", optional={"if_healed"}, nested={"if_healed"})
def expire_wooden(work: Work, if_healed=None) -> None:
    """The five minutes of a wooden blow are over: its points go, stunned limbs work
    again (TS4); `if_healed` runs when no damage is left (H16b)."""
    points = [p for p in work.values.get("damage") or []
              if p.get("expires_at") is None or p["expires_at"] > work.at]
    still_stunned = {p["location"] for p in points
                     if (_stunned_until(p) or work.at) > work.at}
    limbs = {k: v for k, v in (work.values.get("limbs") or {}).items()
             if v != "stunned" or k in still_stunned}
    set_values(work, damage=points, limbs=limbs)
    pending = [p["expires_at"] for p in points if p.get("expires_at") is not None] + \
              [_stunned_until(p) for p in points if (_stunned_until(p) or work.at) > work.at]
    if pending:
        set_timer(work, "wooden", min(pending) - work.at)
    else:
        clear_timer(work, "wooden")
    if not points and not limbs:
        run_elements(work, if_healed or [])


@element("treat_wounds", primary="after", required={"after"})
def treat_wounds(work: Work, after) -> None:
    """Adequate treatment [L42]: each wound not treated yet heals `after` seconds from now
    (`heals_at` on its points); one treated before keeps its own hour. The `heal` timer
    stands at the first of them (with no point at all, the treatment's own hour)."""
    due = work.at + float(work.resolve(after))
    points = [p if p.get("heals_at") is not None else {**p, "heals_at": due}
              for p in work.values.get("damage") or []]
    set_values(work, damage=points)
    set_timer(work, "heal", min([due] + [p["heals_at"] for p in points]) - work.at, keep="min")


@element("heal_treated")
def heal_treated(work: Work) -> None:
    """The hour of a treatment is over [L42]: the wounds it treated heal (their points go,
    their limbs work again) whatever came after; a wound taken since keeps its own course,
    and the `heal` timer waits for the next treated one."""
    points = work.values.get("damage") or []
    healed = [p for p in points if p.get("heals_at") is not None and p["heals_at"] <= work.at]
    left = [p for p in points if p.get("heals_at") is None or p["heals_at"] > work.at]
    hurt = {p["location"] for p in left}
    gone = {p["location"] for p in healed} - hurt
    limbs = {k: v for k, v in (work.values.get("limbs") or {}).items() if k not in gone}
    set_values(work, damage=left, limbs=limbs)
    pending = [p["heals_at"] for p in left if p.get("heals_at") is not None]
    if pending:
        set_timer(work, "heal", min(pending) - work.at)


@element("remember_state", primary="value", required={"value"})
def remember_state(work: Work, value: str) -> None:
    """Keep the current state to come back to it (a knock-out returns there, S10)."""
    set_values(work, **{value: work.status})


@element("return_to", required={"value", "otherwise"})
def return_to(work: Work, value: str, otherwise: str) -> None:
    from .elements import enter
    target = work.values.get(value) or otherwise
    set_values(work, **{value: None})
    enter(work, target if target in work.rules.ruleset.states else otherwise)


def _point(work: Work, point: str) -> tuple[dict, int, int]:
    spec = work.rules.ruleset.points[point]
    base = int(work.sheet.get(spec["base"], 0))
    return spec, base, base - int(work.values.get(spec["loss"], 0))


@element("gain_points", required={"point", "amount"}, optional={"cap"})
def gain_points(work: Work, point: str, amount, cap=None) -> None:
    """Raise a score by `amount`, never above `cap` (the sheet's value without one); a
    score already at or above the cap does not move (Coraje: dawn gives nothing at 3)."""
    spec, base, current = _point(work, point)
    top = int(work.resolve(cap)) if cap is not None else base
    if current >= top:
        return
    new = min(top, current + int(work.resolve(amount)))
    set_values(work, **{spec["loss"]: base - new})


@element("spend_points", required={"point", "amount"}, optional={"then", "otherwise"},
         nested={"then", "otherwise"})
def spend_points(work: Work, point: str, amount, then=None, otherwise=None) -> None:
    """Spend `amount` of a score if there is that much, then run `then`; else `otherwise`."""
    spec, base, current = _point(work, point)
    cost = int(work.resolve(amount))
    if current < cost:
        run_elements(work, otherwise or [])
        return
    set_values(work, **{spec["loss"]: base - (current - cost)})
    run_elements(work, then or [])


@element("count", primary="value", required={"value"}, optional={"by", "reset"})
def count(work: Work, value: str, by=1, reset: bool = False) -> None:
    set_values(work, **{value: 0 if reset else int(work.values.get(value) or 0) + int(work.resolve(by))})


@element("stages", required={"value", "at", "flags"})
def stages(work: Work, value: str, at, flags: list) -> None:
    """Flags raised by a counter reaching each threshold (days without food: hungry,
    weak, starving)."""
    thresholds = work.resolve(at)
    current = int(work.values.get(value) or 0)
    set_values(work, **{flag: current >= int(limit) for flag, limit in zip(flags, thresholds)})
