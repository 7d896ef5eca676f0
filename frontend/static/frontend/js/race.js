// The zombie race in the app's routes (app.js): a race's survivor opens #/survivor/<character>
// (js/race_survivor.js), its zombies #/zombie/<event> (race_zombie.js) and its organisers
// #/race/<event> (race_organiser.js) instead of the player's and narrators' screens.
import { t } from "./i18n.js";
import { isRaceCharacter, organises, raceEvent, zombieOf } from "./race_common.js";
import * as organiser from "./race_organiser.js";
import * as survivor from "./race_survivor.js";
import * as zombie from "./race_zombie.js";
import { eventLink, h } from "./util.js";

export const screens = { survivor, zombie, race: organiser };

// The top bar's link for a character (null: not a race's).
export function characterLink(me, character) {
  return isRaceCharacter(me, character) ? h("a", { href: `#/survivor/${character.id}` }, character.name) : null;
}

// The top bar's links for an event: null when it is not a race (the app's own apply).
export function eventLinks(event) {
  if (!raceEvent({ events: [event] }, event.id)) return null;
  const links = [];
  if (organises(event)) links.push(eventLink(event, `#/race/${event.id}`, t("Organiser")));
  if (zombieOf(event)) links.push(eventLink(event, `#/zombie/${event.id}`, t("Zombie")));
  return links;
}

export const characterRoute = (me, character) => (isRaceCharacter(me, character) ? `#/survivor/${character.id}` : null);
export const eventRoute = (event) => (organises(event) ? `#/race/${event.id}` : null);

export function zombieRoute(me) {
  const event = me.events.find(zombieOf);
  return event ? `#/zombie/${event.id}` : null;
}

// A race's character opened as a player (an old link, a bookmark): its survivor's screen.
export function redirect(me, screen, id) {
  if (screen === "player" && isRaceCharacter(me, me.characters.find((c) => c.id === id))) return "survivor";
  return null;
}
