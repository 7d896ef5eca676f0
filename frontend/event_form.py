"""The event creation form: a ruleset among those installed, then its options, each with
its group, its default, the values it allows and the rulebook's note on it, validated
against the ruleset's contract (players/setup_services.event_settings_check)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from zoneinfo import available_timezones

import yaml
from django import forms

from rulesets import available_rulesets, get_ruleset
from rulesets.casualty_card import duration_text
from rulesets.messages import pick

PREFIX = "opt_"
LANGUAGE_CHOICES = [("fr", "Français"), ("es", "Español"), ("en", "English")]


@lru_cache(maxsize=8)
def option_notes(key: str) -> dict[str, tuple[str, str]]:
    """{option: (group, the comment beside it in the ruleset file)}: the notes the ruleset's
    authors wrote ("A1: entry | inert_end")."""
    path = Path(get_ruleset(key).path)
    text = path.read_text(encoding="utf-8")
    groups = yaml.safe_load(text).get("options") or {}
    comments = dict(re.findall(r"^\s+(\w+):[^#\n]*#\s*(.+)$", text, flags=re.M))
    return {option: (group, comments.get(option, "")) for group, entries in groups.items()
            for option in entries}


def ruleset_choices(lang: str) -> list[tuple[str, str]]:
    """(key, one-line description) of every installed ruleset."""
    return [(key, pick(get_ruleset(key).name, lang)) for key in sorted(available_rulesets())]


def _field(key: str, default, choices, words: dict, note: str, group: str):
    head = f"[{group}] {note}".strip()
    if choices:
        return forms.TypedChoiceField(
            choices=[(str(c), str(c)) for c in choices], initial=str(default), label=key,
            coerce=lambda v, cs=tuple(choices): next(c for c in cs if str(c) == v),
            help_text=f"{head} — {words['default']} {default}; {words['allowed']} "
                      f"{', '.join(map(str, choices))}")
    if isinstance(default, bool):
        return forms.BooleanField(required=False, initial=default, label=key,
                                  help_text=f"{head} — {words['default']} {default}; {words['yes_no']}")
    if isinstance(default, (int, float)):
        shown = f"{default} ({duration_text(default)})" if key.endswith("_s") and default else str(default)
        field_class = forms.IntegerField if isinstance(default, int) else forms.FloatField
        return field_class(min_value=0, initial=default, label=key,
                           help_text=f"{head} — {words['default']} {shown}; {words['whole_seconds']}")
    if isinstance(default, list):
        return forms.CharField(required=False, initial=", ".join(map(str, default)), label=key,
                               help_text=f"{head} — {words['default']} {', '.join(map(str, default))}; "
                                         f"{words['list']}")
    if isinstance(default, str):
        return forms.CharField(initial=default, label=key, help_text=f"{head} — {words['default']} {default}")
    return None   # a mapping or an open value: set it in the admin, checked the same way


class EventSetupForm(forms.Form):
    name = forms.CharField(max_length=200)
    ruleset = forms.CharField(widget=forms.HiddenInput)
    language = forms.ChoiceField(choices=LANGUAGE_CHOICES)
    time_zone = forms.ChoiceField(choices=())
    display = forms.ChoiceField(choices=(), initial="dark")
    starts_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, ruleset: str, words: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.words = words
        self.ruleset_key = ruleset
        for name in ("name", "language", "time_zone", "display", "starts_on"):
            self.fields[name].label = words[name]
        self.fields["display"].choices = [(key, words[f"display_{key}"]) for key in ("dark", "night", "day")]
        self.fields["time_zone"].choices = [(z, z) for z in sorted(available_timezones())]
        self.fields["ruleset"].initial = ruleset
        if ruleset not in available_rulesets():
            return
        ruleset_data = get_ruleset(ruleset)
        notes = option_notes(ruleset)
        for key, default in ruleset_data.options.items():
            group, note = notes.get(key, ("", ""))
            field = _field(key, default, ruleset_data.option_choices.get(key), words, note, group)
            if field is not None:
                self.fields[PREFIX + key] = field

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith(PREFIX)]

    def clean(self):
        data = super().clean()
        ruleset = data.get("ruleset", "")
        if ruleset not in available_rulesets():
            raise forms.ValidationError(self.words["unknown_ruleset"].format(name=ruleset))
        unknown = sorted(k[len(PREFIX):] for k in self.data if k.startswith(PREFIX)
                         and k not in self.fields)
        if unknown:
            raise forms.ValidationError(self.words["unknown_option"].format(name=", ".join(unknown)))
        return data

    def overrides(self) -> dict:
        """The options the organiser changed from the ruleset's defaults."""
        defaults = get_ruleset(self.ruleset_key).options
        changed = {}
        for name in self.fields:
            if not name.startswith(PREFIX):
                continue
            key, value = name[len(PREFIX):], self.cleaned_data.get(name)
            if isinstance(defaults[key], list):
                value = [v.strip() for v in (value or "").split(",") if v.strip()]
            if value != defaults[key]:
                changed[key] = value
        return changed
