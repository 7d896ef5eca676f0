// The phone app: decides which screen to show (my character, medic, narrator), keeps
// the top bar (connection, last sync, waiting writes, language) and registers the
// service worker that makes it work offline.
import { displayFollowEvent } from "./display.js";   // applied on import, before anything is drawn
import { flush, get, onOutbox, pendingWrites, rereadThroughWorker } from "./api.js";
import { armControl } from "./arm_alerts.js";
import { emergencyControl } from "./emergency.js";
import { helpControl } from "./help.js";
import { trackingControl } from "./tracking.js";
import { LANGUAGES, lang, setLanguage, t } from "./i18n.js";
import { recall, remember } from "./store.js";
import { eventLink, h, mount } from "./util.js";
import * as player from "./player.js";
import * as medic from "./medic.js";
import * as narrator from "./narrator.js";
import * as referee from "./referee.js";
import * as race from "./race.js";
import * as phoneCheck from "./phone_check_screen.js";
import * as safety from "./safety.js";
// Panels of a ruleset or of a feature of the snapshot register themselves (js/panels.js).
import "./airsoft_player.js";
import "./body_panels.js";

const root = document.getElementById("app");
const topbar = document.getElementById("topbar");
// busyUntil: a crowd is reconnecting and the server asked this phone to come back then
// (js/live.js): it says "Reconnecting", not "Offline".
const status = { online: navigator.onLine, syncedAt: null, waiting: 0, refused: false, busyUntil: 0 };
let cleanup = null;
let me = null;
const emergency = emergencyControl();   // Urgence / Emergencia, in the top bar of every screen
const help = helpControl();             // I need help (real), beside it (js/help.js)
const tracking = trackingControl();     // a runner's position during a race (js/tracking.js)
const arming = armControl();            // buzz and sound allowed by a first tap (js/arm_alerts.js)
topbar.after(arming.element, help.banner, tracking.banner, help.alerts);

if ("serviceWorker" in navigator) {
  const controlled = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  // On a first visit the reads made before the worker took control were not kept for
  // offline use: once it has, they are read again through it (quietly: a form being filled
  // stays as it is), so that an offline reload right after the first login has every tool.
  if (!controlled) navigator.serviceWorker.addEventListener("controllerchange", rereadThroughWorker, { once: true });
}

const APP_TITLE = document.title;     // the app's name, from the page (app.html)

function renderTopbar() {
  const links = [];
  for (const character of me ? me.characters : []) {
    const survivor = race.characterLink(me, character);      // a zombie race's survivor (js/race.js)
    if (survivor) { links.push(survivor); continue; }
    links.push(h("a", { href: `#/player/${character.id}` }, character.name));
    if (character.medic) links.push(h("a", { href: `#/medic/${character.id}` }, `${character.name} — ${t("Medic")}`));
  }
  for (const event of me ? me.events : []) {
    const raceLinks = race.eventLinks(event);                 // a zombie race: organisers, zombies
    if (raceLinks) links.push(...raceLinks);
    // Each link names its event and the role it opens: an organiser of four events tells them apart.
    else if (event.roles.includes("narrator")) links.push(eventLink(event, `#/narrator/${event.id}`, t("Narrator")));
    // Referees of an airsoft day have their own screen (sanctions, chrony: js/referee.js).
    if (!raceLinks && isReferee(event)) links.push(eventLink(event, `#/referee/${event.id}`, t("Referee")));
    // Organisers and the safety team of every kind of event: the safety board (js/safety.js),
    // after their own screens.
    if (answersSafety(event)) links.push(h("a", { href: `#/safety/${event.id}`, class: "safety-link" }, t("Safety")));
  }
  // "Is this phone ready for the game?" (js/phone_check_screen.js), on demand.
  if (me) links.push(h("a", { href: "#/check", class: "check-link" }, t("Phone check")));
  // The page's title names the screen shown, as its top-bar link does, before the app's
  // name (WCAG 2.4.2): a list of tabs or a screen reader tells the screens apart.
  const current = links.find((link) => link.getAttribute("href") === location.hash.split("?")[0]);
  if (current) current.setAttribute("aria-current", "page");
  document.title = current ? `${current.textContent} · ${APP_TITLE}` : APP_TITLE;
  const ago = status.syncedAt ? (Date.now() - status.syncedAt) / 1000 : null;
  const state = status.refused
    ? h("span", { class: "net offline", role: "alert" }, "○ ", t("Logged out: scan the QR code on your character sheet to log in again."))
    : status.online
    ? h("span", { class: "net online" }, "● ", t("Online"))
    : status.busyUntil > Date.now()
    ? h("span", { class: "net reconnecting" }, "○ ", t("Reconnecting…"))
    : h("span", { class: "net offline" }, "○ ", t("Offline"),
        ago !== null ? ` — ${t("last synced %(ago)s ago", { ago: ago < 60 ? `${Math.floor(ago)} s` : `${Math.floor(ago / 60)} min` })}` : "");
  const select = h("select", { "aria-label": t("Language"), onchange: (e) => setLanguage(e.target.value) },
    LANGUAGES.map(([code, name]) => h("option", { value: code, selected: code === lang }, name)));
  mount(topbar, h("nav", {}, links), h("div", { class: "status" }, help.button, emergency.button, state,
    status.waiting ? h("span", { class: "waiting" }, ` · ${t("%(n)s waiting to be sent", { n: status.waiting })}`) : "",
    select));
}

