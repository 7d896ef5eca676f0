from django.apps import AppConfig


class LiveConfig(AppConfig):
    verbose_name = "Live updates to phones"
    name = "live"

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_delete, post_save

        from common import observers as common
        from players import observers as players
        from players.models import Character

        from . import passes, publish

        players.phone_readiness_reported.register(publish.phone_readiness_publish_on_commit)
        # Access taken away (a lost phone, a role, an erasure): the passes that let a phone
        # reconnect without the database are void, then open sockets check again.
        players.access_revoked.register(passes.users_passes_end)
        players.access_revoked.register(publish.access_check_on_commit)
        common.session_ended.register(passes.session_passes_end)
        # Any write to a user (its password, its active flag, from the admin too) or to a
        # character's row (its player) may change who may watch it: proven again.
        for model in (get_user_model(), Character):
            post_save.connect(passes.row_saved, sender=model, dispatch_uid=f"live-passes-{model.__name__}")
            pre_delete.connect(passes.row_saved, sender=model,
                                dispatch_uid=f"live-passes-deleted-{model.__name__}")
