"""The refusals the app itself words (RuleRefused codes), as English msgids of the
server's catalogue (locale/<lang>/LC_MESSAGES/django.po); common/i18n.py renders them.

Every code of rulesets.messages.REFUSAL_CODES has an entry here (tests/test_catalogue.py).
"""
# Rule codes: docs/rules/airsoft_rats-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

from django.utils.translation import gettext_noop

MESSAGES = {
    "not_in_state": gettext_noop("{action} applies to {allowed}; this character is {state}."),
    "missing_skill": gettext_noop("{action} needs the skill {skill} on your character sheet."),
    "unknown_action": gettext_noop("Unknown action '{action}'. Known actions: {known}."),
    "calm_place_required": gettext_noop(
        "{action} at this level needs the patient comfortably installed in a calm place."),
    "no_kit": gettext_noop("You have no {kit} left; ask the organisers for one."),
    "not_now": gettext_noop("{action} does not apply right now."),
    "not_enough_points": gettext_noop("{action} needs more {point} than you have ({have})."),
    "not_applicable": gettext_noop(
        "{action} applies to {allowed}; it cannot be given to this character now."),
    "actor_cannot": gettext_noop("{action}: you cannot do that while {state}."),
    "firearm_misfire": gettext_noop("Misfire: the cap did not go off; the shot does nothing."),
    "hit_not_valid": gettext_noop(
        "A melee blow to {where} does not count: nothing changes. Only a ranged hit "
        "counts there."),
    "romper_breaker": gettext_noop(
        "Romper: a wooden weapon breaks only under a weapon that is not one of these: {excluded}."),
    "romper_too_late": gettext_noop(
        "Romper: the breaker must shout \"Romper\" at least {lead} s before the blow."),
    # Fights between characters (combat/services).
    "not_in_this_game": gettext_noop("There is no {what} in this game's rules."),
    "not_yourself": gettext_noop("{what}: choose someone other than yourself."),
    "cannot_fight_now": gettext_noop(
        "{what} needs everyone in it able to fight: {name} cannot take part now."),
    "already_fighting": gettext_noop("{name} is already in a {what}; finish it first."),
    "duel_armed_defender": gettext_noop(
        "No bare-hand fight against someone holding a {weapon} weapon: the duel does not "
        "happen."),
    "not_your_turn": gettext_noop("Only {name} can answer this."),
    "fight_closed": gettext_noop("This {what} is over ({status})."),
    # The airsoft medic (combat/services/heals.py).
    "interaction_off": gettext_noop("{what} is off in this game (the scenario's option {option})."),
    "not_teammate": gettext_noop(
        "{what}: {name} is not in your team; only a teammate can do this."),
    "medic_busy": gettext_noop("You are already looking after {name} ({what}); stop that first."),
    "patient_taken": gettext_noop(
        "{name} is already in another medic's hands ({what}): one medic at a time."),
    "heal_not_taken": gettext_noop(
        "{what} no longer works on {name}: the scenario limits how often a player may be "
        "healed."),
    "extraction_needs_request": gettext_noop(
        "{what}: {name} has not asked for a medic; this scenario allows it only after the"
        " request."),
    "challenge_lapsed": gettext_noop(
        "The challenge lapsed: it had to be confirmed within {seconds} s."),
    "union_outnumbered": gettext_noop(
        "Strength in numbers needs strictly more than {ratio} attackers per defender: "
        "{attackers} against {defenders}."),
    "union_weapon_drawn": gettext_noop(
        "Strength in numbers works only bare-handed, when nobody has drawn a weapon."),
    "no_union_against": gettext_noop("No claim of strength in numbers is pending against {name}."),
    "character_out_of_game": gettext_noop(
        "{name} is out of game (arm raised, fist closed): characters ignore them until they "
        "are back in game; only organisers may act."),
    "not_searchable": gettext_noop(
        "A search needs an inert character: {name} cannot be searched now."),
    "firearm_not_held": gettext_noop("You are not holding {item}."),
    "firearm_empty": gettext_noop(
        "{item} is not loaded (no caps on the trigger): the shot does nothing."),
    "firearm_loaded_already": gettext_noop("{item} is already loaded."),
    "firearm_out_of_range": gettext_noop(
        "A shot counts only under {max} m with no obstacle: this one does nothing."),
    "firearm_beyond_range": gettext_noop(
        "A shot counts only up to {max} m with no obstacle: this one does nothing."),
    "firearm_condition_miss": gettext_noop(
        "The shot misses ({why}): the bullet is spent for nothing."),
    "not_ready": gettext_noop("{action} is not finished: {remaining} s left."),
    "game_paused": gettext_noop("The game is paused (game stop); only organisers can act."),
    # A declaration that waited in a phone's outbox (health/declared_at.py).
    "tap_in_future": gettext_noop(
        "The phone says this was tapped at {tapped}, after the server's time ({now}): its "
        "clock is wrong. Nothing was applied; declare it again."),
    "tap_while_paused": gettext_noop(
        "The game was paused when this was tapped ({tapped}): nothing was applied."),
    "tap_before_recorded": gettext_noop(
        "Tapped at {tapped}, before {what} ({at}): the server cannot count it earlier than "
        "that. Nothing was applied; declare it again if it still holds."),
    "game_not_paused": gettext_noop("The game is already running."),
    "game_already_paused": gettext_noop("The game is already paused."),
    "not_declarable": gettext_noop("You cannot declare {action} yourself."),
    "treatment_closed": gettext_noop("This treatment is already {status}."),
    "unknown_code": gettext_noop("No character of this event has the code '{code}'."),
    "bad_input": gettext_noop("Invalid request: {detail}"),
    # A character sheet (rulesets/sheet.py): the API, the admin, the roster import.
    "sheet_number": gettext_noop("{field} must be a whole number from {low} to {high}, not '{value}'."),
    "sheet_choice": gettext_noop("{field} must be one of {choices}, not '{value}'."),
    "idempotency_conflict": gettext_noop(
        "This idempotency key was already used for a different request."),
    "effect_already_removed": gettext_noop(
        "This effect was already removed: there is nothing left to remove."),
    "idempotency_in_progress": gettext_noop(
        "A request with this idempotency key is still being processed: retry in a moment."),
    "forbidden": gettext_noop("You may not see or act on this."),
    "undo_not_possible": gettext_noop("Only a state change on a character can be undone."),
    "undo_not_yours": gettext_noop("Only the narrator who made this change can undo it."),
    "undo_too_late": gettext_noop(
        "Too late to undo: a change can be undone for {seconds} s; correct the state instead."),
    "undo_superseded": gettext_noop(
        "This character changed again since: correct the state instead of undoing."),
    "invalid_login": gettext_noop(
        "This login link is invalid, expired or already used; ask an organiser for a new "
        "one."),
    "logged_out": gettext_noop(
        "This phone was logged out: its login has ended (an organiser cut off a lost "
        "phone, or the login expired). Scan the new login QR code an organiser gives you."),
    "character_without_login": gettext_noop(
        "{name} has no login of their own: there is no phone to cut off."),
    "lost_phone_staff_account": gettext_noop(
        "{name}'s login is an organiser's account: its sessions end when its password is "
        "changed in the administration."),
    "bad_option": gettext_noop("Unknown or invalid option '{option}': {detail}"),
    "too_many_logins": gettext_noop(
        "Too many failed login attempts from this network; try again in {minutes} min."),
    "body_too_large": gettext_noop("The request body is larger than {limit_kib} KiB."),
    "database_unavailable": gettext_noop(
        "The server cannot reach its database; your phone sends this again in {seconds} s."),
    "malformed_json": gettext_noop(
        "The request body is not valid JSON (line {line}, column {column})."),
    "nul_character": gettext_noop(
        "The request contains a NUL character (\\u0000), which cannot be stored."),
    "json_too_deep": gettext_noop("The request body is nested more than {max_depth} levels deep."),
    "lone_surrogate": gettext_noop(
        "The request contains a lone UTF-16 surrogate (\\ud800 to \\udfff), which is not "
        "a character and cannot be stored."),
    "number_too_large": gettext_noop(
        "The request contains a number too large to be stored (such as 1e309)."),
    # Objects with a tag (effects/items.py).
    "unknown_item": gettext_noop("No object of this game has the code '{code}'."),
    "item_used": gettext_noop("{item} was already used: it works only once."),
    "item_not_usable": gettext_noop("{item} cannot be used this way."),
    "item_self_only": gettext_noop(
        "{item} applies to whoever handles it: only a medicine can be given to someone "
        "else."),
    # Locks (effects/locks.py) and requests to the organisers (effects/requests.py).
    "lock_already": gettext_noop("{item}: the padlock is already on the {loop} loop."),
    "requests_waiting": gettext_noop(
        "You already have {count} requests waiting for the organisers; wait for an "
        "answer."),
    "request_answered": gettext_noop("This request was already answered."),
    # Calls for help (safety/services.py).
    "help_taken": gettext_noop("{name} is already on it."),
    "help_closed": gettext_noop("This call for help is already closed."),
    # A runner's position during a race (safety/services.py).
    "tracking_off": gettext_noop(
        "The organisers have not turned on position sharing for this event: your position "
        "is not sent."),
    "tracking_not_racing": gettext_noop(
        "Your position is shared only while your race is running: it is not running now."),
    # The safety board's site plan (safety/plans.py, safety/placement.py).
    # What a runner typed for a balise (race/services/punches.py): what to type instead.
    "unknown_balise": gettext_noop(
        "'{code}' is not a balise of {course}: type the six characters printed under the "
        "balise's QR code, or scan the QR."),
    "balise_number_typed": gettext_noop(
        "{number} is the balise's number on the map: type the six characters printed under "
        "its QR code, or scan the QR."),
    "plan_not_image": gettext_noop("The site plan must be a PNG, JPEG or WebP image."),
    "plan_too_large": gettext_noop(
        "The site plan image is too large: at most {limit_mib} MiB and {max_side} pixels on "
        "its longest side."),
    "plan_missing": gettext_noop("This event has no site plan yet: upload its image first."),
    "plan_points_count": gettext_noop("Place the site plan with 2 or 3 reference points."),
    "plan_point_outside": gettext_noop(
        "Reference point {n} is outside the image ({width} × {height} pixels)."),
    "plan_points_too_close": gettext_noop(
        "Reference points {first} and {second} are too close together: they must be at least "
        "{pixels} pixels apart on the image and {metres} m apart on the ground."),
    "plan_points_in_line": gettext_noop(
        "The three reference points are almost in a line (on the image or on the ground): "
        "choose points that make a triangle."),
    "plan_points_mirrored": gettext_noop(
        "These reference points would show the plan mirrored: check each point's latitude "
        "and longitude (swapped?)."),
    # A real injury (health/holds.py).
    "out_for_real": gettext_noop(
        "{name} is out of the game for real ({reason}): nothing of the game applies until "
        "a narrator lifts it."),
    # Carga: carrying objects (effects/carrying.py).
    "item_carried_already": gettext_noop("{name} already carries {item}."),
    "item_not_carried": gettext_noop("{name} does not carry {item}: there is nothing to drop."),
    "item_not_carriable": gettext_noop(
        "{item} is a lock: it stays on its door and cannot be carried."),
    # Dawns and day ends scheduled by the organisers (players/days.py).
    "no_days": gettext_noop("The rules of this game ({ruleset}) have no {kind} to schedule."),
    "day_already_scheduled": gettext_noop("A {kind} is already scheduled at {at}."),
    "day_done": gettext_noop(
        "This {kind} already took place ({at}); it can no longer be cancelled."),
    "day_running": gettext_noop(
        "This {kind} is being applied to the characters right now; it can no longer be "
        "cancelled."),
    # The airsoft club's register and sanctions (players/club.py).
    "unknown_member": gettext_noop("No club member has the number or licence '{member}'."),
    "member_exists": gettext_noop(
        "The licence number {licence} is already {name}'s (member {id})."),
    "member_excluded": gettext_noop(
        "{name} may not play: {kind} until {until} (decided {decided}). Check-in refused."),
    "member_banned": gettext_noop(
        "{name} is permanently banned from the field (decided {decided}). Check-in "
        "refused."),
    "member_not_linked": gettext_noop(
        "{name} did not check in as a club member: name the member instead."),
    "event_in_club": gettext_noop(
        "This event already uses the register of the club \"{club}\": its members, "
        "check-ins and sanctions stay in that club."),
    "sanction_needs_organiser": gettext_noop(
        "Only the organisers decide the sanction of a grave fault ({kind}); referees "
        "record warnings and sanction-outs."),
    "revoke_needs_organiser": gettext_noop(
        "Only the organisers revoke a sanction (after the committee's review, when "
        "needed)."),
    "exclusion_end_required": gettext_noop(
        "An exclusion needs its end date (ends_at), at most one year from now ({limit})."),
    "exclusion_too_long": gettext_noop(
        "An exclusion lasts at most one year: it may end on {limit} at the latest, not "
        "{asked}."),
    "exclusion_in_past": gettext_noop(
        "The end of an exclusion must be in the future, not {asked}."),
    "end_not_applicable": gettext_noop(
        "Only an exclusion takes an end date (ends_at); {kind} does not."),
    "sanction_revoked_already": gettext_noop("This sanction was already revoked on {at} by {who}."),
    "sanction_escalated": gettext_noop(
        "Repeated cheating is a grave fault (rule B13; earlier cheating: sanction "
        "{previous} of {date}): recorded as {kind} instead of {asked}."),
    "cheating_first_grave": gettext_noop(
        "This event's option cheating_first_offence is grave: recorded as {kind} instead "
        "of {asked}."),
    # The chrony station (combat/chrony.py): a check's reasons, and the pass label.
    "chrony_speed_or_energy": gettext_noop(
        "Give either the BB's speed (speed_mps) or the energy measured (energy_j): one of"
        " the two."),
    "chrony_too_powerful": gettext_noop("{energy} J > {max} J"),
    "chrony_calibre": gettext_noop("calibre {calibre} mm: only {allowed} mm is allowed"),
    "chrony_full_auto": gettext_noop("full-auto used: full-auto is forbidden"),
    "chrony_cheat": gettext_noop(
        "Proven cheating: {replica} ({code}) passed the chrony at check-in ({passed_at}) "
        "and failed a control during the games: {reasons}."),
    "replica_not_checked": gettext_noop(
        "No pass label for {replica} ({code}): it has not been through the chrony yet."),
    "replica_failed": gettext_noop(
        "No pass label for {replica} ({code}): its latest chrony check failed "
        "({reasons})."),
    # The games of an airsoft day (players/games.py).
    "game_option_unknown": gettext_noop(
        "Unknown scenario option '{option}'. The options of this game are: {known}."),
    "game_option_invalid": gettext_noop(
        "Scenario option '{option}' cannot be {value}: it must be {allowed}."),
    "game_already_started": gettext_noop("Game {number} has already started ({at})."),
    "game_in_progress": gettext_noop(
        "Game {number} is still being played: end it before starting game {next}."),
    "game_not_started": gettext_noop("Game {number} has not started yet: there is nothing to end."),
    "game_already_ended": gettext_noop("Game {number} has already ended ({at})."),
    # The zombie race (race/, docs/race.md); bad input answers `bad_input` with a detail from race/labels.py.
    "race_gear_missing": gettext_noop(
        "{name} cannot start: mandatory gear not checked: {missing}."),
    "race_already_started": gettext_noop("{name} has already started."),
    "race_not_racing": gettext_noop("{name} is not racing ({status})."),
    "race_no_life_left": gettext_noop("{name} has no life left: no flag can be pulled."),
    "race_loss_already_voided": gettext_noop("This life loss was already voided ({reason})."),
    "race_finger_taken": gettext_noop("Finger {finger} is already given to {name}."),
    "race_not_ended": gettext_noop("{name} has not finished: the finger comes back at the finish."),
    "race_already_returned": gettext_noop("The finger and deposit of {name} are already settled."),
    "race_deposit_kept": gettext_noop(
        "{name} is disqualified: the deposit is kept (option dq_deposit_returned)."),
    "race_disqualified": gettext_noop("{name} is disqualified: punches no longer count."),
    "race_not_team": gettext_noop("{name} runs solo: there is no carrier to change."),
    "race_checkpoint_exists": gettext_noop("Course {course} already has a balise {code}."),
    "race_course_exists": gettext_noop("This race already has a course {course}."),
    "race_already_ended": gettext_noop("{name} is already out of the race ({status})."),
    # Personal data (players/privacy_services.py, docs/operations.md).
    "erase_not_confirmed": gettext_noop(
        "Erasing the personal data of {name} cannot be undone: send \"confirm\": true to "
        "erase it."),
    "retention_days_invalid": gettext_noop(
        "The retention period is a whole number of days from {low} to {high}, not {asked}."),
    "personal_data_purged": gettext_noop(
        "This event's personal data was already purged on {at}: its retention period no "
        "longer applies."),
}