export const context = {
  setOnline(online) {
    // The live socket is back: what waits leaves now, not at the next 15-second round.
    if (online && !status.online) flush();
    status.online = online;
    if (online) { status.syncedAt = Date.now(); status.busyUntil = 0; }
    renderTopbar();
  },
  synced(at = Date.now()) { status.syncedAt = at; renderTopbar(); },
  syncedAt() { return status.syncedAt; },
};

onOutbox((items) => { status.waiting = items.length; renderTopbar(); });
window.addEventListener("online", () => renderTopbar());
// The live channel refused this session (js/live.js): the phone stops retrying and says why.
// If the login itself has ended (not only this screen's access), the whole screen says so.
window.addEventListener("live-refused", async () => {
  status.refused = true;
  renderTopbar();
  try {
    const answer = await get("/api/me/");
    if (answer.status === 401 || answer.status === 403) loggedOut();
  } catch { /* offline: the top bar already says it */ }
});
window.addEventListener("logged-out", () => loggedOut());
window.addEventListener("live-busy", (event) => { status.busyUntil = event.detail.until; renderTopbar(); });
window.addEventListener("offline", () => { status.online = false; renderTopbar(); });
setInterval(renderTopbar, 10000);

// This phone's login was ended (cut off as a lost phone, or it expired): what it showed
// goes, and it says so until it logs in again (a reload keeps saying it: the server then
// no longer knows the session, and answers as to a phone that never logged in).
function loggedOut() {
  if (cleanup) cleanup();
  cleanup = null;
  me = null;
  status.refused = true;
  emergency.setEvent(null);          // its call would be refused: no login any more
  remember("logged_out", true);
  remember("me", null);
  showLoggedOut();
  renderTopbar();
}

function showLoggedOut() {
  mount(root, h("section", { class: "card welcome logged-out", role: "alert" },
    h("h1", {}, t("This phone was logged out")),
    h("p", {}, t("Its login has ended: an organiser cut off this phone (a lost or replaced phone), or the login expired.")),
    h("p", {}, t("To play on this phone, scan the new login QR code an organiser gives you."))));
}

async function loadMe() {
  try {
    const answer = await get("/api/me/");
    if (answer.status === 403 || answer.status === 401) return null;
    if (answer.ok) {
      if (!answer.fromCache) { remember("me", answer.data); remember("logged_out", null); }
      return answer.data;
    }
  } catch { /* offline and never loaded: fall through to what we remember */ }
  const saved = recall("me");
  return saved ? saved.value : null;
}

const isReferee = (event) => referee.refereeOnly(event);
// Who answers the calls for help (real): the narrators and the safety team (docs/safety.md).
const answersSafety = (event) => event.roles.includes("narrator") || event.roles.includes("safety");

