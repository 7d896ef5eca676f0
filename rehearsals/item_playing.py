"""Playing the object steps of a rehearsal (docs/rehearse.md, "Objects: firearms and
Carga") through the services the phone's API calls: a firearm taken, loaded (the skill
checked) and fired; an object carried, handed over, dropped (Carga). Also what the
`items` of an `expect:` are compared with.
"""
from __future__ import annotations

from combat.services.firearms import firearm_load, firearm_shoot, firearm_take
from common.i18n import refusal_text
from effects.models import Item
from effects.services.carrying import item_carry, item_drop
from effects.services.items import item_create, item_touch, item_use
from effects.services.locks import lock_move
from rulesets import RuleRefused

from rehearsals.script import Step, StepFailed


class ItemSteps:
    """The object steps of runner._Player. `self.items`: object key -> pk."""

    def items_setup(self) -> None:
        """The objects of the header, labelled by the organisers; an object that starts
        in someone's hands is carried there (Carga) or held (a firearm)."""
        self.items: dict[str, int] = {}
        event = self.event()
        for key, spec in self.script.items.items():
            try:
                firearm = spec["kind"] == Item.FIREARM
                fields = {"load": spec["load"]} if spec["load"] is not None else {}
                fields.update(spec["fields"])
                if firearm:
                    fields.update(loaded=spec["loaded"],
                                  holder=self.character(spec["holder"]) if spec["holder"] else None)
                item = item_create(event=event, by=self.narrator, name=spec["name"],
                                   kind=spec["kind"], **fields)
                if spec["holder"] and not firearm:
                    item_carry(item=item, character=self.character(spec["holder"]),
                               by=self.narrator, as_narrator=True)
            except RuleRefused as exc:
                raise StepFailed([f"items.{key}: {refusal_text(exc, 'en')}"]) from None
            self.items[key] = item.pk

    def item(self, key: str) -> Item:
        return Item.objects.get(pk=self.items[key])

    def _take_firearm(self, step: Step) -> None:
        firearm_take(character=self.character(step.by), code=self.item(step.item["item"]).code,
                     by=self.user(step.by))

    def _load_firearm(self, step: Step) -> None:
        firearm_load(character=self.character(step.by), code=self.item(step.item["item"]).code,
                     by=self.user(step.by))

    def _fire(self, step: Step) -> str:
        spec = step.item
        shot = firearm_shoot(shooter=self.character(step.by), code=self.item(spec["item"]).code,
                             victim_code=self.character(spec["target"]).code,
                             distance_m=spec["distance"], obstacle=spec["obstacle"],
                             misfire=spec["misfire"], conditions=spec["conditions"],
                             by=self.user(step.by))
        if shot["hit"]:
            return f"hit {spec['target']}"
        why = (shot["detail"] or {}).get("en", "missed")
        return f"no hit: {why}" + ("; still loaded" if shot["loaded"] else "")

    def _carry(self, step: Step) -> str | None:
        item = self.item(step.item["item"])
        before = item.holder_id
        item_carry(item=item, character=self.character(step.by), by=self.user(step.by))
        return f"taken from {self.key_of(before)}" if before else None

    def _give(self, step: Step) -> None:
        """Handed over: the giver must hold it; the one who takes it scans its label."""
        item = self.item(step.item["item"])
        if item.holder_id != self.ids[step.by]:
            raise RuleRefused("item_not_carried", item=item.name, name=self.character(step.by).name)
        to = step.item["to"]
        item_carry(item=item, character=self.character(to), by=self.user(to))

    def _read_tag(self, step: Step) -> str:
        """Touched, so read: the tag's effect reaches whoever touched it (item_touch)."""
        effect = item_touch(item=self.item(step.item["item"]), character=self.character(step.by),
                            by=self.user(step.by))
        return f'"{effect.text}"'

    def _ingest(self, step: Step) -> str:
        """Swallowed by the target, who may not be the one holding it (item_use)."""
        target = step.item["target"]
        effect = item_use(item=self.item(step.item["item"]), user_character=self.character(step.by),
                          target=self.character(target), by=self.user(step.by))
        return f'"{effect.text}" on {target}'

    def _lock(self, step: Step) -> None:
        lock_move(item=self.item(step.item["item"]), character=self.character(step.by),
                  closed=True, by=self.user(step.by))

    def _unlock(self, step: Step) -> None:
        lock_move(item=self.item(step.item["item"]), character=self.character(step.by),
                  closed=False, by=self.user(step.by))

    def _drop(self, step: Step) -> None:
        item_drop(item=self.item(step.item["item"]), character=self.character(step.by),
                  by=self.user(step.by))

    def items_diff(self, checks: dict, compare) -> list[str]:
        lines = []
        for key, want in checks.items():
            item = self.item(key)
            seen = {"holder": self.key_of(item.holder_id) if item.holder_id else None,
                    "loaded": item.loaded, "bullets": int(item.loaded), "closed": item.closed,
                    "used": item.used_up,
                    "used_by": self.key_of(item.used_by_id) if item.used_by_id else None}
            for field, value in want.items():
                lines += compare(f"items.{key}.{field}", value, seen[field])
        return lines
