"""What the Python code relies on in a ruleset, declared in one place.

The rule elements read the data itself (`$option`, `when_option`, `states_option`...).
Everything else a service reads from a ruleset belongs to a feature below: the options
it reads (always through `Rules.option`), and the states, actions and values it names.
A ruleset has a feature when the feature's section is in its file, or when the file
names the feature under `features:`. At load (rulesets/checks.py), every option a
ruleset declares must be read by its data or by one of its features, and every key its
features rely on must be declared: a promise the code does not keep fails there, not
in front of an organiser.

A new feature declares itself here, with the modules that read it (`used_by`), before
its code reads a key; tests/rules/test_contracts.py keeps `used_by` honest.
"""
# Rule codes: docs/rules/gn_fr-coverage.md,
#   docs/rules/septenario_es-coverage.md,
#   docs/rules/airsoft_rats-coverage.md;
#   their families: docs/glossary.md.
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Feature:
    used_by: tuple[str, ...]      # the modules that read the keys below
    section: str | None = None    # present when this section (or "interactions.<name>") is
    options: tuple[str, ...] = ()
    states: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    values: tuple[str, ...] = ()


FEATURES: dict[str, Feature] = {
    # A narrator states a health level (an effect's set_state, a referee's correction).
    "stated_state": Feature(used_by=("effects/services/effects.py",), actions=("set_state",)),
    # An effect lasts one Conflict (septenario S1): two minutes after the last fight, its
    # end following the Conflict (`effect_conflict_mode: sliding`) or fixed when pushed.
    "conflicts": Feature(used_by=("effects/selectors/effects.py", "rulesets/body.py", "health/body.py",
                                  "effects/services/conflicts.py"),
                         section="effect_default", options=("conflict_gap_s", "effect_conflict_mode"),
                         values=("conflict_until",)),
    # Hits by body location, armour per Conflict, wooden weapons (septenario §4).
    "body_hits": Feature(used_by=("rulesets/body.py", "health/body.py", "rulesets/sheet.py"), section="body",
                         options=("conflict_gap_s", "firearm_damage", "weapon_damage",
                                  "valid_melee_excludes", "piercing_degrades_armour",
                                  "wooden_limb_stun_s", "wooden_points_expire",
                                  "armour_light", "armour_heavy"),
                         values=("conflict_until",)),
    # A cap that does not go off (septenario E4).
    "misfires": Feature(used_by=("combat/services/firearms.py",),
                        options=("misfire_keeps_bullet",)),
    # A teammate heals or extracts a downed player (airsoft B1-B6).
    "heals": Feature(used_by=("combat/services/heals.py", "combat/selectors.py"),
                     section="interactions.heal",
                     options=("medics", "hit_count_s", "healing_medic_can_shoot",
                              "extraction_medic_can_shoot")),
    # The chrony station's replica limits (airsoft rulebook §4).
    "chrony": Feature(used_by=("club/selectors.py",),
                      options=("max_power_joule", "calibre_mm", "full_auto")),
    # The club's sanctions register: light and grave faults, repeat cheating (B13).
    "club_sanctions": Feature(used_by=("club/services/sanctions.py",), options=("cheating_first_offence",),
                              actions=("sanction_out", "removed")),
    # A day of successive games: each sends everyone to spawn, phones show its scenario.
    "games": Feature(used_by=("schedule/services/games.py", "schedule/selectors.py"), actions=("game_started",),
                     options=("medic_mode", "medics", "respawn_policy",
                              "ammo_limit_per_replica", "max_heals_per_player")),
    # Dawn and day end, and the wounds a narrator decides on (septenario H09).
    "days": Feature(used_by=("schedule/services/days.py",), section="days", values=("awaiting_narrator",)),
    # A ruleset that lets the organiser choose whether an Emergencia pauses everyone
    # (without it, it always does).
    "emergency_choice": Feature(used_by=("schedule/services/clock.py",),
                                options=("emergencia_pauses_all",)),
    # A declaration that waited in a phone's outbox counts from the tap, at most this far
    # back (health/declared_at.py).
    "late_declarations": Feature(used_by=("health/declared_at.py",),
                                 options=("late_declaration_max_s",)),
    # Hors-jeu (gn_fr L58): the other characters ignore whoever has this value set (no
    # fight, no treatment, given or received); the organisers do not.
    "out_of_game": Feature(used_by=("health/checks.py",), values=("out_of_game",)),
    # Combat points on the sheet, within the ruleset's bounds (gn_fr).
    "combat_base": Feature(used_by=("rulesets/sheet.py",),
                           options=("combat_base_min", "combat_base_max")),
    # Psychological traits narrators set by hand (gn_fr A16).
    "psych_traits": Feature(used_by=("players/services.py",), options=("psych_traits",)),
    # The zombie race: courses, scoring, lives, zombies and the race day (race/).
    "race": Feature(used_by=("race/options.py",),
                    options=("duration_enfant_s", "duration_famille_s", "duration_sportif_s",
                             "points_per_checkpoint", "unfound_checkpoint_penalty",
                             "late_minute_penalty", "life_lost_penalty",
                             "out_of_zone_penalty_without_life", "late_minute_rounding",
                             "count_punches_before_start", "count_punches_after_limit",
                             "count_punches_after_finish", "score_floor", "tie_break",
                             "lives_initial", "out_of_zone_costs_life",
                             "forbidden_path_costs_life", "zombie_checkpoint_exclusion_m",
                             "zombie_fast_running_allowed", "zombie_contact_allowed",
                             "zombie_on_open_roads_allowed", "start_mode", "max_late_minutes",
                             "overdue_alert_after_s", "deposit_eur", "dq_deposit_returned",
                             "infraction_penalty", "time_zone")),
}


def features_of(data: dict) -> set[str]:
    """The features a ruleset file has: its sections, and those it names."""
    found = set(data.get("features") or [])
    for name, feature in FEATURES.items():
        if feature.section is None:
            continue
        head, _, inner = feature.section.partition(".")
        present = data.get(head)
        if inner:
            present = (present or {}).get(inner) if isinstance(present, dict) else None
        if present:
            found.add(name)
    return found