function defaultRoute() {
  const patient = new URLSearchParams(location.search).get("patient");
  const medicCharacter = me.characters.find((c) => c.medic);
  if (patient && medicCharacter) return `#/medic/${medicCharacter.id}?patient=${patient}`;
  // A label scanned with the phone's own camera app opens the object on the player's screen.
  const object = new URLSearchParams(location.search).get("object");
  if (object && me.characters.length) return `#/player/${me.characters[0].id}?object=${encodeURIComponent(object)}`;
  // A teammate's QR scanned by an airsoft medic's camera app: their heal form, prefilled.
  if (patient && me.characters.length) return `#/player/${me.characters[0].id}?patient=${encodeURIComponent(patient)}`;
  if (me.characters.length) return race.characterRoute(me, me.characters[0]) || `#/player/${me.characters[0].id}`;
  const narrated = me.events.find((e) => e.roles.includes("narrator"));
  if (narrated) return race.eventRoute(narrated) || `#/narrator/${narrated.id}`;
  const refereed = me.events.find(isReferee);
  if (refereed) return `#/referee/${refereed.id}`;
  // The safety team has one screen: the board.
  const guarded = me.events.find(answersSafety);
  return race.zombieRoute(me) || (guarded ? `#/safety/${guarded.id}` : null);
}

// The event a screen is about: a character's (player, medic, survivor) or the event itself.
function eventOfScreen(screen, id) {
  if (["player", "medic", "survivor"].includes(screen)) {
    const character = me.characters.find((c) => c.id === id);
    return character ? character.event : null;
  }
  return ["narrator", "referee", "zombie", "race", "safety"].includes(screen) ? id : null;
}

// No camera: the login code printed under the card's QR, typed ("abcd efgh jklm" works too).
function typedCodeForm() {
  const input = h("input", { name: "code", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", required: true, placeholder: "ABCD-EFGH-JKLM" });
  return h("form", { class: "typed-code", onsubmit: (event) => {
    event.preventDefault();
    const code = input.value.toUpperCase().replace(/[\s-]/g, "");
    if (code) location.assign(`/login/${encodeURIComponent(code)}`);
  } },
  h("label", {}, t("Or type the login code printed on your card:"), " ", input),
  " ", h("button", { type: "submit", class: "primary" }, t("Log in")));
}

let routed = 0;

async function route() {
  const turn = ++routed;
  if (cleanup) cleanup();
  cleanup = null;
  if (!location.hash && me) {
    // A player's first login on this phone opens the phone's check, then the game.
    const first = me.characters.length && !phoneCheck.checkedBefore() && !location.search;
    const target = first ? "#/check?first=1" : defaultRoute();
    if (target) { history.replaceState(null, "", `/${target}`); }
  }
  const [path, query] = location.hash.slice(2).split("?");
  const [screen, id] = path.split("/");
  const params = new URLSearchParams(query || "");
  const screens = { player, medic, narrator, referee, safety, ...race.screens };
  const shown = (me && race.redirect(me, screen, Number(id))) || screen;
  const screenEvent = me ? eventOfScreen(shown, Number(id)) : null;
  emergency.setEvent(screenEvent);
  displayFollowEvent(me && me.events.find((e) => e.id === screenEvent));
  const own = me && screenEvent ? me.characters.find((c) => c.event === screenEvent) : null;
  help.setEvent(screenEvent, own ? own.id : null);
  // Only a race's runners ever share a position: other phones never ask.
  tracking.setCharacter(own && race.characterRoute(me, own) ? own.id : null);
  if (!me && (recall("logged_out") || {}).value) {
    showLoggedOut();
  } else if (!me) {
    mount(root, h("section", { class: "card welcome" },
      h("h1", {}, t("Welcome")),
      h("p", {}, t("Scan the QR code on your character sheet with this phone's camera to log in.")),
      typedCodeForm()));
  } else if (screen === "check") {
    const stop = await phoneCheck.show(root, { me, params, leave: () => { history.replaceState(null, "", "/"); route(); } });
    if (turn === routed) cleanup = stop;
    else stop();
  } else if (screens[shown] && id) {
    const stop = await screens[shown].show(root, { id: Number(id), params, me, context });
    if (turn === routed) cleanup = stop;
    else stop();                       // the user moved on while this screen was loading
  } else {
    mount(root, h("p", { class: "card" }, t("Nothing to show for this account.")));
  }
  arming.show(Boolean(me));
  renderTopbar();
}

(async () => {
  me = await loadMe();
  status.waiting = (await pendingWrites()).length;
  window.addEventListener("hashchange", route);
  await route();
})();

