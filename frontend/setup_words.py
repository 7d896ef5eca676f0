"""Words of the set-up pages (first organiser, event form, the event's team), in the
reader's language."""
from __future__ import annotations

SETUP = {
    "first_title": {"fr": "Premier organisateur", "es": "Primer organizador", "en": "First organiser"},
    "first_explain": {
        "fr": "Ce serveur n'a pas encore d'administrateur. Donnez votre nom : ce navigateur devient "
              "le compte de l'organisateur principal, qui crée les événements et invite les autres.",
        "es": "Este servidor aún no tiene administrador. Escribe tu nombre: este navegador será la "
              "cuenta del organizador principal, que crea los eventos e invita a los demás.",
        "en": "This server has no administrator yet. Give your name: this browser becomes the main "
              "organiser's account, who creates events and invites the others."},
    "your_name": {"fr": "Votre nom", "es": "Tu nombre", "en": "Your name"},
    "create_account": {"fr": "Créer mon compte", "es": "Crear mi cuenta", "en": "Create my account"},
    "link_dead": {"fr": "Ce lien ne fonctionne plus (déjà utilisé, expiré, ou le serveur a déjà un "
                        "administrateur). Relancez ./run pour en obtenir un nouveau.",
                  "es": "Este enlace ya no funciona (ya usado, caducado, o el servidor ya tiene "
                        "administrador). Vuelve a lanzar ./run para obtener uno nuevo.",
                  "en": "This link no longer works (used, expired, or the server already has an "
                        "administrator). Start ./run again for a new one."},
    "new_title": {"fr": "Créer un événement", "es": "Crear un evento", "en": "Create an event"},
    "choose_ruleset": {"fr": "Choisissez les règles du jeu :", "es": "Elige las reglas del juego:",
                       "en": "Choose the game's rules:"},
    "next": {"fr": "Suivant", "es": "Siguiente", "en": "Next"},
    "change_ruleset": {"fr": "Changer de règles", "es": "Cambiar de reglas", "en": "Change the rules"},
    "name": {"fr": "Nom de l'événement", "es": "Nombre del evento", "en": "Event name"},
    "language": {"fr": "Langue des joueurs (téléphones, cartes)", "es": "Idioma de los jugadores (móviles, tarjetas)",
                 "en": "Players' language (phones, cards)"},
    "time_zone": {"fr": "Fuseau horaire", "es": "Zona horaria", "en": "Time zone"},
    "display": {"fr": "Affichage des téléphones (chaque joueur peut le changer)",
                "es": "Pantalla de los móviles (cada jugador puede cambiarla)",
                "en": "Phones' display (each player may change it)"},
    "display_dark": {"fr": "Sombre", "es": "Oscura", "en": "Dark"},
    "display_night": {"fr": "Nuit : rouge sur noir", "es": "Noche: rojo sobre negro", "en": "Night: red on black"},
    "display_day": {"fr": "Jour : fort contraste", "es": "Día: alto contraste", "en": "Day: high contrast"},
    "starts_on": {"fr": "Premier jour du jeu", "es": "Primer día del juego", "en": "First day of the game"},
    "options": {"fr": "Options des règles", "es": "Opciones de las reglas", "en": "Rule options"},
    "options_explain": {
        "fr": "Chaque option a sa valeur par défaut, celle du livre de règles ; changez seulement ce "
              "que votre jeu fait autrement. Les durées sont en secondes.",
        "es": "Cada opción tiene su valor por defecto, el del reglamento; cambia solo lo que tu juego "
              "hace de otra forma. Las duraciones van en segundos.",
        "en": "Each option has its default, the rulebook's; change only what your game does "
              "differently. Durations are in seconds."},
    "default": {"fr": "par défaut :", "es": "por defecto:", "en": "default:"},
    "allowed": {"fr": "valeurs permises :", "es": "valores permitidos:", "en": "allowed:"},
    "whole_seconds": {"fr": "nombre ≥ 0", "es": "número ≥ 0", "en": "a number ≥ 0"},
    "yes_no": {"fr": "oui ou non", "es": "sí o no", "en": "yes or no"},
    "list": {"fr": "liste séparée par des virgules", "es": "lista separada por comas",
             "en": "a list separated by commas"},
    "paused": {
        "fr": "Le jeu commence en pause : aucun compte à rebours ne tourne tant que vous ne l'avez "
              "pas lancé. Pour le lancer, touchez « Reprendre le jeu » en haut de la vue narrateur.",
        "es": "El juego empieza en pausa: ninguna cuenta atrás corre hasta que lo lances. Para "
              "lanzarlo, toca «Reanudar el juego» arriba en la vista de narrador.",
        "en": "The game starts paused: no countdown runs until you start it. To start it, tap "
              "\"Resume the game\" at the top of the narrator view."},
    "create": {"fr": "Créer l'événement", "es": "Crear el evento", "en": "Create the event"},
    "unknown_option": {"fr": "Option inconnue pour ces règles : {name}.",
                       "es": "Opción desconocida para estas reglas: {name}.",
                       "en": "Unknown option for these rules: {name}."},
    "unknown_ruleset": {"fr": "Règles inconnues : « {name} ». Choisissez-en parmi celles installées.",
                        "es": "Reglas desconocidas: «{name}». Elige entre las instaladas.",
                        "en": "Unknown rules: '{name}'. Choose among those installed."},
    "bad_zone": {"fr": "Fuseau horaire inconnu.", "es": "Zona horaria desconocida.",
                 "en": "Unknown time zone."},
    "staff_only": {"fr": "Seul un organisateur (compte d'équipe) peut créer un événement.",
                   "es": "Solo un organizador (cuenta de equipo) puede crear un evento.",
                   "en": "Only an organiser (a staff account) can create an event."},
    # The event's set-up page.
    "event_title": {"fr": "Préparer l'événement", "es": "Preparar el evento", "en": "Set up the event"},
    "created": {"fr": "Événement créé.", "es": "Evento creado.", "en": "Event created."},
    "steps": {"fr": "Ensuite : importez la liste des personnages depuis la vue narrateur, invitez "
                    "les autres narrateurs, arbitres et l'équipe sécurité ci-dessous, imprimez les cartes.",
              "es": "Después: importa la lista de personajes desde la vista de narrador, invita abajo "
                    "a los demás narradores, árbitros y al equipo de seguridad, imprime las tarjetas.",
              "en": "Next: import the roster from the narrator view, invite the other narrators, "
                    "referees and the safety team below, print the cards."},
    "narrator_view": {"fr": "Vue narrateur", "es": "Vista de narrador", "en": "Narrator view"},
    "cards": {"fr": "Cartes des personnages", "es": "Tarjetas de personajes", "en": "Character cards"},
    "team": {"fr": "Narrateurs, arbitres et sécurité", "es": "Narradores, árbitros y seguridad",
             "en": "Narrators, referees and safety"},
    "invite": {"fr": "Inviter", "es": "Invitar", "en": "Invite"},
    "role": {"fr": "Rôle", "es": "Rol", "en": "Role"},
    "narrator": {"fr": "Narrateur / organisateur", "es": "Narrador / organizador", "en": "Narrator / organiser"},
    "referee": {"fr": "Arbitre", "es": "Árbitro", "en": "Referee"},
    # The safety team answers the calls for help (real) and sees nothing of the game.
    "safety": {"fr": "Équipe sécurité (appels à l'aide, rien du jeu)",
               "es": "Equipo de seguridad (llamadas de ayuda, nada del juego)",
               "en": "Safety team (calls for help, nothing of the game)"},
    "invite_explain": {
        "fr": "Envoyez ce lien (ou faites scanner ce QR) à la personne invitée : il s'utilise une "
              "fois, pendant 30 jours. Les médecins sont des personnages : donnez-leur la "
              "compétence dans la liste des personnages.",
        "es": "Envía este enlace (o haz escanear este QR) a la persona invitada: sirve una vez, "
              "durante 30 días. Los médicos son personajes: dales la habilidad en la lista de "
              "personajes.",
        "en": "Send this link (or have this QR scanned) to the person invited: it works once, for "
              "30 days. Medics are characters: give them the skill in the roster."},
    "pending": {"fr": "Invitations en attente", "es": "Invitaciones pendientes", "en": "Open invitations"},
    "remove": {"fr": "Retirer", "es": "Quitar", "en": "Remove"},
    "cancel": {"fr": "Annuler", "es": "Cancelar", "en": "Cancel"},
    "nobody": {"fr": "Personne d'autre pour l'instant.", "es": "Nadie más por ahora.",
               "en": "Nobody else yet."},
    "you": {"fr": "vous", "es": "tú", "en": "you"},
    "join_title": {"fr": "Rejoindre l'équipe", "es": "Unirse al equipo", "en": "Join the team"},
    "join_explain": {"fr": "Vous êtes invité·e comme {role} de « {event} ». Donnez votre nom.",
                     "es": "Te invitan como {role} de «{event}». Escribe tu nombre.",
                     "en": "You are invited as {role} of \"{event}\". Give your name."},
    "join": {"fr": "Rejoindre", "es": "Unirme", "en": "Join"},
}
