"""What people read about the race, in fr / es / en. `say(key, **params)` gives a label
({fr, es, en}) that `localize` turns into the reader's language at the edge; refusals
(RuleRefused codes) are in rulesets/messages.py."""
from __future__ import annotations

from rulesets.messages import LANGUAGES, pick

TEXTS = {
    # statuses
    "registered": ("Inscrit", "Inscrito", "Registered"),
    "racing": ("En course", "En carrera", "Racing"),
    "overtime": ("En retard", "Fuera de tiempo", "Overtime"),
    "finished": ("Arrivé", "Llegado", "Finished"),
    "dnf": ("Abandon", "Abandono", "Did not finish"),
    "disqualified": ("Disqualifié", "Descalificado", "Disqualified"),
    "over_max_late": ("Hors délai", "Fuera de plazo", "Over the time limit"),
    # gear (rulebook: matériel obligatoire)
    "vest": ("gilet de sécurité jaune", "chaleco de seguridad amarillo", "yellow safety vest"),
    "light": ("lampe frontale ou de poche", "linterna o frontal", "headlamp or torch"),
    "phone": ("téléphone chargé (numéro de l'inscription)",
              "móvil cargado (el número de la inscripción)",
              "charged phone (the number given at registration)"),
    # why a punch does not count
    "before_start": ("avant le départ", "antes de la salida", "before the start"),
    "after_limit": ("après le temps maximum", "después del tiempo máximo", "after the time limit"),
    "after_finish": ("après l'arrivée", "después de la llegada", "after the finish"),
    "duplicate": ("balise déjà pointée", "baliza ya marcada", "balise already punched"),
    # life losses
    "zombie_grab": ("vie arrachée par un zombie", "vida arrancada por un zombi",
                    "life pulled by a zombie"),
    "out_of_zone": ("sortie de la zone de course", "salida de la zona de carrera",
                    "left the race zone"),
    "forbidden_path": ("route, chemin interdit ou clôture", "camino prohibido o valla",
                       "forbidden road, path or fence"),
    # what a zombie confirms before recording a grab (rulebook, rules for zombies)
    "not_fast_running": ("sans course rapide", "sin correr deprisa", "no fast running"),
    "not_near_checkpoint": ("à plus de {metres} m de toute balise",
                            "a más de {metres} m de cualquier baliza",
                            "more than {metres} m from any balise"),
    "no_contact": ("aucun contact, seulement le drapeau", "ningún contacto, solo la bandera",
                   "no contact, only the flag"),
    "not_on_open_road": ("pas sur une voie ouverte à la circulation",
                         "no en una vía abierta al tráfico", "not on a road open to traffic"),
    "target_not_panicking": ("le survivant n'était ni paniqué ni trop effrayé",
                             "el superviviente no estaba en pánico ni demasiado asustado",
                             "the survivor was not panicking or too frightened"),
    "near_checkpoint": ("à {distance} m de la balise {code} (moins de {metres} m)",
                        "a {distance} m de la baliza {code} (menos de {metres} m)",
                        "{distance} m from balise {code} (closer than {metres} m)"),
    # warnings on the organisers' screens and the results
    "points_unconfirmed": (
        "Points par balise non confirmés ({points}) pour le parcours {course} : le règlement "
        "n'en donne pas la valeur ; les scores peuvent changer.",
        "Puntos por baliza no confirmados ({points}) para el recorrido {course}: el reglamento "
        "no da su valor; las puntuaciones pueden cambiar.",
        "Points per balise not confirmed ({points}) for course {course}: the rulebook gives no "
        "value; scores may change."),
    "no_checkpoints": ("Le parcours {course} n'a aucune balise.",
                       "El recorrido {course} no tiene balizas.",
                       "Course {course} has no balise."),
    "overdue": ("{name} ({course}) n'est pas rentré : {minutes} min de retard. Tél. {phone}",
                "{name} ({course}) no ha vuelto: {minutes} min de retraso. Tel. {phone}",
                "{name} ({course}) is not back: {minutes} min overdue. Phone {phone}"),
    # the results page and its CSV
    "h_results": ("Résultats", "Resultados", "Results"),
    "h_rank": ("Rang", "Puesto", "Rank"),
    "h_name": ("Survivant(s)", "Superviviente(s)", "Survivor(s)"),
    "h_found": ("Balises", "Balizas", "Balises"),
    "h_late": ("Minutes de retard", "Minutos de retraso", "Late minutes"),
    "h_lives": ("Vies perdues", "Vidas perdidas", "Lives lost"),
    "h_time": ("Temps", "Tiempo", "Time"),
    "h_score": ("Points", "Puntos", "Score"),
    "h_status": ("Statut", "Estado", "Status"),
    "h_unranked": ("Non classés", "Sin clasificar", "Not ranked"),
    "h_duration": ("durée", "duración", "duration"),
    "h_provisional": ("Classement provisoire au {at}", "Clasificación provisional a las {at}",
                      "Provisional ranking at {at}"),
    # bad input (details of a 400)
    "confirm_missing": ("confirmez avant d'enregistrer : {missing}",
                        "confirma antes de registrar: {missing}",
                        "confirm before recording: {missing}"),
    "unknown_checkpoint": ("aucune balise du parcours {course} n'a le code ou le QR « {code} »",
                           "ninguna baliza del recorrido {course} tiene el código o QR «{code}»",
                           "no balise of course {course} has the code or QR '{code}'"),
    "not_a_member": ("{carrier} n'est pas membre de {name} ({members})",
                     "{carrier} no es miembro de {name} ({members})",
                     "{carrier} is not a member of {name} ({members})"),
    "in_future": ("{field} est dans le futur ({at})", "{field} está en el futuro ({at})",
                  "{field} is in the future ({at})"),
    "too_old": ("{field} est trop ancien ({at})", "{field} es demasiado antiguo ({at})",
                "{field} is too long ago ({at})"),
    "before_start_time": ("{field} ({at}) est avant le départ ({start})",
                          "{field} ({at}) es anterior a la salida ({start})",
                          "{field} ({at}) is before the start ({start})"),
    "duration_needed": ("le parcours « {course} » n'est pas un parcours standard "
                        "(enfant, famille, sportif) : donnez duration_s",
                        "el recorrido «{course}» no es estándar (enfant, famille, sportif): "
                        "indica duration_s",
                        "course '{course}' is not a standard one (enfant, famille, sportif): "
                        "give duration_s"),
    "qr_taken": ("le QR « {qr} » est déjà sur une autre balise",
                 "el QR «{qr}» ya está en otra baliza", "QR '{qr}' is already on another balise"),
    "unknown_course": ("aucun parcours « {course} » dans cette course ({known})",
                       "ningún recorrido «{course}» en esta carrera ({known})",
                       "no course '{course}' in this race ({known})"),
    "team_members": ("une équipe a au moins deux membres", "un equipo tiene al menos dos miembros",
                     "a team has at least two members"),
    "solo_members": ("un survivant seul n'a pas de membres", "un superviviente solo no tiene miembros",
                     "a solo survivor has no members"),
    "bad_phone": ("numéro de téléphone invalide « {phone} »", "número de teléfono no válido «{phone}»",
                  "invalid phone number '{phone}'"),
    "points_by_organisers": ("seuls les organisateurs donnent des points de pénalité",
                             "solo la organización da puntos de penalización",
                             "only organisers give penalty points"),
    "points_off": ("l'option infraction_penalty est « none » : pas de points de pénalité",
                   "la opción infraction_penalty es «none»: sin puntos de penalización",
                   "option infraction_penalty is 'none': no penalty points"),
    # the finger readout (CSV)
    "csv_rejected": ("fichier refusé, rien n'est importé : {count} ligne(s) invalide(s)",
                     "archivo rechazado, no se importa nada: {count} línea(s) no válida(s)",
                     "file refused, nothing imported: {count} bad row(s)"),
    "csv_header": ("l'en-tête doit nommer les colonnes finger, checkpoint, time "
                   "(ou doigt, balise, heure) ; trouvé : {found}",
                   "la cabecera debe nombrar las columnas finger, checkpoint, time "
                   "(o doigt, balise, heure); encontrado: {found}",
                   "the header must name the columns finger, checkpoint, time "
                   "(or doigt, balise, heure); found: {found}"),
    "csv_count": ("{expected} valeurs attendues, {found} trouvées",
                  "se esperaban {expected} valores, hay {found}",
                  "expected {expected} values, found {found}"),
    "csv_finger": ("doigt « {value} » : ce n'est pas un numéro",
                   "dedo «{value}»: no es un número", "finger '{value}' is not a number"),
    "csv_unknown_finger": ("aucun inscrit n'a le doigt {finger}",
                           "ningún inscrito tiene el dedo {finger}",
                           "no entry has finger {finger}"),
    "csv_unknown_checkpoint": ("la balise « {code} » n'est pas sur le parcours {course} du doigt {finger}",
                               "la baliza «{code}» no está en el recorrido {course} del dedo {finger}",
                               "balise '{code}' is not on course {course} of finger {finger}"),
    "csv_time": ("heure « {value} » : ni HH:MM:SS ni ISO 8601 avec fuseau",
                 "hora «{value}»: ni HH:MM:SS ni ISO 8601 con zona horaria",
                 "time '{value}' is neither HH:MM:SS nor ISO 8601 with an offset"),
    "csv_empty": ("le fichier ne contient aucun pointage", "el archivo no contiene ningún marcaje",
                  "the file holds no punch"),
    "csv_too_long": ("plus de {max} lignes", "más de {max} líneas", "more than {max} rows"),
    "csv_encoding": ("le fichier n'est pas en UTF-8", "el archivo no está en UTF-8",
                     "the file is not UTF-8"),
}


def _word(value, lang: str) -> str:
    if isinstance(value, list):
        return ", ".join(_word(v, lang) for v in value)
    return pick(value, lang)


def say(key: str, **params) -> dict:
    texts = dict(zip(LANGUAGES, _ordered(TEXTS[key])))
    return {lang: texts[lang].format(**{k: _word(v, lang) for k, v in params.items()})
            for lang in LANGUAGES}


def _ordered(triple: tuple) -> list:
    """TEXTS are written (fr, es, en); LANGUAGES may be ordered otherwise."""
    by_lang = dict(zip(("fr", "es", "en"), triple))
    return [by_lang[lang] for lang in LANGUAGES]
