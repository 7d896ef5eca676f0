"""Objects with a tag: organisers create and list them; a player scans one and touches,
ingests or opens it, or moves a lock's padlock."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent
from players.selectors import character_by_code, character_visible, event_for_narrator

from .models import Item
from .answers import (EventItemsAnswer, ItemCarriedAnswer, ItemNarratorAnswer, ItemScanAnswer,
                      ItemUsedAnswer)
from .selectors.items import (event_items, item_in_event, item_narrator_view,
                              item_scan_view, item_use_view, lock_moved_view)
from .selectors.load import load_view
from .services import items as services
from .services.carrying import item_carry, item_drop
from .services.locks import lock_move

TEXT = {"max_length": 2000, "required": False, "allow_blank": True, "default": ""}


class EventItemsApi(APIView):
    class ItemInput(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        kind = serializers.ChoiceField(choices=[kind for kind, _ in Item.KINDS])
        tag_text = serializers.CharField(**TEXT)
        secret_text = serializers.CharField(**TEXT)
        effect_text = serializers.CharField(**TEXT)
        effect_duration_s = serializers.FloatField(required=False, allow_null=True, min_value=1,
                                                   max_value=7 * 24 * 3600)
        effect_set_state = serializers.CharField(max_length=40, required=False, allow_blank=True,
                                                 default="")
        single_use = serializers.BooleanField(required=False, help_text="Default: true for a "
                                              "medicine or an envelope, false otherwise.")
        holder_code = serializers.CharField(max_length=12, required=False,
                                            help_text="Firearms: the carrier's character code.")
        loaded = serializers.BooleanField(default=False, help_text="Firearms.")
        load = serializers.IntegerField(required=False, allow_null=True, min_value=0,
                                        max_value=100, help_text="Carga (septenario): what "
                                        "it weighs. Default: the ruleset's default_item_load.")
        closed = serializers.BooleanField(required=False, help_text="Locks: where the padlock "
                                          "hangs at first. Default: closed (the red loop).")

    @extend_schema(responses=EventItemsAnswer, summary="The event's objects with their codes, "
                   "tags, versos, effects, use and holder (narrators)")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        return answer(request, {"items": event_items(event)})

    @extend_schema(responses={201: ItemNarratorAnswer}, request=ItemInput, summary="Create an object: "
                   "tag, medicine, sealed envelope, firearm or lock (narrators). Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.ItemInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        holder_code = fields.pop("holder_code", None)
        holder = character_by_code(event.pk, holder_code) if holder_code else None

        def run():
            item = services.item_create(event=event, by=request.user, holder=holder, **fields)
            return answer(request, item_narrator_view(item), status=201)
        return idempotent(request, run)


class CharacterItemApi(APIView):
    @extend_schema(responses=ItemScanAnswer, summary="A character scanned an object: its "
                   "name, tag and what they may do with it (never its verso)")
    def get(self, request, character_id, item_code):
        character, _ = character_visible(request.user, character_id)
        return answer(request, item_scan_view(item_in_event(character.event_id, item_code)))


class CharacterItemUseApi(APIView):
    class ItemUseInput(serializers.Serializer):
        target_code = serializers.CharField(max_length=12, required=False, help_text=(
            "Medicines: the code of whoever is made to ingest it. Default: the caller."))
        closed = serializers.BooleanField(required=False, help_text=(
            "Locks: the position wanted (refused when the padlock is already there). "
            "Default: the other loop."))

    @extend_schema(responses=ItemUsedAnswer, request=ItemUseInput,
                   summary="Touch a tag, ingest a medicine (or make someone ingest it), open "
                   "an envelope, or move a lock's padlock. Idempotency-Key header.")
    def post(self, request, character_id, item_code):
        character, as_narrator = character_visible(request.user, character_id)
        item = item_in_event(character.event_id, item_code)
        data = self.ItemUseInput(data=request.data)
        data.is_valid(raise_exception=True)
        if item.kind == Item.LOCK:
            return _move_lock(request, item, character, as_narrator,
                              data.validated_data.get("closed"))
        code = data.validated_data.get("target_code")
        target = character_by_code(character.event_id, code) if code else character

        def run():
            effect = services.item_use(item=item, user_character=character, target=target,
                                       by=request.user, as_narrator=as_narrator)
            return answer(request, item_use_view(item, effect, character, target))
        return idempotent(request, run)


class CharacterItemCarryApi(APIView):
    """Carga: pick up (`carry`) or put down (`drop`) a scanned object."""
    SERVICES = {"carry": item_carry, "drop": item_drop}

    @extend_schema(responses=ItemCarriedAnswer, request=None, summary="Carry or drop a "
                   "scanned object (Carga); answers the object and the character's load. "
                   "Idempotency-Key header.")
    def post(self, request, character_id, item_code, verb):
        character, as_narrator = character_visible(request.user, character_id)
        item = item_in_event(character.event_id, item_code)

        def run():
            moved = self.SERVICES[verb](item=item, character=character, by=request.user,
                                        as_narrator=as_narrator)
            return answer(request, {"item": item_scan_view(moved), "action": verb,
                                    "carried": moved.holder_id == character.pk,
                                    "load": load_view(character, character.event.rules())})
        return idempotent(request, run)


def _move_lock(request, item, character, as_narrator, closed):
    def run():
        moved = lock_move(item=item, character=character, by=request.user, closed=closed,
                          as_narrator=as_narrator)
        return answer(request, lock_moved_view(moved))
    return idempotent(request, run)
