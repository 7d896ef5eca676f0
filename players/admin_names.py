"""The admin's names of the models in the organiser's language, with real plurals
("Journal entries", not "Journal entrys"). Set on the models' options when the admin
starts (players/admin_apps.py): display only, so no app needs a migration for it."""
from __future__ import annotations

from django.apps import apps
from django.utils.functional import lazy
from django.utils.translation import get_language

# label: (English singular, plural, French singular, plural, Spanish singular, plural)
NAMES = {
    "common.idempotencyrecord": ("idempotency record", "idempotency records", "enregistrement d'idempotence",
                                 "enregistrements d'idempotence", "registro de idempotencia", "registros de idempotencia"),
    "players.event": ("event", "events", "événement", "événements", "evento", "eventos"),
    "players.character": ("character", "characters", "personnage", "personnages", "personaje", "personajes"),
    "players.team": ("team", "teams", "équipe", "équipes", "equipo", "equipos"),
    "players.membership": ("membership", "memberships", "rôle dans un événement", "rôles dans les événements",
                           "rol en un evento", "roles en los eventos"),
    "players.logintoken": ("login code", "login codes", "code de connexion", "codes de connexion",
                           "código de acceso", "códigos de acceso"),
    "players.journalentry": ("journal entry", "journal entries", "ligne du journal", "lignes du journal",
                             "línea del diario", "líneas del diario"),
    "players.setuptoken": ("first-run link", "first-run links", "lien de premier lancement",
                           "liens de premier lancement", "enlace de primer arranque", "enlaces de primer arranque"),
    "players.invitation": ("invitation", "invitations", "invitation", "invitations", "invitación", "invitaciones"),
    "schedule.game": ("game", "games", "partie", "parties", "partida", "partidas"),
    "schedule.gameday": ("game day", "game days", "journée de jeu", "journées de jeu", "día de juego", "días de juego"),
    "club.club": ("club", "clubs", "club", "clubs", "club", "clubes"),
    "club.clubevent": ("club event", "club events", "événement du club", "événements du club",
                       "evento del club", "eventos del club"),
    "club.member": ("member", "members", "membre", "membres", "socio", "socios"),
    "club.checkin": ("check-in", "check-ins", "arrivée", "arrivées", "llegada", "llegadas"),
    "club.sanction": ("sanction", "sanctions", "sanction", "sanctions", "sanción", "sanciones"),
    "club.replica": ("replica", "replicas", "réplique", "répliques", "réplica", "réplicas"),
    "club.chronycheck": ("chrony check", "chrony checks", "passage au chrony", "passages au chrony",
                         "paso por el cronógrafo", "pasos por el cronógrafo"),
    "health.healthstate": ("health state", "health states", "état de santé", "états de santé",
                           "estado de salud", "estados de salud"),
    "health.treatment": ("treatment", "treatments", "soin", "soins", "cura", "curas"),
    "combat.duel": ("duel", "duels", "duel", "duels", "duelo", "duelos"),
    "combat.union": ("strength in numbers", "strength in numbers fights", "union fait la force",
                     "combats « l'union fait la force »", "la unión hace la fuerza",
                     "combates «la unión hace la fuerza»"),
    "combat.unionmember": ("fighter in a union", "fighters in unions", "combattant d'une union",
                           "combattants des unions", "combatiente de una unión", "combatientes de uniones"),
    "combat.acharnement": ("beating", "beatings", "acharnement", "acharnements", "ensañamiento", "ensañamientos"),
    "combat.heal": ("heal", "heals", "soin au combat", "soins au combat", "curación", "curaciones"),
    "effects.item": ("object", "objects", "objet", "objets", "objeto", "objetos"),
    "effects.organiserrequest": ("request to the organisers", "requests to the organisers",
                                 "demande aux organisateurs", "demandes aux organisateurs",
                                 "petición a la organización", "peticiones a la organización"),
    "effects.effect": ("effect", "effects", "effet", "effets", "efecto", "efectos"),
    "push.pushsubscription": ("push subscription", "push subscriptions", "abonnement aux notifications",
                              "abonnements aux notifications", "suscripción a notificaciones",
                              "suscripciones a notificaciones"),
    "push.sentwarning": ("warning sent", "warnings sent", "alerte envoyée", "alertes envoyées",
                         "aviso enviado", "avisos enviados"),
    "race.course": ("course", "courses", "parcours", "parcours", "recorrido", "recorridos"),
    "race.checkpoint": ("checkpoint", "checkpoints", "balise", "balises", "baliza", "balizas"),
    "race.entry": ("entry", "entries", "inscription", "inscriptions", "inscripción", "inscripciones"),
    "race.punch": ("punch", "punches", "poinçon", "poinçons", "picada", "picadas"),
    "race.lifeloss": ("life lost", "lives lost", "vie perdue", "vies perdues", "vida perdida", "vidas perdidas"),
    "race.infraction": ("infraction", "infractions", "infraction", "infractions", "infracción", "infracciones"),
}
COLUMN = {"en": 0, "fr": 2, "es": 4}


def _name(names: tuple, plural: bool) -> str:
    lang = (get_language() or "en")[:2]
    return names[COLUMN.get(lang, 0) + int(plural)]


lazy_name = lazy(_name, str)


def admin_names_install() -> None:
    for label, names in NAMES.items():
        try:
            model = apps.get_model(label)
        except LookupError:
            continue   # an app not installed here
        model._meta.verbose_name = lazy_name(names, False)
        model._meta.verbose_name_plural = lazy_name(names, True)
