"""Words of the printed cards and the casualty card, in the event's language (the cards
are the players'), and of the cards page's controls, in the reader's language."""
from __future__ import annotations

from rulesets.messages import pick

# On the card itself: the players' language.
CARD = {
    "how_1": {"fr": "1. Scannez ce QR avec l'appareil photo du téléphone, puis touchez « Se connecter ».",
              "es": "1. Escanea este QR con la cámara del móvil y toca «Entrar».",
              "en": "1. Scan this QR with your phone's camera, then tap \"Log in\"."},
    "how_2": {"fr": "2. Sans appareil photo : ouvrez {url} et tapez le code.",
              "es": "2. Sin cámara: abre {url} y escribe el código.",
              "en": "2. No camera: open {url} and type the code."},
    "code": {"fr": "Code de connexion", "es": "Código de acceso", "en": "Login code"},
    "medic_code": {"fr": "Code médecin :", "es": "Código para el médico:", "en": "Medic code:"},
    "lasts": {"fr": "Valable jusqu'à ce qu'un organisateur le remplace.",
              "es": "Válido hasta que la organización lo sustituya.",
              "en": "Valid until an organiser replaces it."},
    "combat": {"fr": "Combat : {score}", "es": "Combate: {score}",
               "en": "Combat score: {score}"},
    "novice": {"fr": "novice", "es": "novato", "en": "novice"},
    "expert": {"fr": "expert", "es": "experto", "en": "expert"},
    "casualty_title": {"fr": "Fiche blessés", "es": "Ficha de heridos", "en": "Casualty card"},
    "casualty_explain": {
        "fr": "Quand les téléphones ne répondent plus : notez l'heure d'entrée dans chaque état et "
              "suivez la durée au chronomètre.",
        "es": "Cuando los móviles no funcionan: anota la hora de entrada en cada estado y sigue la "
              "duración con un cronómetro.",
        "en": "When the phones are down: note the time each state began and follow its duration "
              "with a stopwatch."},
    "lasts_head": {"fr": "Dure", "es": "Dura", "en": "Lasts"},
    "moves_head": {"fr": "Ce qui le change", "es": "Qué lo cambia", "en": "What changes it"},
    "no_timer": {"fr": "sans limite de temps", "es": "sin límite de tiempo", "en": "no time limit"},
    "none": {"fr": "Aucun personnage pour l'instant.", "es": "Aún no hay personajes.",
             "en": "No characters yet."},
}

# The page around the cards: the reader's language.
PAGE = {
    "title": {"fr": "Cartes des personnages", "es": "Tarjetas de personajes", "en": "Character cards"},
    "per_page": {"fr": "Cartes par page A4 :", "es": "Tarjetas por página A4:", "en": "Cards per A4 page:"},
    "print": {"fr": "Imprimer", "es": "Imprimir", "en": "Print"},
    "pdf": {"fr": "Télécharger le PDF", "es": "Descargar el PDF", "en": "Download the PDF"},
    "casualty": {"fr": "Fiche blessés (papier)", "es": "Ficha de heridos (papel)",
                 "en": "Paper casualty card"},
    "same_codes": {
        "fr": "Imprimer ne change aucun code : vous pouvez réimprimer autant de fois que nécessaire, "
              "les cartes déjà imprimées restent valables. Un code dure jusqu'à ce que vous le "
              "remplaciez ou que les données personnelles de l'événement soient effacées.",
        "es": "Imprimir no cambia ningún código: puedes reimprimir tantas veces como haga falta y "
              "las tarjetas ya impresas siguen valiendo. Un código dura hasta que lo sustituyas o "
              "se borren los datos personales del evento.",
        "en": "Printing changes no code: print again as often as you need, the cards already "
              "printed keep working. A code lasts until you replace it or the event's personal "
              "data is purged."},
    "new_codes": {"fr": "Nouveaux codes", "es": "Códigos nuevos", "en": "New codes"},
    "one_label": {"fr": "Un personnage (carte perdue ou volée) :",
                  "es": "Un personaje (tarjeta perdida o robada):",
                  "en": "One character (a lost or stolen card):"},
    "one_button": {"fr": "Nouveau code pour ce personnage", "es": "Código nuevo para este personaje",
                   "en": "New code for this character"},
    "all_button": {"fr": "Nouveaux codes pour tous", "es": "Códigos nuevos para todos",
                   "en": "New codes for everyone"},
    "confirm_one": {"fr": "Je comprends : sa carte imprimée ne permettra plus de se connecter.",
                    "es": "Entiendo: su tarjeta impresa ya no servirá para entrar.",
                    "en": "I understand: their printed card will no longer log in."},
    "confirm_all": {"fr": "Je comprends : toutes les cartes imprimées ne permettront plus de se "
                          "connecter, il faudra les réimprimer.",
                    "es": "Entiendo: ninguna tarjeta impresa servirá para entrar; habrá que "
                          "reimprimirlas.",
                    "en": "I understand: every printed card stops logging in and must be printed "
                          "again."},
    "not_confirmed": {"fr": "Rien n'a changé : cochez la case pour confirmer.",
                      "es": "Nada ha cambiado: marca la casilla para confirmar.",
                      "en": "Nothing changed: tick the box to confirm."},
    "replaced_one": {"fr": "Nouveau code pour {name} : réimprimez sa carte (ci-dessous).",
                     "es": "Código nuevo para {name}: reimprime su tarjeta (abajo).",
                     "en": "New code for {name}: print their card again (below)."},
    "replaced_all": {"fr": "{count} nouveaux codes : réimprimez toutes les cartes.",
                     "es": "{count} códigos nuevos: reimprime todas las tarjetas.",
                     "en": "{count} new codes: print every card again."},
    "unreadable": {
        "fr": "Les codes ne peuvent plus être imprimés : la clé secrète du serveur (SECRET_KEY) a "
              "changé depuis leur création. Remettez l'ancienne clé, ou faites de nouveaux codes "
              "pour tous puis réimprimez toutes les cartes.",
        "es": "Los códigos ya no se pueden imprimir: la clave secreta del servidor (SECRET_KEY) "
              "cambió desde que se crearon. Vuelve a poner la clave anterior, o crea códigos "
              "nuevos para todos y reimprime todas las tarjetas.",
        "en": "The codes can no longer be printed: the server's secret key (SECRET_KEY) changed "
              "since they were made. Put the old key back, or make new codes for everyone and "
              "print every card again."},
    "only": {"fr": "Seulement cette carte", "es": "Solo esta tarjeta", "en": "Only this card"},
    "all_cards": {"fr": "Toutes les cartes", "es": "Todas las tarjetas", "en": "All the cards"},
}


def words(table: dict, lang: str) -> dict:
    """The table in one language; texts with {placeholders} are formatted by the caller."""
    return {key: pick(value, lang) for key, value in table.items()}