# What the printed object labels say (frontend/views.py printable_labels); kept here so
# that makemessages, which skips frontend/ (the phone's own catalogue), finds them.
OBJECT_LABEL_WORDS = {
    "verso": gettext_noop("Back — fold it; read only by whoever ingests or opens it"),
    "lock": gettext_noop(
        "Lock: padlock on the green loop = open, on the red one = closed. Scan this code to "
        "open or close it, then move the padlock to the other loop. Never put it anywhere "
        "else."),
    "closed": gettext_noop("To set up: padlock on the red loop (closed)"),
    "open": gettext_noop("To set up: padlock on the green loop (open)"),
}


# What the login link's page says (frontend/views.py login_link): opening the link shows
# it, only its button logs in, so that a link-preview bot does not use the link up.
LOGIN_PAGE_WORDS = {
    "title": gettext_noop("Log in"),
    "explain": gettext_noop("This one-time link opens your screen on this phone."),
    "button": gettext_noop("Log in on this phone"),
}

# The page a used, revoked or expired login link opens: the person holds a phone and a
# sheet, not an organiser's vocabulary, so it says who can help and how.
LOGIN_FAILED_WORDS = {
    "title": gettext_noop("This login link no longer works"),
    "what_to_do": gettext_noop(
        "Ask a narrator for a new login QR code: they make one from your row on their "
        "screen, and your older links and sheet stop working."),
    "still_logged_in": gettext_noop(
        "If this phone already opened your screen, you are still logged in: open the app."),
    "open_app": gettext_noop("Open the app"),
}


# The web app manifest (frontend/shell.py), one per language: the name under the icon of
# an app added to the home screen, and the shell's title.
APP_WORDS = {
    "name": gettext_noop("Game companion"),
    "short_name": gettext_noop("Companion"),
    "description": gettext_noop(
        "Your character's state, countdowns, points and effects during a live game."),
    "needs_js": gettext_noop("This app needs JavaScript."),
}
