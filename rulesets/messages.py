"""Refusals as the rules core knows them: a code and parameters, no text.

A refusal is worded only when it reaches a person (common/i18n.py, from the server's
catalogue in locale/), so the same refusal reads in French on one phone and in Spanish on
another. The rules' own labels ({fr, es, en} in the YAML) are data, read with `pick`.
"""
from __future__ import annotations

LANGUAGES = ("fr", "es", "en")
DEFAULT_LANGUAGE = "en"

# Every refusal the app can word; a ruleset may only name these (rulesets/loader.py), and
# each has its text in common/messages.py (tests/test_catalogue.py).
REFUSAL_CODES = frozenset((
    "not_in_state", "missing_skill", "unknown_action", "calm_place_required", "no_kit",
    "not_now", "not_enough_points", "not_applicable", "actor_cannot", "firearm_misfire",
    "hit_not_valid", "not_in_this_game", "not_yourself", "cannot_fight_now",
    "already_fighting", "duel_armed_defender", "not_your_turn", "fight_closed",
    "interaction_off", "not_teammate", "medic_busy", "patient_taken", "heal_not_taken",
    "extraction_needs_request", "challenge_lapsed", "union_outnumbered",
    "union_weapon_drawn", "no_union_against", "character_out_of_game", "not_searchable",
    "firearm_not_held", "firearm_empty", "firearm_loaded_already", "firearm_out_of_range",
    "firearm_beyond_range", "firearm_condition_miss", "not_ready",
    "game_paused", "game_not_paused", "game_already_paused", "not_declarable",
    "treatment_closed", "unknown_code", "bad_input", "idempotency_conflict",
    "idempotency_in_progress", "effect_already_removed",
    "forbidden", "invalid_login", "logged_out", "character_without_login",
    "lost_phone_staff_account", "bad_option", "too_many_logins", "body_too_large",
    "malformed_json", "nul_character", "json_too_deep", "unknown_item", "item_used",
    "lone_surrogate", "number_too_large",
    "undo_not_possible", "undo_not_yours", "undo_too_late", "undo_superseded",
    "item_not_usable", "item_self_only", "lock_already", "requests_waiting",
    "request_answered", "item_carried_already", "item_not_carried",
    "item_not_carriable", "no_days", "day_already_scheduled", "day_done", "day_running",
    "unknown_member", "member_exists", "member_excluded", "member_banned",
    "member_not_linked", "event_in_club", "sanction_needs_organiser", "revoke_needs_organiser",
    "exclusion_end_required", "exclusion_too_long", "exclusion_in_past",
    "end_not_applicable", "sanction_revoked_already", "sanction_escalated",
    "cheating_first_grave", "chrony_speed_or_energy", "chrony_too_powerful",
    "chrony_calibre", "chrony_full_auto", "chrony_cheat", "replica_not_checked",
    "replica_failed", "game_option_unknown", "game_option_invalid",
    "game_already_started", "game_in_progress", "game_not_started",
    "game_already_ended", "race_gear_missing", "race_already_started",
    "race_not_racing", "race_no_life_left", "race_loss_already_voided",
    "race_finger_taken", "race_not_ended", "race_already_returned", "race_deposit_kept",
    "race_disqualified", "race_not_team", "race_checkpoint_exists",
    "race_course_exists", "race_already_ended", "romper_breaker", "romper_too_late",
    "tap_in_future", "tap_while_paused", "tap_before_recorded",
    "erase_not_confirmed", "retention_days_invalid", "personal_data_purged",
    "sheet_number", "sheet_choice", "database_unavailable",
    "help_taken", "help_closed", "out_for_real", "tracking_off", "tracking_not_racing",
    "unknown_balise", "balise_number_typed",
    "plan_not_image", "plan_too_large", "plan_missing", "plan_points_count", "plan_point_outside",
    "plan_points_too_close", "plan_points_in_line", "plan_points_mirrored",
))


def pick(label, lang: str) -> str:
    """A {fr, es, en} label in one language (English, then anything, as a fallback)."""
    if isinstance(label, dict):
        return label.get(lang) or label.get(DEFAULT_LANGUAGE) or next(iter(label.values()), "")
    return str(label)


class RuleRefused(Exception):
    """An action the rules (or the game's situation) do not allow: a code and the
    parameters its text needs (common.i18n.refusal_text words it)."""

    def __init__(self, code: str, /, **params):
        super().__init__(code)
        self.code = code
        self.params = params
