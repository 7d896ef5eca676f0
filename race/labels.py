"""What people read about the race. `say(key, **params)` gives a label ({fr, es, en})
from the server's catalogue (locale/), which `localize` turns into the reader's language at
the edge; refusals (RuleRefused codes) are in common/messages.py."""
from __future__ import annotations

from django.utils.translation import gettext_noop

from common.i18n import Labels

TEXTS = {
    # statuses
    "registered": gettext_noop("Registered"),
    "racing": gettext_noop("Racing"),
    "overtime": gettext_noop("Overtime"),
    "finished": gettext_noop("Finished"),
    "dnf": gettext_noop("Did not finish"),
    "disqualified": gettext_noop("Disqualified"),
    "over_max_late": gettext_noop("Over the time limit"),
    # gear (rulebook: matériel obligatoire)
    "vest": gettext_noop("yellow safety vest"),
    "light": gettext_noop("headlamp or torch"),
    "phone": gettext_noop("charged phone (the number given at registration)"),
    # why a punch does not count
    "before_start": gettext_noop("before the start"),
    "after_limit": gettext_noop("after the time limit"),
    "after_finish": gettext_noop("after the finish"),
    "duplicate": gettext_noop("balise already punched"),
    "after_disqualification": gettext_noop("after the disqualification"),
    "after_abandon": gettext_noop("after the abandon"),
    "not_on_course": gettext_noop("balise of another course"),
    "out_of_sequence": gettext_noop("earlier than the finger's punch before it"),
    # life losses
    "zombie_grab": gettext_noop("life pulled by a zombie"),
    "out_of_zone": gettext_noop("left the race zone"),
    "forbidden_path": gettext_noop("forbidden road, path or fence"),
    # what a zombie confirms before recording a grab (rulebook, rules for zombies)
    "not_fast_running": gettext_noop("no fast running"),
    "not_near_checkpoint": gettext_noop("more than {metres} m from any balise"),
    "no_contact": gettext_noop("no contact, only the flag"),
    "not_on_open_road": gettext_noop("not on a road open to traffic"),
    "target_not_panicking": gettext_noop("the survivor was not panicking or too frightened"),
    "near_checkpoint": gettext_noop("{distance} m from balise {code} (closer than {metres} m)"),
    # a marshal's zone call that took no life: an infraction for the organisers to review
    "review_no_life_left": gettext_noop(
        "no life left to take: logged as an infraction for the organisers to decide"),
    "review_costs_no_life": gettext_noop(
        "costs no life in this race: logged as an infraction for the organisers to decide"),
    # warnings on the organisers' screens and the results
    "points_unconfirmed": gettext_noop(
        "Points per balise not confirmed ({points}) for course {course}: the rulebook "
        "gives no value; scores may change."),
    "no_checkpoints": gettext_noop("Course {course} has no balise."),
    "overdue": gettext_noop("{name} ({course}) is not back: {minutes} min overdue. Phone {phone}"),
    # the results page and its CSV
    "h_results": gettext_noop("Results"),
    "h_rank": gettext_noop("Rank"),
    "h_name": gettext_noop("Survivor(s)"),
    "h_found": gettext_noop("Balises"),
    "h_late": gettext_noop("Late minutes"),
    "h_lives": gettext_noop("Lives lost"),
    "h_time": gettext_noop("Time"),
    "h_score": gettext_noop("Score"),
    "h_status": gettext_noop("Status"),
    "h_unranked": gettext_noop("Not ranked"),
    "h_duration": gettext_noop("duration"),
    "h_provisional": gettext_noop("Provisional ranking at {at}"),
    "h_downloads": gettext_noop("Download:"),
    "h_iof_results": gettext_noop("results (IOF XML 3.0, for orienteering software)"),
    "h_iof_start": gettext_noop("start list (IOF XML 3.0)"),
    # the balises to print (race/views.py balises_page)
    "print_title": gettext_noop("Balises to print"),
    "print_course": gettext_noop("Course"),
    "print_scan": gettext_noop("Punch: scan this QR code with the race app."),
    "print_typed": gettext_noop("Cannot scan? Type this code:"),
    "print_none": gettext_noop("No balise yet."),
    # bad input (details of a 400)
    "confirm_missing": gettext_noop("confirm before recording: {missing}"),
    "not_a_member": gettext_noop("{carrier} is not a member of {name} ({members})"),
    "in_future": gettext_noop("{field} is in the future ({at})"),
    "too_old": gettext_noop("{field} is too long ago ({at})"),
    "before_start_time": gettext_noop("{field} ({at}) is before the start ({start})"),
    "duration_needed": gettext_noop(
        "course '{course}' is not a standard one (enfant, famille, sportif): give "
        "duration_s"),
    "qr_taken": gettext_noop("QR '{qr}' is already on another balise"),
    "typed_code_taken": gettext_noop(
        "the code under QR '{qr}' ({code}) is already another balise's: choose another QR"),
    "unknown_course": gettext_noop("no course '{course}' in this race ({known})"),
    "team_members": gettext_noop("a team has at least two members"),
    "solo_members": gettext_noop("a solo survivor has no members"),
    "bad_phone": gettext_noop("invalid phone number '{phone}'"),
    "points_by_organisers": gettext_noop("only organisers give penalty points"),
    "points_off": gettext_noop("option infraction_penalty is 'none': no penalty points"),
    # the finger readout (CSV)
    "csv_rejected": gettext_noop("file refused, nothing imported: {count} bad row(s)"),
    "csv_header": gettext_noop(
        "the header must name the columns finger, checkpoint, time (or doigt, balise, "
        "heure); found: {found}"),
    "csv_count": gettext_noop("expected {expected} values, found {found}"),
    "csv_finger": gettext_noop("finger '{value}' is not a number"),
    "csv_unknown_finger": gettext_noop("no entry has finger {finger}"),
    "csv_unknown_checkpoint": gettext_noop(
        "balise '{code}' is not on course {course} of finger {finger}"),
    "csv_time": gettext_noop("time '{value}' is neither HH:MM:SS nor ISO 8601 with an offset"),
    "csv_empty": gettext_noop("the file holds no punch"),
    "csv_too_long": gettext_noop("more than {max} rows"),
    "csv_encoding": gettext_noop("the file is not UTF-8"),
    # the entries registered before the night (CSV)
    "entries_rejected": gettext_noop("file refused, nothing imported: {count} bad line(s)"),
    "entries_header": gettext_noop(
        "the first line names the columns name, course, finger, phone, and may add kind, "
        "members, carrier, deposit; found: {found}"),
    "entries_name": gettext_noop("the name is empty or longer than {max} characters"),
    "entries_kind": gettext_noop("kind '{value}' is neither solo nor team"),
    "entries_deposit": gettext_noop("deposit '{value}' is neither yes nor no"),
    "entries_empty": gettext_noop("the file holds no entry"),
    # IOF XML 3.0 files (EntryList, CourseData): race/iof_xml.py, race/services/iof_import.py
    "xml_rejected": gettext_noop("file refused, nothing imported: {count} problem(s)"),
    "xml_empty": gettext_noop("the file is empty: send an IOF XML 3.0 {expected}"),
    "xml_doctype": gettext_noop(
        "the file declares a DOCTYPE (entities): an IOF XML 3.0 file has none, so it is "
        "refused unread"),
    "xml_unreadable": gettext_noop("the file is not well-formed XML ({problem})"),
    "xml_root": gettext_noop("the file is a {found}, not an IOF XML 3.0 {expected}"),
    "xml_schema": gettext_noop("not valid IOF XML 3.0: {problem}"),
    "iof_name": gettext_noop("the name is empty or longer than {max} characters"),
    "iof_no_course": gettext_noop(
        "class '{name}' has no course in this race (courses: {known}): import the "
        "CourseData first, or name a course after the class"),
    "iof_card": gettext_noop("card number '{value}' is not a finger number"),
    "iof_already": gettext_noop("{name} is already registered on course {course}"),
    "iof_course_exists": gettext_noop("course {course} already has balises in this race"),
    "iof_duration": gettext_noop(
        "course {course} is not a standard one (enfant, famille, sportif): give its "
        "duration (duration_s) with the file"),
    "iof_duration_value": gettext_noop("duration_s '{value}' is not a number of seconds (60 to 86400)"),
    "iof_control": gettext_noop("control {code} of course {course} is not among the file's controls"),
    "iof_code": gettext_noop("control code '{code}' is empty or longer than {max} characters"),
    "iof_score": gettext_noop("score '{value}' of control {code} is not a whole number"),
    "iof_class_course": gettext_noop("class {name} is assigned to course {course}, which neither "
                                     "the file nor the race has"),
}


# The module's texts by key, in every language: say("key", placeholder=value).
say = Labels(TEXTS).say
