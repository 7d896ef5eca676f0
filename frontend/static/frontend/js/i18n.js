// The phone texts come from Django's catalogue (/jsi18n/<lang>/, loaded before this
// module); labels of the rules come already translated from the server.
//
// Which language: the user's explicit choice (the language menu: a `django_language`
// cookie) wins; else the language of the game last opened on this phone (a Septenario
// event is played in Spanish: the calls and the rules' words are the event's), as the
// snapshot tells it (`character.language`); else the browser's, which chose the shell.
import { cookie } from "./util.js";

export const LANGUAGES = [["fr", "Français"], ["es", "Español"], ["en", "English"]];
const CODES = LANGUAGES.map(([code]) => code);
const EVENT_KEY = "event_language";
const shellLang = document.documentElement.lang || "en";

function stored(key) {
  try { return localStorage.getItem(key) || ""; } catch { return ""; }
}

export const chosen = () => (CODES.includes(cookie("django_language")) ? cookie("django_language") : "");

function wanted() {
  const event = stored(EVENT_KEY);
  return chosen() || (CODES.includes(event) ? event : "") || shellLang;
}

// The catalogue of another language than the shell's (the service worker keeps all three).
function loadCatalogue(code) {
  return new Promise((resolve) => {
    if (window.django) window.django.catalog = {};   // English has no entries: start empty
    const script = document.createElement("script");
    script.src = `/jsi18n/${code}/`;
    script.onload = () => resolve(true);
    script.onerror = () => resolve(false);
    document.head.append(script);
  });
}

export let lang = shellLang;
if (wanted() !== shellLang && await loadCatalogue(wanted())) {
  lang = wanted();
  document.documentElement.lang = lang;
  // The app added to the home screen is named in this language too (frontend/shell.py).
  const manifest = document.querySelector('link[rel="manifest"]');
  if (manifest) manifest.href = `/manifest.webmanifest?lang=${lang}`;
}

export function t(text, values) {
  const translated = window.gettext ? window.gettext(text) : text;
  return values ? window.interpolate(translated, values, true) : translated;
}

// Between a label and its value: "Bras gauche : inutile", "Left arm: useless" (French
// typography puts a no-break space before the colon).
export const colon = () => (lang === "fr" ? "\u00a0: " : ": ");

export function setLanguage(code) {
  document.cookie = `django_language=${code}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}

// A snapshot names its game's language: unless the user chose one, the phone speaks it.
// Returns true when the page reloads to switch.
export function followEventLanguage(code) {
  if (!CODES.includes(code) || chosen()) return false;
  const before = stored(EVENT_KEY);
  try { localStorage.setItem(EVENT_KEY, code); } catch { return false; }
  // Already asked for and still not spoken (its catalogue could not load): no reload loop.
  if (code === lang || code === before) return false;
  location.reload();
  return true;
}
