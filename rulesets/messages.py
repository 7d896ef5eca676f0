"""Refusals the players read, in their language (fr, es, en).

A refusal carries a code and parameters; it is rendered only when it reaches a person,
so the same refusal reads in French on one phone and in Spanish on another.
"""
from __future__ import annotations

LANGUAGES = ("fr", "es", "en")
DEFAULT_LANGUAGE = "en"

MESSAGES = {
    "not_in_state": {
        "en": "{action} applies to {allowed}; this character is {state}.",
        "fr": "{action} ne s'applique qu'à : {allowed} ; ce personnage est {state}.",
        "es": "{action} solo se aplica a: {allowed}; este personaje está {state}.",
    },
    "missing_skill": {
        "en": "{action} needs the skill {skill} on your character sheet.",
        "fr": "{action} demande la compétence {skill} sur votre fiche de personnage.",
        "es": "{action} requiere el rasgo {skill} en tu hoja de personaje.",
    },
    "unknown_action": {
        "en": "Unknown action '{action}'. Known actions: {known}.",
        "fr": "Action inconnue « {action} ». Actions connues : {known}.",
        "es": "Acción desconocida «{action}». Acciones conocidas: {known}.",
    },
    "calm_place_required": {
        "en": "{action} at this level needs the patient comfortably installed in a calm place.",
        "fr": "{action} à ce niveau demande un patient confortablement installé dans un endroit calme.",
        "es": "{action} a este nivel requiere al paciente cómodamente instalado en un lugar tranquilo.",
    },
    "no_kit": {
        "en": "You have no {kit} left; ask the organisers for one.",
        "fr": "Vous n'avez plus de {kit} ; demandez-en aux organisateurs.",
        "es": "No te queda ningún {kit}; pide uno a la organización.",
    },
    "not_ready": {
        "en": "{action} is not finished: {remaining} s left.",
        "fr": "{action} n'est pas terminé : encore {remaining} s.",
        "es": "{action} no ha terminado: quedan {remaining} s.",
    },
    "game_paused": {
        "en": "The game is paused (game stop); only organisers can act.",
        "fr": "Le jeu est arrêté (arrêt de jeu) ; seuls les organisateurs peuvent agir.",
        "es": "El juego está detenido (Emergencia); solo la organización puede actuar.",
    },
    "game_not_paused": {
        "en": "The game is already running.",
        "fr": "Le jeu est déjà en cours.",
        "es": "El juego ya está en marcha.",
    },
    "game_already_paused": {
        "en": "The game is already paused.",
        "fr": "Le jeu est déjà arrêté.",
        "es": "El juego ya está detenido.",
    },
    "not_declarable": {
        "en": "You cannot declare {action} yourself.",
        "fr": "Vous ne pouvez pas déclarer vous-même : {action}.",
        "es": "No puedes declarar tú mismo: {action}.",
    },
    "treatment_closed": {
        "en": "This treatment is already {status}.",
        "fr": "Ce soin est déjà {status}.",
        "es": "Este tratamiento ya está {status}.",
    },
    "unknown_code": {
        "en": "No character of this event has the code '{code}'.",
        "fr": "Aucun personnage de ce jeu n'a le code « {code} ».",
        "es": "Ningún personaje de este evento tiene el código «{code}».",
    },
    "bad_input": {
        "en": "Invalid request: {detail}",
        "fr": "Requête invalide : {detail}",
        "es": "Petición no válida: {detail}",
    },
    "idempotency_conflict": {
        "en": "This idempotency key was already used for a different request.",
        "fr": "Cette clé d'idempotence a déjà servi pour une autre requête.",
        "es": "Esta clave de idempotencia ya se usó para otra petición.",
    },
    "forbidden": {
        "en": "You may not see or act on this.",
        "fr": "Vous ne pouvez ni voir ni agir sur ceci.",
        "es": "No puedes ver ni actuar sobre esto.",
    },
    "invalid_login": {
        "en": "This login link is invalid, expired or already used; ask an organiser for a new one.",
        "fr": "Ce lien de connexion est invalide, expiré ou déjà utilisé ; demandez-en un nouveau à un organisateur.",
        "es": "Este enlace de acceso no es válido, ha caducado o ya se usó; pide uno nuevo a la organización.",
    },
    "bad_option": {
        "en": "Unknown or invalid option '{option}': {detail}",
        "fr": "Option inconnue ou invalide « {option} » : {detail}",
        "es": "Opción desconocida o no válida «{option}»: {detail}",
    },
    "too_many_logins": {
        "en": "Too many failed login attempts from this network; try again in {minutes} min.",
        "fr": "Trop de tentatives de connexion échouées depuis ce réseau ; réessayez dans {minutes} min.",
        "es": "Demasiados intentos de acceso fallidos desde esta red; vuelve a intentarlo en {minutes} min.",
    },
    "body_too_large": {
        "en": "The request body is larger than {limit_kib} KiB.",
        "fr": "Le corps de la requête dépasse {limit_kib} Kio.",
        "es": "El cuerpo de la petición supera los {limit_kib} KiB.",
    },
    "malformed_json": {
        "en": "The request body is not valid JSON (line {line}, column {column}).",
        "fr": "Le corps de la requête n'est pas du JSON valide (ligne {line}, colonne {column}).",
        "es": "El cuerpo de la petición no es JSON válido (línea {line}, columna {column}).",
    },
    "nul_character": {
        "en": "The request contains a NUL character (\\u0000), which cannot be stored.",
        "fr": "La requête contient un caractère NUL (\\u0000), qui ne peut pas être enregistré.",
        "es": "La petición contiene un carácter NUL (\\u0000), que no se puede guardar.",
    },
    "json_too_deep": {
        "en": "The request body is nested more than {max_depth} levels deep.",
        "fr": "Le corps de la requête est imbriqué sur plus de {max_depth} niveaux.",
        "es": "El cuerpo de la petición tiene más de {max_depth} niveles de anidamiento.",
    },
}

STATUS_WORDS = {
    "completed": {"en": "completed", "fr": "terminé", "es": "completado"},
    "aborted": {"en": "aborted", "fr": "abandonné", "es": "abandonado"},
}


def pick(label, lang: str) -> str:
    """A {fr, es, en} label in one language (English, then anything, as a fallback)."""
    if isinstance(label, dict):
        return label.get(lang) or label.get(DEFAULT_LANGUAGE) or next(iter(label.values()), "")
    return str(label)


def render(code: str, params: dict, lang: str) -> str:
    words = {}
    for key, value in params.items():
        if isinstance(value, list):
            words[key] = ", ".join(pick(v, lang) for v in value)
        else:
            words[key] = pick(value, lang)
    return pick(MESSAGES[code], lang).format(**words)


class RuleRefused(Exception):
    """An action the rules (or the game's situation) do not allow; renders per language."""

    def __init__(self, code: str, /, **params):
        super().__init__(code)
        self.code = code
        self.params = params

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return render(self.code, self.params, lang)

    def __str__(self) -> str:
        return self.message()
