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
    "not_now": {
        "en": "{action} does not apply right now.",
        "fr": "{action} ne s'applique pas en ce moment.",
        "es": "{action} no se aplica ahora mismo.",
    },
    "not_enough_points": {
        "en": "{action} needs more {point} than you have ({have}).",
        "fr": "{action} demande plus de {point} que vous n'en avez ({have}).",
        "es": "{action} requiere más {point} del que tienes ({have}).",
    },
    "not_applicable": {
        "en": "{action} applies to {allowed}; it cannot be given to this character now.",
        "fr": "{action} ne s'applique qu'à : {allowed} ; impossible sur ce personnage maintenant.",
        "es": "{action} solo se aplica a: {allowed}; no se puede aplicar a este personaje ahora.",
    },
    "actor_cannot": {
        "en": "{action}: you cannot do that while {state}.",
        "fr": "{action} : impossible dans votre état ({state}).",
        "es": "{action}: no puedes hacerlo estando {state}.",
    },
    "firearm_misfire": {
        "en": "Misfire: the cap did not go off; the shot does nothing.",
        "fr": "Raté : l'amorce n'a pas claqué ; le tir ne fait rien.",
        "es": "Fallo: el fulminante no ha detonado; el disparo no tiene efecto.",
    },
    "hit_not_valid": {
        "en": "A melee blow to the head or neck does not count; only a ranged hit there does (as torso).",
        "fr": "Un coup de mêlée à la tête ou au cou ne compte pas ; seul un tir à distance y compte (comme le torse).",
        "es": "Un golpe cuerpo a cuerpo en la cabeza o el cuello no cuenta; solo un ataque a distancia (como torso).",
    },
    # Fights between characters (combat/services).
    "not_in_this_game": {
        "en": "There is no {what} in this game's rules.",
        "fr": "Les règles de ce jeu n'ont pas de {what}.",
        "es": "Las reglas de este juego no tienen {what}.",
    },
    "not_yourself": {
        "en": "{what}: choose someone other than yourself.",
        "fr": "{what} : choisissez quelqu'un d'autre que vous-même.",
        "es": "{what}: elige a otra persona que no seas tú.",
    },
    "cannot_fight_now": {
        "en": "{what}: {name} cannot take part now ({state}).",
        "fr": "{what} : {name} ne peut pas y prendre part maintenant ({state}).",
        "es": "{what}: {name} no puede participar ahora ({state}).",
    },
    "already_fighting": {
        "en": "{name} is already in a {what}; finish it first.",
        "fr": "{name} est déjà dans : {what} ; terminez-le d'abord.",
        "es": "{name} ya está en: {what}; termínalo primero.",
    },
    "duel_armed_defender": {
        "en": "No bare-hand fight against someone holding a {weapon} weapon: the duel does not happen.",
        "fr": "Impossible de taper à main nue sur quelqu'un qui a une arme {weapon} en main : pas de duel.",
        "es": "No se puede pelear sin armas contra quien tiene un arma {weapon} en la mano: no hay duelo.",
    },
    "not_your_turn": {
        "en": "Only {name} can answer this.",
        "fr": "Seul·e {name} peut y répondre.",
        "es": "Solo {name} puede responder.",
    },
    "fight_closed": {
        "en": "This {what} is over ({status}).",
        "fr": "Ce {what} est terminé ({status}).",
        "es": "Este {what} ya terminó ({status}).",
    },
    # The airsoft medic (combat/services/heals.py).
    "interaction_off": {
        "en": "{what} is off in this game (the scenario's option {option}).",
        "fr": "{what} n'est pas activé dans ce jeu (option {option} du scénario).",
        "es": "{what} no está activado en este juego (opción {option} del escenario).",
    },
    "not_teammate": {
        "en": "{what}: {name} is not in your team; only a teammate can do this.",
        "fr": "{what} : {name} n'est pas dans votre équipe ; seul un coéquipier le peut.",
        "es": "{what}: {name} no es de tu equipo; solo un compañero puede hacerlo.",
    },
    "medic_busy": {
        "en": "You are already looking after {name} ({what}); stop that first.",
        "fr": "Vous vous occupez déjà de {name} ({what}) ; arrêtez d'abord.",
        "es": "Ya te estás ocupando de {name} ({what}); detenlo primero.",
    },
    "patient_taken": {
        "en": "{name} is already in another medic's hands ({what}): one medic at a time.",
        "fr": "{name} est déjà entre les mains d'un autre médecin ({what}) : un seul à la fois.",
        "es": "{name} ya está en manos de otro médico ({what}): uno solo a la vez.",
    },
    "heal_not_taken": {
        "en": "{what} no longer works on {name}: the scenario limits how often a player may be healed.",
        "fr": "{what} ne fonctionne plus sur {name} : le scénario limite le nombre de soins par joueur.",
        "es": "{what} ya no funciona con {name}: el escenario limita las curas por jugador.",
    },
    "extraction_needs_request": {
        "en": "{what}: {name} has not asked for a medic; this scenario allows it only after the request.",
        "fr": "{what} : {name} n'a pas demandé de médecin ; ce scénario ne le permet qu'après la demande.",
        "es": "{what}: {name} no ha pedido un médico; este escenario solo lo permite tras la petición.",
    },
    "challenge_lapsed": {
        "en": "The challenge lapsed: it had to be confirmed within {seconds} s.",
        "fr": "Le défi a expiré : il fallait le confirmer dans les {seconds} s.",
        "es": "El desafío caducó: había que confirmarlo en {seconds} s.",
    },
    "union_outnumbered": {
        "en": "Strength in numbers needs strictly more than {ratio} attackers per defender: {attackers} against {defenders}.",
        "fr": "L'union fait la force demande plus du {ratio}× de combattants : {attackers} contre {defenders}.",
        "es": "La unión hace la fuerza exige más de {ratio} atacantes por defensor: {attackers} contra {defenders}.",
    },
    "union_weapon_drawn": {
        "en": "Strength in numbers works only bare-handed, when nobody has drawn a weapon.",
        "fr": "L'union fait la force ne marche qu'à main nue, si personne n'a sorti d'arme.",
        "es": "La unión hace la fuerza solo vale sin armas, si nadie ha sacado un arma.",
    },
    "no_union_against": {
        "en": "No claim of strength in numbers is pending against {name}.",
        "fr": "Aucune « union fait la force » n'est en cours contre {name}.",
        "es": "No hay ninguna «unión hace la fuerza» en curso contra {name}.",
    },
    "not_searchable": {
        "en": "{name} is not inert: only an inert character can be searched.",
        "fr": "{name} n'est pas inerte : on ne peut fouiller qu'un personnage inerte.",
        "es": "{name} no está inerte: solo se puede registrar a un personaje inerte.",
    },
    "firearm_not_held": {
        "en": "You are not holding {item}.",
        "fr": "Vous n'avez pas {item} en main.",
        "es": "No tienes {item} en la mano.",
    },
    "firearm_empty": {
        "en": "{item} is not loaded (no caps on the trigger): the shot does nothing.",
        "fr": "{item} n'est pas chargée (pas de pétards) : le tir ne fait rien.",
        "es": "{item} no está cargada (sin petardos): el disparo no hace nada.",
    },
    "firearm_loaded_already": {
        "en": "{item} is already loaded.",
        "fr": "{item} est déjà chargée.",
        "es": "{item} ya está cargada.",
    },
    "firearm_out_of_range": {
        "en": "A shot counts only under {max} m with no obstacle: this one does nothing.",
        "fr": "Un tir ne compte qu'à moins de {max} m sans obstacle : celui-ci ne fait rien.",
        "es": "Un disparo solo cuenta a menos de {max} m y sin obstáculos: este no hace nada.",
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
    # Objects with a tag (effects/services/items.py).
    "unknown_item": {
        "en": "No object of this game has the code '{code}'.",
        "fr": "Aucun objet de ce jeu n'a le code « {code} ».",
        "es": "Ningún objeto de este evento tiene el código «{code}».",
    },
    "item_used": {
        "en": "{item} was already used: it works only once.",
        "fr": "{item} a déjà été utilisé : il ne sert qu'une fois.",
        "es": "{item} ya se usó: solo sirve una vez.",
    },
    "item_not_usable": {
        "en": "{item} cannot be used this way.",
        "fr": "{item} ne s'utilise pas ainsi.",
        "es": "{item} no se usa así.",
    },
    "item_self_only": {
        "en": "{item} applies to whoever handles it: only a medicine can be given to someone else.",
        "fr": "{item} s'applique à qui le manipule : seul un médicament peut être donné à quelqu'un d'autre.",
        "es": "{item} se aplica a quien lo manipula: solo un medicamento puede darse a otra persona.",
    },
    # Locks (effects/services/locks.py) and requests to the organisers
    # (effects/services/requests.py).
    "lock_already": {
        "en": "{item}: the padlock is already on the {loop} loop.",
        "fr": "{item} : le cadenas est déjà sur la boucle {loop}.",
        "es": "{item}: el candado ya está en la argolla {loop}.",
    },
    "requests_waiting": {
        "en": "You already have {count} requests waiting for the organisers; wait for an answer.",
        "fr": "Vous avez déjà {count} demandes en attente auprès des organisateurs ; attendez une réponse.",
        "es": "Ya tienes {count} peticiones pendientes con la organización; espera una respuesta.",
    },
    "request_answered": {
        "en": "This request was already answered.",
        "fr": "Cette demande a déjà reçu une réponse.",
        "es": "Esta petición ya tiene respuesta.",
    },
    # Carga: carrying objects (effects/services/carrying.py).
    "item_carried_already": {
        "en": "{name} already carries {item}.",
        "fr": "{name} porte déjà {item}.",
        "es": "{name} ya lleva {item}.",
    },
    "item_not_carried": {
        "en": "{name} does not carry {item}: there is nothing to drop.",
        "fr": "{name} ne porte pas {item} : rien à poser.",
        "es": "{name} no lleva {item}: no hay nada que soltar.",
    },
    "item_not_carriable": {
        "en": "{item} is a lock: it stays on its door and cannot be carried.",
        "fr": "{item} est une serrure : elle reste sur sa porte et ne se porte pas.",
        "es": "{item} es una cerradura: se queda en su puerta y no se puede llevar.",
    },
    # Dawns and day ends scheduled by the organisers (schedule/services/days.py).
    "no_days": {
        "en": "The rules of this game ({ruleset}) have no {kind} to schedule.",
        "fr": "Les règles de ce jeu ({ruleset}) n'ont pas de moment « {kind} » à programmer.",
        "es": "Las reglas de este juego ({ruleset}) no tienen {kind} que programar.",
    },
    "day_already_scheduled": {
        "en": "A {kind} is already scheduled at {at}.",
        "fr": "Un moment « {kind} » est déjà programmé à {at}.",
        "es": "Ya hay un {kind} programado para {at}.",
    },
    "day_done": {
        "en": "This {kind} already took place ({at}); it can no longer be cancelled.",
        "fr": "Ce moment « {kind} » a déjà eu lieu ({at}) ; il ne peut plus être annulé.",
        "es": "Este {kind} ya tuvo lugar ({at}); ya no se puede cancelar.",
    },
    "day_running": {
        "en": "This {kind} is being applied to the characters right now; it can no longer be cancelled.",
        "fr": "Ce moment « {kind} » est en cours d'application aux personnages ; il ne peut plus être annulé.",
        "es": "Este {kind} se está aplicando a los personajes ahora mismo; ya no se puede cancelar.",
    },
    # The airsoft club's register and sanctions (club/services/).
    "unknown_member": {
        "en": "No club member has the number or licence '{member}'.",
        "fr": "Aucun membre du club n'a le numéro ou la licence « {member} ».",
        "es": "Ningún socio del club tiene el número o la licencia «{member}».",
    },
    "member_exists": {
        "en": "The licence number {licence} is already {name}'s (member {id}).",
        "fr": "Le numéro de licence {licence} est déjà celui de {name} (membre {id}).",
        "es": "El número de licencia {licence} ya es de {name} (socio {id}).",
    },
    "member_excluded": {
        "en": "{name} may not play: {kind} until {until} (decided {decided}). Check-in refused.",
        "fr": "{name} ne peut pas jouer : {kind} jusqu'au {until} (décidée le {decided}). Inscription refusée.",
        "es": "{name} no puede jugar: {kind} hasta el {until} (decidida el {decided}). Inscripción rechazada.",
    },
    "member_banned": {
        "en": "{name} is permanently banned from the field (decided {decided}). Check-in refused.",
        "fr": "{name} est interdit·e d'accès au terrain définitivement (décidé le {decided}). Inscription refusée.",
        "es": "{name} tiene prohibido el acceso al campo de forma definitiva (decidido el {decided}). Inscripción rechazada.",
    },
    "member_not_linked": {
        "en": "{name} did not check in as a club member: name the member instead.",
        "fr": "{name} ne s'est pas inscrit·e comme membre du club : indiquez plutôt le membre.",
        "es": "{name} no se inscribió como socio del club: indica el socio.",
    },
    "sanction_needs_organiser": {
        "en": "Only the organisers decide the sanction of a grave fault ({kind}); referees record warnings and sanction-outs.",
        "fr": "Seuls les orgas décident la sanction d'une faute grave ({kind}) ; les arbitres donnent avertissements et mises « out ».",
        "es": "Solo la organización decide la sanción de una falta grave ({kind}); los árbitros dan advertencias y eliminaciones («out»).",
    },
    "revoke_needs_organiser": {
        "en": "Only the organisers revoke a sanction (after the committee's review, when needed).",
        "fr": "Seuls les orgas lèvent une sanction (après avis du comité, si besoin).",
        "es": "Solo la organización revoca una sanción (tras la revisión del comité, si hace falta).",
    },
    "exclusion_end_required": {
        "en": "An exclusion needs its end date (ends_at), at most one year from now ({limit}).",
        "fr": "Une exclusion demande sa date de fin (ends_at), au plus un an après aujourd'hui ({limit}).",
        "es": "Una exclusión necesita su fecha de fin (ends_at), como mucho un año desde hoy ({limit}).",
    },
    "exclusion_too_long": {
        "en": "An exclusion lasts at most one year: it may end on {limit} at the latest, not {asked}.",
        "fr": "Une exclusion dure au plus un an : elle peut finir le {limit} au plus tard, pas le {asked}.",
        "es": "Una exclusión dura como mucho un año: puede terminar el {limit} como muy tarde, no el {asked}.",
    },
    "exclusion_in_past": {
        "en": "The end of an exclusion must be in the future, not {asked}.",
        "fr": "La fin d'une exclusion doit être dans le futur, pas le {asked}.",
        "es": "El fin de una exclusión debe estar en el futuro, no el {asked}.",
    },
    "end_not_applicable": {
        "en": "Only an exclusion takes an end date (ends_at); {kind} does not.",
        "fr": "Seule une exclusion a une date de fin (ends_at) ; pas {kind}.",
        "es": "Solo una exclusión lleva fecha de fin (ends_at); {kind} no.",
    },
    "sanction_revoked_already": {
        "en": "This sanction was already revoked on {at} by {who}.",
        "fr": "Cette sanction a déjà été levée le {at} par {who}.",
        "es": "Esta sanción ya fue revocada el {at} por {who}.",
    },
    "sanction_escalated": {
        "en": "Repeated cheating is a grave fault (rule B13; earlier cheating: sanction {previous} of {date}): recorded as {kind} instead of {asked}.",
        "fr": "Une tricherie répétée est une faute grave (règle B13 ; tricherie précédente : sanction {previous} du {date}) : enregistrée comme « {kind} » au lieu de « {asked} ».",
        "es": "Hacer trampa de forma repetida es falta grave (regla B13; trampa anterior: sanción {previous} del {date}): registrada como «{kind}» en lugar de «{asked}».",
    },
    "cheating_first_grave": {
        "en": "This event's option cheating_first_offence is grave: recorded as {kind} instead of {asked}.",
        "fr": "L'option cheating_first_offence de ce jeu vaut grave : enregistrée comme « {kind} » au lieu de « {asked} ».",
        "es": "La opción cheating_first_offence de este evento es grave: registrada como «{kind}» en lugar de «{asked}».",
    },
    # The chrony station (club/services/chrony.py): a check's reasons, and the pass label.
    "chrony_speed_or_energy": {
        "en": "Give either the BB's speed (speed_mps) or the energy measured (energy_j): one of the two.",
        "fr": "Indiquez soit la vitesse de la bille (speed_mps), soit l'énergie mesurée (energy_j) : l'une des deux.",
        "es": "Indica la velocidad de la bola (speed_mps) o la energía medida (energy_j): una de las dos.",
    },
    "chrony_too_powerful": {
        "en": "{energy} J > {max} J",
        "fr": "{energy} J > {max} J",
        "es": "{energy} J > {max} J",
    },
    "chrony_calibre": {
        "en": "calibre {calibre} mm: only {allowed} mm is allowed",
        "fr": "calibre {calibre} mm : seul le {allowed} mm est autorisé",
        "es": "calibre {calibre} mm: solo se permite {allowed} mm",
    },
    "chrony_full_auto": {
        "en": "full-auto used: full-auto is forbidden",
        "fr": "tir en full-auto : le full-auto est interdit",
        "es": "tiro en automático: el automático está prohibido",
    },
    "chrony_cheat": {
        "en": "Proven cheating: {replica} ({code}) passed the chrony at check-in ({passed_at}) and failed a control during the games: {reasons}.",
        "fr": "Tricherie avérée : {replica} ({code}) a passé le chrony à l'accueil ({passed_at}) et échoue à un contrôle pendant les parties : {reasons}.",
        "es": "Trampa probada: {replica} ({code}) pasó el cronógrafo en la acogida ({passed_at}) y falla un control durante las partidas: {reasons}.",
    },
    "replica_not_checked": {
        "en": "No pass label for {replica} ({code}): it has not been through the chrony yet.",
        "fr": "Pas d'étiquette pour {replica} ({code}) : elle n'est pas encore passée au chrony.",
        "es": "No hay etiqueta para {replica} ({code}): todavía no ha pasado por el cronógrafo.",
    },
    "replica_failed": {
        "en": "No pass label for {replica} ({code}): its latest chrony check failed ({reasons}).",
        "fr": "Pas d'étiquette pour {replica} ({code}) : son dernier passage au chrony a échoué ({reasons}).",
        "es": "No hay etiqueta para {replica} ({code}): su último paso por el cronógrafo falló ({reasons}).",
    },
    # The games of an airsoft day (schedule/services/games.py).
    "game_option_unknown": {
        "en": "Unknown scenario option '{option}'. The options of this game are: {known}.",
        "fr": "Option de scénario inconnue « {option} ». Les options de ce jeu sont : {known}.",
        "es": "Opción de escenario desconocida «{option}». Las opciones de este juego son: {known}.",
    },
    "game_option_invalid": {
        "en": "Scenario option '{option}' cannot be {value}: it must be {allowed}.",
        "fr": "L'option de scénario « {option} » ne peut pas valoir {value} : elle doit être {allowed}.",
        "es": "La opción de escenario «{option}» no puede valer {value}: debe ser {allowed}.",
    },
    "game_already_started": {
        "en": "Game {number} has already started ({at}).",
        "fr": "La partie {number} a déjà commencé ({at}).",
        "es": "La partida {number} ya ha empezado ({at}).",
    },
    "game_in_progress": {
        "en": "Game {number} is still being played: end it before starting game {next}.",
        "fr": "La partie {number} est encore en cours : terminez-la avant de lancer la partie {next}.",
        "es": "La partida {number} sigue en juego: termínala antes de empezar la partida {next}.",
    },
    "game_not_started": {
        "en": "Game {number} has not started yet: there is nothing to end.",
        "fr": "La partie {number} n'a pas encore commencé : il n'y a rien à terminer.",
        "es": "La partida {number} aún no ha empezado: no hay nada que terminar.",
    },
    "game_already_ended": {
        "en": "Game {number} has already ended ({at}).",
        "fr": "La partie {number} est déjà terminée ({at}).",
        "es": "La partida {number} ya ha terminado ({at}).",
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


def labels(code: str, **params) -> dict:
    """A message in every language, for a label shown later (a missed shot)."""
    return {lang: render(code, params, lang) for lang in LANGUAGES}


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


# The zombie race (race/, docs/race.md): refusals of a race action (409 unless named in
# players/errors.py). Bad input answers `bad_input` with a detail from race/labels.py.
MESSAGES.update({
    "race_gear_missing": {
        "en": "{name} cannot start: mandatory gear not checked: {missing}.",
        "fr": "{name} ne peut pas partir : matériel obligatoire non vérifié : {missing}.",
        "es": "{name} no puede salir: material obligatorio sin comprobar: {missing}.",
    },
    "race_already_started": {
        "en": "{name} has already started.",
        "fr": "{name} est déjà parti.",
        "es": "{name} ya ha salido.",
    },
    "race_not_racing": {
        "en": "{name} is not racing ({status}).",
        "fr": "{name} n'est pas en course ({status}).",
        "es": "{name} no está en carrera ({status}).",
    },
    "race_no_life_left": {
        "en": "{name} has no life left: no flag can be pulled.",
        "fr": "{name} n'a plus de vie : aucun drapeau à arracher.",
        "es": "{name} no tiene vidas: no queda bandera que arrancar.",
    },
    "race_loss_already_voided": {
        "en": "This life loss was already voided ({reason}).",
        "fr": "Cette perte de vie a déjà été annulée ({reason}).",
        "es": "Esta pérdida de vida ya fue anulada ({reason}).",
    },
    "race_finger_taken": {
        "en": "Finger {finger} is already given to {name}.",
        "fr": "Le doigt {finger} est déjà attribué à {name}.",
        "es": "El dedo {finger} ya está asignado a {name}.",
    },
    "race_not_ended": {
        "en": "{name} has not finished: the finger comes back at the finish.",
        "fr": "{name} n'est pas arrivé : le doigt est rendu à l'arrivée.",
        "es": "{name} no ha llegado: el dedo se devuelve a la llegada.",
    },
    "race_already_returned": {
        "en": "The finger and deposit of {name} are already settled.",
        "fr": "Le doigt et la caution de {name} sont déjà réglés.",
        "es": "El dedo y la fianza de {name} ya están resueltos.",
    },
    "race_deposit_kept": {
        "en": "{name} is disqualified: the deposit is kept (option dq_deposit_returned).",
        "fr": "{name} est disqualifié : la caution est conservée (option dq_deposit_returned).",
        "es": "{name} está descalificado: se retiene la fianza (opción dq_deposit_returned).",
    },
    "race_disqualified": {
        "en": "{name} is disqualified: punches no longer count.",
        "fr": "{name} est disqualifié : les pointages ne comptent plus.",
        "es": "{name} está descalificado: los marcajes ya no cuentan.",
    },
    "race_not_team": {
        "en": "{name} runs solo: there is no carrier to change.",
        "fr": "{name} court seul : pas de porteur à changer.",
        "es": "{name} corre solo: no hay portador que cambiar.",
    },
    "race_checkpoint_exists": {
        "en": "Course {course} already has a balise {code}.",
        "fr": "Le parcours {course} a déjà une balise {code}.",
        "es": "El recorrido {course} ya tiene una baliza {code}.",
    },
    "race_course_exists": {
        "en": "This race already has a course {course}.",
        "fr": "Cette course a déjà un parcours {course}.",
        "es": "Esta carrera ya tiene un recorrido {course}.",
    },
    "race_already_ended": {
        "en": "{name} is already out of the race ({status}).",
        "fr": "{name} est déjà hors course ({status}).",
        "es": "{name} ya está fuera de la carrera ({status}).",
    },
})
